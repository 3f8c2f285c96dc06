/**
 * The content manager is on exactly when the admin is: an app depending on `@strapi/admin` (as every Strapi app
 * does) has it, an API-only app has neither.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const NOTE = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  attributes: { title: { type: 'string' } },
};

eachDatabase('content-manager plugin: on with the admin', (dialect) => {
  let app: TestApp | undefined;
  afterEach(() => app?.stop());

  it('is on when the app depends on @strapi/admin', async () => {
    app = await startApp({
      dialect,
      files: { 'package.json': { name: 'cm-on', version: '0.1.0', dependencies: { '@strapi/admin': '4.26.2' } }, 'src/api/note/content-types/note/schema.json': NOTE },
      config: { admin: { auth: { secret: 'admin-test-secret' } } },
    });
    expect(app.app.plugin('admin')?.name).to.equal('admin');
    expect(app.app.plugin('content-manager')?.name).to.equal('content-manager');
  });

  it('is off in an app without the admin', async () => {
    app = await startApp({ dialect, files: { 'package.json': { name: 'cm-off', version: '0.1.0', dependencies: {} }, 'src/api/note/content-types/note/schema.json': NOTE } });
    expect(app.app.plugin('admin')).to.equal(undefined);
    expect(app.app.plugin('content-manager')).to.equal(undefined);
  });
});
