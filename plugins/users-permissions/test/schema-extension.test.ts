/**
 * Strapi v4 apps extend the users-permissions user with
 * `src/extensions/users-permissions/content-types/user/schema.json` (FoodAdvisor
 * adds `job`): the whole schema, copied and extended. The user keeps Strapi's
 * table (`up_users`), gains the column, and the new field is read back and
 * shown to its owner.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { contentTypes, USER_UID } from '../src/content-types';
import { register, startUpApp } from './fixture';

const userSchema = contentTypes.user.schema as { attributes: Record<string, unknown> };
// The file as a Strapi app has it: Strapi's attributes (not Tessera's own `passwordChangedAt`) and the app's.
const { passwordChangedAt: _tesseraOnly, ...strapiAttributes } = userSchema.attributes;
const EXTENDED_USER = { ...userSchema, attributes: { ...strapiAttributes, job: { type: 'string' } } };

eachDatabase('users-permissions user extended by src/extensions', (dialect) => {
  let app: TestApp;

  before(async () => {
    app = await startUpApp(dialect, { files: { 'src/extensions/users-permissions/content-types/user/schema.json': EXTENDED_USER } });
  });
  after(async () => {
    await app.stop();
  });

  it('adds the attribute in up_users and answers it on /users/me', async () => {
    const user = app.app.contentType(USER_UID)!;
    expect(user.collectionName).to.equal('up_users');
    expect(user.attributes).to.have.property('job');
    const { jwt, id } = await register(app, 'chef');
    await app.app.db.query(USER_UID).update({ where: { id }, data: { job: 'Chef' } });
    const me = await app.get('/api/users/me', { token: jwt });
    expect(me.status).to.equal(200);
    expect(me.body).to.deep.include({ id, username: 'chef', job: 'Chef' });
    const [row] = await app.app.db.sql.raw('SELECT job FROM up_users WHERE id = ?', [id]);
    expect(row.job).to.equal('Chef');
  });

  it("keeps Tessera's passwordChangedAt, which Strapi's schema file cannot list: a JWT authenticates, and a change of password revokes it", async () => {
    expect(app.app.contentType(USER_UID)!.attributes).to.have.property('passwordChangedAt');
    const { jwt } = await register(app, 'baker');
    expect((await app.get('/api/users/me', { token: jwt })).body).to.deep.include({ username: 'baker', job: null });
    const changed = await app.post('/api/auth/change-password', { currentPassword: 'Passw0rd!', password: 'N3wPassw0rd!', passwordConfirmation: 'N3wPassw0rd!' }, { token: jwt });
    expect(changed.status).to.equal(200);
    expect((await app.get('/api/users/me', { token: jwt })).status).to.equal(401);
    expect((await app.get('/api/users/me', { token: changed.body.jwt })).status).to.equal(200);
  });
});
