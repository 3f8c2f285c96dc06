/**
 * Third-party sign-in routes as Strapi 4.26.2 answers them (recorded on the
 * peer): a provider that is not enabled in the grant settings is a 400
 * `This provider is disabled` on connect and callback; `local`'s callback is
 * the password login; a provider a Strapi-made database enables is refused
 * with a 400 that says Tessera does not sign in with it.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { errorBody, startUpApp } from './fixture';

const DISABLED = errorBody(400, 'ApplicationError', 'This provider is disabled');

eachDatabase('users-permissions: third-party sign-in routes', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startUpApp(dialect);
  });
  after(() => app.stop());

  it('GET /api/auth/github/callback?access_token=… and /api/connect/github: 400 This provider is disabled (strapi-sdk-js authenticateProvider)', async () => {
    for (const path of ['/api/auth/github/callback?access_token=not-a-token', '/api/connect/github', '/api/auth/nosuch/callback', '/api/connect/email']) {
      const response = await app.get(path);
      expect(response.status, path).to.equal(400);
      expect(response.body, path).to.deep.equal(DISABLED);
    }
  });

  it("GET /api/auth/local/callback is the password login, with a GET's empty body: Strapi 4.26.2's 400", async () => {
    const response = await app.get('/api/auth/local/callback');
    expect(response.status).to.equal(400);
    expect(response.body).to.deep.equal(
      errorBody(400, 'ValidationError', '2 errors occurred', {
        errors: [
          { path: ['identifier'], message: 'identifier is a required field', name: 'ValidationError' },
          { path: ['password'], message: 'password is a required field', name: 'ValidationError' },
        ],
      }),
    );
  });

  it('a provider the grant settings enable is refused as unsupported, not half-connected', async () => {
    await app.app.store({ type: 'plugin', name: 'users-permissions' }).set({ key: 'grant', value: { email: { enabled: true }, github: { enabled: true, key: 'k', secret: 's' } } });
    const response = await app.get('/api/connect/github');
    expect(response.status).to.equal(400);
    expect(response.body).to.deep.equal(errorBody(400, 'ApplicationError', 'Signing in with github is not supported: Tessera signs users in with email and password only'));
  });
});
