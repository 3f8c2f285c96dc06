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
const EXTENDED_USER = { ...userSchema, attributes: { ...userSchema.attributes, job: { type: 'string' } } };

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
});
