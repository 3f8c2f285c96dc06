/**
 * Strapi v4 apps change a plugin's routes from their register, through the
 * global `strapi` (the Epic Next.js tutorial pushes a middleware onto
 * users-permissions' `GET /users` route). The plugin's module is shared by
 * every app of the process; the change must stay in the app that made it.
 * Before, the next app booted in the process failed: "route GET /users:
 * unknown middleware global::mark-users".
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { startUpApp } from './fixture';

const REGISTER = `
module.exports = {
  register() {
    const routes = strapi.plugins['users-permissions'].routes['content-api'].routes;
    const find = routes.find((route) => route.handler === 'user.find' && route.method === 'GET');
    find.config = find.config || {};
    find.config.middlewares = find.config.middlewares || [];
    find.config.middlewares.push('global::mark-users');
  },
};
`;
const MIDDLEWARE = `module.exports = () => async (ctx, next) => { await next(); ctx.set('x-marked', 'yes'); };\n`;

eachDatabase('users-permissions routes changed by one app stay in that app', (dialect) => {
  let changing: TestApp | undefined;
  let plain: TestApp | undefined;
  after(async () => {
    await changing?.stop();
    await plain?.stop();
  });

  it("runs the first app's added middleware, and boots the next app with the plugin's routes as published", async () => {
    const permissions = { public: ['plugin::users-permissions.user.find'] };
    changing = await startUpApp(dialect, { permissions, files: { 'src/index.js': REGISTER, 'src/middlewares/mark-users.js': MIDDLEWARE } });
    const marked = await changing.get('/api/users');
    expect(marked.status).to.equal(200);
    expect(marked.headers.get('x-marked')).to.equal('yes');

    plain = await startUpApp(dialect, { permissions });
    const unmarked = await plain.get('/api/users');
    expect(unmarked.status).to.equal(200);
    expect(unmarked.headers.get('x-marked')).to.equal(null);
    expect((await changing.get('/api/users')).headers.get('x-marked'), 'the first app keeps its change').to.equal('yes');
  });
});
