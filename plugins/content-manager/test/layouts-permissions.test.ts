/**
 * What an admin's role changes on the model routes, as recorded on Strapi 4.26.2 with a Viewer role
 * (recordings/strapi-4.26.2-layouts-viewer.json): saving a content type's view needs the configure-view action of
 * its kind (collection or single types) and a refusal stores nothing; components' views and the model itself are
 * answered to any signed-in admin, as Strapi answers them.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { PERMISSION_UID } from '@tessera/plugin-admin';
import { createRole, grant, signInAdmin } from './entries-fixture';
import { registerAdmin, startPeerApp } from './fixture';
import viewer from './recordings/strapi-4.26.2-layouts-viewer.json';

const VIEWER = { email: 'viewer@example.com', firstname: 'Vi', lastname: 'Ewer', password: 'Viewer123' };
const HOMEPAGE_KEY = 'plugin_content_manager_configuration_content_types::api::homepage.homepage';

eachDatabase('content-manager model routes by role (Strapi 4.26.2 answers)', (dialect) => {
  let app: TestApp;
  let token: string;
  let admin: string;
  before(async () => {
    app = await startPeerApp(dialect);
    admin = await registerAdmin(app);
    const role = await createRole(app, 'Viewer');
    await grant(app, role, [{ action: 'plugin::content-manager.explorer.read', subject: 'api::note.note', properties: { fields: ['title'] }, conditions: [] }]);
    // A subjectless permission, as the roles page stores a plugin action.
    const configureView = { action: 'plugin::content-manager.collection-types.configure-view', subject: null, actionParameters: {}, properties: {}, conditions: [], role };
    await app.app.db.query(PERMISSION_UID).create({ data: configureView });
    token = await signInAdmin(app, VIEWER, role);
  });
  after(() => app?.stop());

  it('answers each route as Strapi answered the Viewer; a refused save stores nothing', async () => {
    const stored = await app.app.db.query('strapi::core-store').findOne({ where: { key: HOMEPAGE_KEY }, select: ['value'] });
    for (const step of viewer.recorded) {
      const response = await app.request(step.method, encodeURI(step.path), { token, body: step.method === 'PUT' ? viewer.body : undefined });
      expect([step.path, response.status]).to.deep.equal([step.path, step.status]);
      if ('answer' in step) expect(response.body).to.deep.equal(step.answer);
      if ('settings' in step) expect((response.body.data.contentType ?? response.body.data).settings).to.deep.equal(step.settings);
    }
    expect(await app.app.db.query('strapi::core-store').findOne({ where: { key: HOMEPAGE_KEY }, select: ['value'] })).to.deep.equal(stored);
  });

  it('lets the Super Admin save a single type view', async () => {
    const response = await app.put('/content-manager/content-types/api::homepage.homepage/configuration', viewer.body, { token: admin });
    expect([response.status, response.body.data.contentType.settings]).to.deep.equal([200, viewer.body.settings]);
  });
});
