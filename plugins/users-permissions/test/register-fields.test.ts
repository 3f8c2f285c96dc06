/**
 * Issue 22 item 4: register with the app's own user fields, by Strapi
 * 4.26.2's rule (its `controllers/auth.js`, read from the npm package):
 * without `register.allowedFields`, every user attribute that is not
 * private, not `writable: false` and not one of the dangerous ones; with it,
 * exactly those fields. Other keys are dropped (Strapi's `_.pick`), not a 400.
 *
 * The user type gets FoodAdvisor's required `job` field through the plugin
 * extension Tessera supports today (`src/extensions/users-permissions/
 * strapi-server.js` rewriting the plugin's content type); FoodAdvisor itself
 * declares it in `content-types/user/schema.json`, which is another part of
 * the ecosystem work.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { USER_KEYS, startUpApp } from './fixture';

/** Rebuilds the user type rather than mutating it: the plugin's content types are shared module state. */
const USER_FIELDS_EXTENSION = `
module.exports = (plugin) => {
  const user = plugin.contentTypes.user;
  plugin.contentTypes = {
    ...plugin.contentTypes,
    user: {
      ...user,
      schema: {
        ...user.schema,
        attributes: {
          ...user.schema.attributes,
          job: { type: 'string', required: true },
          bio: { type: 'text' },
          internalNote: { type: 'string', private: true },
          karma: { type: 'integer', writable: false },
        },
      },
    },
  };
  return plugin;
};
`;

const FILES = { 'src/extensions/users-permissions/strapi-server.js': USER_FIELDS_EXTENSION };

eachDatabase('users-permissions: register with the app\'s user fields (Strapi 4.26.2\'s allowedFields rule)', (dialect) => {
  describe('register.allowedFields not set', () => {
    let app: TestApp;
    before(async () => {
      app = await startUpApp(dialect, { files: FILES });
    });
    after(() => app?.stop());

    it('takes the non-private user attributes (FoodAdvisor\'s job), and drops private, non-writable and unknown keys', async () => {
      const response = await app.post('/api/auth/local/register', {
        username: 'chef', email: 'chef@example.com', password: 'Passw0rd!', job: 'Chef', bio: 'Cooks.', internalNote: 'set by client', karma: 1000, confirmed: false, unknownKey: 1,
      });
      expect(response.status, response.text).to.equal(200);
      expect(response.body.user).to.include({ username: 'chef', job: 'Chef', bio: 'Cooks.', confirmed: true });
      // The schema's own attributes, then the timestamps.
      expect(Object.keys(response.body.user)).to.deep.equal([...USER_KEYS.slice(0, -2), 'job', 'bio', 'karma', 'createdAt', 'updatedAt']);
      const stored = await app.app.db.query('plugin::users-permissions.user').findOne({ where: { username: 'chef' } });
      expect(stored).to.include({ job: 'Chef', internalNote: null, karma: null, confirmed: true });
      expect((await app.get('/api/users/me', { token: response.body.jwt })).body.job).to.equal('Chef');
    });

    it('a required user field missing is the entity validation\'s 400, and nobody is created', async () => {
      const response = await app.post('/api/auth/local/register', { username: 'nojob', email: 'nojob@example.com', password: 'Passw0rd!' });
      expect(response.status).to.equal(400);
      expect(response.body.error.name).to.equal('ValidationError');
      expect(response.body.error.details.errors.map((error: { path: string[] }) => error.path)).to.deep.equal([['job']]);
      expect(await app.app.db.query('plugin::users-permissions.user').count({ where: { username: 'nojob' } })).to.equal(0);
    });
  });

  describe('register.allowedFields set', () => {
    let app: TestApp;
    before(async () => {
      app = await startUpApp(dialect, { files: FILES, config: { register: { allowedFields: ['job'] } } });
    });
    after(() => app?.stop());

    it('takes exactly the listed fields besides username, email and password', async () => {
      const response = await app.post('/api/auth/local/register', { username: 'baker', email: 'baker@example.com', password: 'Passw0rd!', job: 'Baker', bio: 'dropped' });
      expect(response.status, response.text).to.equal(200);
      expect(response.body.user).to.include({ job: 'Baker', bio: null });
    });
  });
});
