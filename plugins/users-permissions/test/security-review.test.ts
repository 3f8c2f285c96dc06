/**
 * Issue 23's findings on users-permissions, each reproduced through real
 * HTTP on both databases:
 *
 * 1. ReDoS: the forgot-password body `"a@" + "."×100000 + " "` held the
 *    event loop 18 s (and every request beside it). Now the email is bounded
 *    (254) and checked in linear time, on every flow and through GraphQL
 *    variables.
 * 4. GraphQL CSRF: a form-encoded (or text/plain) POST ran a `register`
 *    mutation; now it needs a preflight-only header. GET never runs a mutation.
 * 6. A username equal to another user's email no longer blocks that user's
 *    email login; a change of password clears the reset code and revokes the
 *    JWTs issued before it (to the millisecond, see password-change.ts).
 */
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { gql } from '../../graphql/test/helpers';
import { errorBody, register, startUpApp, UNAUTHORIZED } from './fixture';

const USER_UID = 'plugin::users-permissions.user';
const SECRET = 'security-review-secret-0123456789';
const EVIL_EMAIL = `a@${'.'.repeat(100_000)} `;
/*
 * The old pattern took ~18 s on EVIL_EMAIL. No clock decides these tests (a busy machine must not change a verdict):
 * the answers show the length bound applies before any pattern, and the ReDoS suite (scripts/redos) shows no pattern
 * in the source can backtrack. The timings are printed for the reader.
 */
const TOO_LONG = errorBody(400, 'ValidationError', 'email must be at most 254 characters', { errors: [{ path: ['email'], message: 'email must be at most 254 characters', name: 'ValidationError' }] });
const REGISTER_MUTATION = (name: string) => `mutation { register(input: { username: "${name}", email: "${name}@example.com", password: "Passw0rd!" }) { jwt } }`;

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

function claims(token: string): jwt.JwtPayload {
  return jwt.decode(token) as jwt.JwtPayload;
}

