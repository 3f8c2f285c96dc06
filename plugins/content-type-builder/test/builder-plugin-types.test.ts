/**
 * A plugin's type changed in the builder (development), as Strapi 4.26.2 does it: the users-permissions User with a
 * new field, saved from the panel (the body Strapi's panel sent, recorded/plugin-user, replayed on the peer under
 * `strapi develop`, 2026-11-30). Strapi writes the whole schema to `src/extensions/users-permissions/content-types/
 * user/schema.json`; after the restart the plugin's type has the field, the content manager writes it, and the
 * plugin's own behaviour (password hashing, sign-in) is unchanged. A second save starts from that file. A type the
 * builder hides (users-permissions' role) and an admin type are not written, and a plugin type is not deleted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { eachDatabase } from '@tessera/testing';
import { DevelopSession, recorded, recordedJson } from './builder-fixture';

const BASE = '/content-type-builder';
const USER_UID = 'plugin::users-permissions.user';
const EXTENSION = 'src/extensions/users-permissions/content-types/user/schema.json';

eachDatabase('content-type builder: a plugin type', (dialect) => {
  const session = new DevelopSession(dialect);
  before(() => session.start());
  after(() => session.stop());
  const request = () => recordedJson<Record<string, unknown>>('plugin-user/panel-user-phone.request.json');

  it("adds a field to the users-permissions User: its extension file as Strapi writes it, then the field is the type's", async () => {
    const saved = await session.app.put(`${BASE}/content-types/${USER_UID}`, request(), { token: session.token });
    expect({ status: saved.status, body: saved.body }).to.deep.equal(recordedJson('plugin-user/panel-user-phone.answer.json'));
    expect(fs.readFileSync(path.join(session.app.dir, EXTENSION), 'utf8')).to.equal(recorded('plugin-user/panel-user-phone.schema.json'));
    await session.restart();
    const listed = await session.app.get(`${BASE}/content-types/${USER_UID}`, { token: session.token });
    expect(listed.body.data.schema.attributes.phone).to.deep.equal({ type: 'string' });
    expect(listed.body.data.schema.attributes).not.to.have.property('passwordChangedAt');
  });

  it('the content manager writes the new field; the password is still hashed and the user signs in', async () => {
    const roles = await session.app.get('/content-manager/relations/plugin::users-permissions.user/role', { token: session.token });
    const authenticated = (roles.body.results as Array<{ id: number; name: string }>).find((role) => role.name === 'Authenticated')!;
    const created = await session.app.post(
      `/content-manager/collection-types/${USER_UID}`,
      { username: 'caller', email: 'caller@example.com', password: 'Secret123', confirmed: true, blocked: false, phone: '+33 1 23 45 67 89', role: { connect: [{ id: authenticated.id }] } },
      { token: session.token },
    );
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.phone).to.equal('+33 1 23 45 67 89');
    const signedIn = await session.app.post('/api/auth/local', { identifier: 'caller@example.com', password: 'Secret123' });
    expect([signedIn.status, signedIn.body.user?.phone]).to.deep.equal([200, '+33 1 23 45 67 89']);
    const stored = await session.app.app.db.query(USER_UID).findOne({ where: { username: 'caller' }, select: ['password'] });
    expect(String(stored?.password)).to.match(/^\$2[aby]\$/);
  });

  it('a second save starts from the extension file: the same body writes the same bytes', async () => {
    const saved = await session.app.put(`${BASE}/content-types/${USER_UID}`, request(), { token: session.token });
    expect(saved.status).to.equal(201);
    expect(fs.readFileSync(path.join(session.app.dir, EXTENSION), 'utf8')).to.equal(recorded('plugin-user/panel-user-phone.schema.json'));
    await session.restart();
  });

  it('writes nothing for a type the builder hides or an admin type, and does not delete a plugin type', async () => {
    const before = fs.readdirSync(path.join(session.app.dir, 'src/extensions/users-permissions/content-types'));
    const role = { contentType: { displayName: 'Role', singularName: 'role', pluralName: 'roles', kind: 'collectionType', draftAndPublish: false, attributes: { name: { type: 'string' } } } };
    const hidden = await session.app.put(`${BASE}/content-types/plugin::users-permissions.role`, role, { token: session.token });
    expect(hidden.status).to.equal(400);
    const admin = await session.app.put(`${BASE}/content-types/admin::user`, { contentType: { ...role.contentType, displayName: 'User', singularName: 'user', pluralName: 'users' } }, { token: session.token });
    expect(admin.status).to.be.oneOf([400, 404]);
    expect(fs.readdirSync(path.join(session.app.dir, 'src/extensions/users-permissions/content-types'))).to.deep.equal(before);
    expect(fs.existsSync(path.join(session.app.dir, 'src/extensions/admin'))).to.equal(false);
    const deleted = await session.app.delete(`${BASE}/content-types/${USER_UID}`, { token: session.token });
    expect({ status: deleted.status, body: deleted.body }).to.deep.equal({ status: 400, body: { error: `${USER_UID} belongs to the users-permissions plugin and cannot be deleted` } });
    expect(fs.readFileSync(path.join(session.app.dir, EXTENSION), 'utf8')).to.equal(recorded('plugin-user/panel-user-phone.schema.json'));
  });
});