eachDatabase('users-permissions: issue 23 (ReDoS, GraphQL CSRF, login and credentials)', (dialect) => {
  let app: TestApp;
  const users = () => app.app.db.query(USER_UID);
  before(async () => {
    app = await startUpApp(dialect, { graphql: true, config: { jwtSecret: SECRET } });
    // Warm the routes once, so the timings below measure the request and not first-use compilation.
    await app.post('/api/auth/forgot-password', { email: 'warm@example.com' });
    await app.get('/api/posts');
  });
  after(() => app?.stop());

  describe('1. no request string reaches a pattern that can backtrack', () => {
    it('the forgot-password body of the review answers a 400 at once, and a request beside it is not held', async () => {
      const rounds = [];
      for (let round = 0; round < 3; round += 1) {
        const [forgot, beside] = await Promise.all([timed(() => app.post('/api/auth/forgot-password', { email: EVIL_EMAIL })), timed(() => app.get('/api/posts'))]);
        expect(forgot.result.status).to.equal(400);
        expect(forgot.result.body).to.deep.equal(TOO_LONG);
        expect(beside.result.status).to.equal(200);
        rounds.push({ forgot: forgot.ms, beside: beside.ms });
      }
      console.log(`      forgot-password with the 100 kB email: ${rounds.map((round) => `${round.forgot.toFixed(1)} ms (GET beside: ${round.beside.toFixed(1)} ms)`).join(', ')}`);
    });

    it('the same through GraphQL variables: forgotPassword(email: $e)', async () => {
      const result = await gql(app, 'mutation ($e: String!) { forgotPassword(email: $e) { ok } }', { variables: { e: EVIL_EMAIL } });
      expect(result.body.data).to.deep.equal({ forgotPassword: null });
      const { status: _status, ...error } = TOO_LONG.error;
      expect(result.body.errors?.[0]?.extensions).to.deep.equal({ error, code: 'BAD_USER_INPUT' });
    });

    it('every flow that takes an email bounds it at 254 characters, and still refuses a bad one of backtracking shape', async () => {
      const long = `${'a'.repeat(243)}@example.com`;
      expect(long.length).to.equal(255);
      const token = await app.fullAccessToken();
      const answers = await Promise.all([
        app.post('/api/auth/local/register', { username: 'longmail', email: long, password: 'Passw0rd!' }),
        app.post('/api/auth/send-email-confirmation', { email: long }),
        app.post('/api/auth/forgot-password', { email: long }),
        app.post('/api/users', { username: 'longmail', email: long, password: 'Passw0rd!' }, { token }),
      ]);
      for (const answer of answers) expect(answer.body).to.deep.equal(TOO_LONG);
      // 254 characters of the pattern's worst case: refused as not an email, at once.
      const shaped = `a@${'.'.repeat(251)} `;
      expect(shaped.length).to.equal(254);
      const result = await app.post('/api/auth/forgot-password', { email: shaped });
      expect(result.body.error.message).to.equal('email must be a valid email');
      // The boundary itself is an address.
      const fits = `${'b'.repeat(242)}@example.com`;
      expect((await app.post('/api/auth/forgot-password', { email: fits })).body).to.deep.equal({ ok: true });
      expect(await users().count({ where: { username: 'longmail' } })).to.equal(0);
    });
  });

  describe('4. GraphQL CSRF: only requests a browser must preflight run', () => {
    const post = (body: string, headers: Record<string, string>) => app.request('POST', '/graphql', { rawBody: body, headers });
    const form = (name: string) => new URLSearchParams({ query: REGISTER_MUTATION(name) }).toString();

    it('a form-encoded or text/plain POST without a preflight header is a 400 in GraphQL\'s format, and registers nobody', async () => {
      const cases: Array<[string, string, string]> = [
        [form('csrf1'), 'application/x-www-form-urlencoded', 'A GraphQL POST sent as application/x-www-form-urlencoded'],
        [JSON.stringify({ query: REGISTER_MUTATION('csrf2') }), 'text/plain;charset=UTF-8', 'A GraphQL POST sent as text/plain'],
      ];
      for (const [body, type, start] of cases) {
        const response = await post(body, { 'content-type': type });
        expect(response.status, type).to.equal(400);
        expect(response.body, type).to.deep.equal({
          errors: [{ message: `${start} must carry an apollo-require-preflight or x-apollo-operation-name header (or Authorization): without one, a page on another site could send it (CSRF)`, extensions: { code: 'BAD_USER_INPUT' } }],
        });
      }
      expect(await users().count({ where: { username: { $in: ['csrf1', 'csrf2'] } } })).to.equal(0);
    });

    it('with apollo-require-preflight or x-apollo-operation-name the same form POST runs; JSON needs no header', async () => {
      const withPreflight = await post(form('csrf3'), { 'content-type': 'application/x-www-form-urlencoded', 'apollo-require-preflight': 'true' });
      expect(withPreflight.status).to.equal(200);
      expect(withPreflight.body.data.register.jwt).to.be.a('string');
      const withOperationName = await post(form('csrf4'), { 'content-type': 'application/x-www-form-urlencoded', 'x-apollo-operation-name': 'Register' });
      expect(withOperationName.body.data.register.jwt).to.be.a('string');
      const json = await post(JSON.stringify({ query: REGISTER_MUTATION('csrf5') }), { 'content-type': 'application/json; charset=utf-8' });
      expect(json.body.data.register.jwt).to.be.a('string');
      expect(await users().count({ where: { username: { $in: ['csrf3', 'csrf4', 'csrf5'] } } })).to.equal(3);
    });

    it('GET never runs a mutation: named, alone, or beside a query', async () => {
      const get = (params: Record<string, string>) => app.get(`/graphql?${new URLSearchParams(params).toString()}`);
      const alone = await get({ query: REGISTER_MUTATION('csrf6') });
      expect(alone.status).to.equal(405);
      const named = await get({ query: `query Q { __typename } ${REGISTER_MUTATION('csrf7').replace('mutation', 'mutation M')}`, operationName: 'M' });
      expect(named.status).to.equal(405);
      const unnamed = await get({ query: `query Q { __typename } ${REGISTER_MUTATION('csrf8').replace('mutation', 'mutation M')}` });
      expect(unnamed.status).to.equal(400);
      expect(await users().count({ where: { username: { $in: ['csrf6', 'csrf7', 'csrf8'] } } })).to.equal(0);
    });
  });

  describe('6. login and credentials', () => {
    it('a username equal to someone else\'s email does not take over that email\'s login', async () => {
      // The squatter comes first, so the database would list it first.
      const squatter = await register(app, 'squatter');
      await users().update({ where: { id: squatter.id }, data: { username: 'victim@example.com' } });
      const victim = await app.app.plugin('users-permissions')!.service('user').add({ username: 'victim', email: 'victim@example.com', password: 'V1ctimPass!', confirmed: true, blocked: false });
      const login = await app.post('/api/auth/local', { identifier: 'victim@example.com', password: 'V1ctimPass!' });
      expect(login.status).to.equal(200);
      expect(login.body.user.id).to.equal(victim.id);
      // The squatter keeps its own email login.
      expect((await app.post('/api/auth/local', { identifier: 'squatter@example.com', password: 'Passw0rd!' })).body.user.id).to.equal(squatter.id);
      // And register refuses an identity that is already someone's email or username (Strapi 4.26's rule).
      const taken = errorBody(400, 'ApplicationError', 'Email or Username are already taken');
      expect((await app.post('/api/auth/local/register', { username: 'victim@example.com', email: 'other@example.com', password: 'Passw0rd!' })).body).to.deep.equal(taken);
      expect((await app.post('/api/auth/local/register', { username: 'someone', email: 'VICTIM@example.com', password: 'Passw0rd!' })).body).to.deep.equal(taken);
    });

    it('change-password clears the reset code and revokes earlier JWTs; the one it answers, and later logins, work', async () => {
      const { jwt: before, id } = await register(app, 'changer');
      await app.post('/api/auth/forgot-password', { email: 'changer@example.com' });
      await waitFor(async () => (await users().findOne({ where: { id } }))?.resetPasswordToken !== null);
      const changed = await app.post('/api/auth/change-password', { currentPassword: 'Passw0rd!', password: 'N3wPassw0rd!', passwordConfirmation: 'N3wPassw0rd!' }, { token: before });
      expect(changed.status).to.equal(200);
      const stored = await users().findOne({ where: { id } });
      expect(stored!.resetPasswordToken).to.equal(null);
      expect(stored!.passwordChangedAt).to.be.a('string');
      expect((await app.get('/api/users/me', { token: before })).body).to.deep.equal(UNAUTHORIZED);
      expect((await app.get('/api/users/me', { token: changed.body.jwt })).body.id).to.equal(id);
      const login = await app.post('/api/auth/local', { identifier: 'changer', password: 'N3wPassw0rd!' });
      expect((await app.get('/api/users/me', { token: login.body.jwt })).body.id).to.equal(id);
      // Over GraphQL too, and the stamp never shows.
      expect((await gql(app, '{ me { id } }', { token: before })).status).to.equal(401);
      expect((await app.get('/api/users/me', { token: login.body.jwt })).text).to.not.contain('passwordChangedAt');
    });

    it('reset-password, PUT /users/:id and the user service\'s edit revoke earlier JWTs too', async () => {
      const token = await app.fullAccessToken();
      const viaUsers = await register(app, 'adminchanged');
      expect((await app.put(`/api/users/${viaUsers.id}`, { password: 'Adm1nSet!' }, { token })).status).to.equal(200);
      expect((await app.get('/api/users/me', { token: viaUsers.jwt })).body).to.deep.equal(UNAUTHORIZED);

      const viaService = await register(app, 'serviceedited');
      await app.app.plugin('users-permissions')!.service('user').edit(viaService.id, { password: 'S3rviceSet!' });
      expect((await app.get('/api/users/me', { token: viaService.jwt })).body).to.deep.equal(UNAUTHORIZED);
      // A write that does not touch the password revokes nothing.
      const untouched = await register(app, 'untouched');
      await app.app.plugin('users-permissions')!.service('user').edit(untouched.id, { blocked: false });
      expect((await app.get('/api/users/me', { token: untouched.jwt })).status).to.equal(200);

      const viaReset = await register(app, 'resetter');
      // A reset code as the forgot-password flow stores it (its digest); the plain code is what the mail carries.
      const { digest, newExpiringCode } = await import('../src/services/tokens');
      const code = newExpiringCode(60_000);
      await users().update({ where: { id: viaReset.id }, data: { resetPasswordToken: digest(code) } });
      const reset = await app.post('/api/auth/reset-password', { code, password: 'R3setPass!', passwordConfirmation: 'R3setPass!' });
      expect(reset.status).to.equal(200);
      expect((await app.get('/api/users/me', { token: viaReset.jwt })).body).to.deep.equal(UNAUTHORIZED);
      expect((await app.get('/api/users/me', { token: reset.body.jwt })).status).to.equal(200);
      expect((await app.post('/api/auth/reset-password', { code, password: 'Ag4inPass!', passwordConfirmation: 'Ag4inPass!' })).body).to.deep.equal(errorBody(400, 'ValidationError', 'Incorrect code provided'));
    });

    it('second-resolution iat is compared correctly: the claim decides to the millisecond; without it, only a later second passes', async () => {
      const { jwt: first, id } = await register(app, 'clocked');
      expect(Object.keys(claims(first))).to.deep.equal(['id', 'iat', 'exp']);
      const changed = await app.post('/api/auth/change-password', { currentPassword: 'Passw0rd!', password: 'N3wPassw0rd!', passwordConfirmation: 'N3wPassw0rd!' }, { token: first });
      const changedAt = Date.parse(String((await users().findOne({ where: { id } }))!.passwordChangedAt));
      expect(claims(changed.body.jwt).passwordChangedAt).to.equal(changedAt);
      const second = Math.floor(changedAt / 1000);
      const sign = (payload: object) => jwt.sign(payload, SECRET, { algorithm: 'HS256', expiresIn: '1h' });
      const status = async (payload: object) => (await app.get('/api/users/me', { token: sign(payload) })).status;
      // Issued in the change's own second, after it: it carries the change's time, so it stands.
      expect(await status({ id, iat: second, passwordChangedAt: changedAt })).to.equal(200);
      // Issued under the previous password (an older change, or none).
      expect(await status({ id, iat: second + 5, passwordChangedAt: changedAt - 1 })).to.equal(401);
      expect(await status({ id, iat: second - 1 })).to.equal(401);
      // Without the claim (Strapi's tokens, app code's jwt.issue): the change's own second cannot be told apart, so it is refused
      // unless the change fell exactly on the second; the next second passes.
      expect(await status({ id, iat: second })).to.equal(changedAt % 1000 === 0 ? 200 : 401);
      expect(await status({ id, iat: second + 1 })).to.equal(200);
    });
  });
});

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not reached');
}
