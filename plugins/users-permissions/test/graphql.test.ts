/**
 * users-permissions over GraphQL, through real HTTP POST /graphql: register,
 * login (email or username), `me` (with a JWT, without one, with a bad one),
 * changePassword, forgotPassword → a mail received by a real SMTP server →
 * resetPassword with the mailed code → login, emailConfirmation, duplicate
 * and mass-assignment registers, the user and role mutations (through the
 * services, as REST), no private user field in any answer, the /auth rate
 * limit shared with REST and spent by each alias, and the SDL of all of it
 * against the schema Strapi 4.26 generates.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema } from 'graphql';
import { SHARED_REFERENCE, TestSmtp, eachDatabase, type TestApp } from '@tessera/testing';
import { gql } from '../../graphql/test/helpers';
import { errorBody, recordedBodies, register, startUpApp } from './fixture';

const ME = 'id username email confirmed blocked role { id name description type }';
const AUTHENTICATED = { name: 'Authenticated', description: 'Default role given to authenticated user.', type: 'authenticated' };
const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;
const LOGIN = `mutation ($identifier: String!, $password: String!) { login(input: { identifier: $identifier, password: $password }) { jwt user { ${ME} } } }`;
const REGISTER = `mutation ($input: UsersPermissionsRegisterInput!) { register(input: $input) { jwt user { ${ME} } } }`;

/** Strapi 4.26.2's GraphQL error: `extensions.error`, and `extensions.code` BAD_USER_INPUT for a ValidationError, else STRAPI_<NAME>. */
function gqlError(name: string, message: string, code = name === 'ValidationError' ? 'BAD_USER_INPUT' : `STRAPI_${name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`, details: object = {}) {
  return { message, extensions: { error: { name, message, details }, code } };
}

const RATE_LIMITED = gqlError('RateLimitError', 'Too many requests, please try again later.');

function jwtPayload(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

async function roleId(app: TestApp, type: string): Promise<string> {
  const role = await app.app.db.query('plugin::users-permissions.role').findOne({ where: { type }, select: ['id'] });
  return String(role!.id);
}

eachDatabase('users-permissions: GraphQL account operations', (dialect) => {
  const smtp = new TestSmtp();
  let app: TestApp;
  let authenticated: string;
  const emailConfig = () => ({ provider: 'smtp', providerOptions: { host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true }, from: 'Tessera <no-reply@test.local>' });
  const login = (identifier: string, password: string) => gql(app, LOGIN, { variables: { identifier, password } });
  before(async () => {
    await smtp.start();
    app = await startUpApp(dialect, { graphql: true, config: { email: emailConfig(), advanced: { resetPasswordUrl: 'https://front.test/reset' } } });
    authenticated = await roleId(app, 'authenticated');
  });
  after(async () => {
    await app?.stop();
    await smtp.stop();
  });

  it('register answers { jwt, user } as UsersPermissionsMe, and the JWT works over REST and GraphQL', async () => {
    const response = await gql(app, REGISTER, { variables: { input: { username: 'gina', email: 'Gina@Example.com', password: 'Passw0rd!' } } });
    expect(response.status).to.equal(200);
    const { jwt, user } = response.body.data.register;
    expect(Object.keys(response.body)).to.deep.equal(['data']);
    expect(jwt).to.match(JWT);
    const stored = await app.app.db.query('plugin::users-permissions.user').findOne({ where: { username: 'gina' } });
    expect(user).to.deep.equal({ id: String(stored!.id), username: 'gina', email: 'gina@example.com', confirmed: true, blocked: false, role: { id: authenticated, ...AUTHENTICATED } });
    expect(jwtPayload(jwt).id).to.equal(stored!.id);
    expect((await app.get('/api/users/me', { token: jwt })).body.username).to.equal('gina');
    const me = await gql(app, `{ me { ${ME} } }`, { token: jwt });
    expect(me.body).to.deep.equal({ data: { me: user } });
  });

  it('login with the email (in any case) and with the username; the same user, a fresh JWT', async () => {
    const { id } = await register(app, 'hugo');
    const expected = { id: String(id), username: 'hugo', email: 'hugo@example.com', confirmed: true, blocked: false, role: { id: authenticated, ...AUTHENTICATED } };
    for (const identifier of ['hugo@example.com', 'HUGO@example.com', 'hugo']) {
      const response = await login(identifier, 'Passw0rd!');
      expect(response.status, identifier).to.equal(200);
      expect(response.body.data.login.user, identifier).to.deep.equal(expected);
      expect(jwtPayload(response.body.data.login.jwt).id, identifier).to.equal(id);
    }
  });

  it('login failures: a wrong password and an unknown account alike, other providers disabled, missing fields refused', async () => {
    const invalid = { errors: [gqlError('ValidationError', 'Invalid identifier or password')], data: null };
    expect((await login('hugo', 'wrong')).body).to.deep.equal(invalid);
    expect((await login('nobody@example.com', 'Passw0rd!')).body).to.deep.equal(invalid);
    const github = await gql(app, 'mutation { login(input: { identifier: "hugo", password: "Passw0rd!", provider: "github" }) { jwt } }');
    expect(github.body).to.deep.equal({ errors: [gqlError('ApplicationError', 'This provider is disabled')], data: null });
    const empty = await login('', 'Passw0rd!');
    expect(empty.body).to.deep.equal({
      errors: [gqlError('ValidationError', 'identifier is a required field', 'BAD_USER_INPUT', { errors: [{ path: ['identifier'], message: 'identifier is a required field', name: 'ValidationError' }] })],
      data: null,
    });
    const missing = await gql(app, 'mutation { login(input: { identifier: "hugo" }) { jwt } }');
    expect(missing.status).to.equal(400);
    expect(missing.body.errors![0].extensions!.code).to.equal('GRAPHQL_VALIDATION_FAILED');
  });

  it('me: the user with a JWT; anonymous, Strapi\'s FORBIDDEN; a bad or forged token, a 401 in the REST envelope (as Strapi 4.26.2)', async () => {
    const { jwt, id } = await register(app, 'iris');
    expect((await gql(app, '{ me { id username role { type } } }', { token: jwt })).body).to.deep.equal({ data: { me: { id: String(id), username: 'iris', role: { type: 'authenticated' } } } });
    const anonymous = await gql(app, '{ me { id } }');
    expect(anonymous.status).to.equal(200);
    expect(anonymous.body).to.deep.equal({ errors: [gqlError('ForbiddenError', 'Forbidden access', 'FORBIDDEN')], data: { me: null } });
    for (const token of ['not-a-jwt', `${jwt.slice(0, -4)}AAAA`]) {
      const bad = await gql(app, '{ me { id } }', { token });
      expect(bad.status, token).to.equal(401);
      expect(bad.body, token).to.deep.equal({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });
    }
    // An API token is no user: `me` has nobody to answer with.
    const full = await app.fullAccessToken();
    expect((await gql(app, '{ me { id } }', { token: full })).body).to.deep.equal({ errors: [gqlError('ForbiddenError', 'Forbidden', 'FORBIDDEN')], data: { me: null } });
  });

  it('changePassword: the right current password → a new JWT and the new password; a wrong one → ValidationError', async () => {
    const { jwt, id } = await register(app, 'jack');
    const change = (token: string | undefined, currentPassword: string, password: string) =>
      gql(app, `mutation ($currentPassword: String!, $password: String!) { changePassword(currentPassword: $currentPassword, password: $password, passwordConfirmation: $password) { jwt user { id username } } }`, {
        token,
        variables: { currentPassword, password },
      });
    const wrong = await change(jwt, 'nope', 'X3wPassw0rd!');
    expect(wrong.body).to.deep.equal({ errors: [gqlError('ValidationError', 'The provided current password is invalid')], data: { changePassword: null } });
    const changed = await change(jwt, 'Passw0rd!', 'N3wPassw0rd!');
    expect(changed.body.errors).to.equal(undefined);
    expect(changed.body.data.changePassword.user).to.deep.equal({ id: String(id), username: 'jack' });
    expect(jwtPayload(changed.body.data.changePassword.jwt).id).to.equal(id);
    expect((await login('jack', 'Passw0rd!')).body.errors![0].message).to.equal('Invalid identifier or password');
    expect((await login('jack', 'N3wPassw0rd!')).body.data.login.user.username).to.equal('jack');
    const anonymous = await change(undefined, 'N3wPassw0rd!', 'Other0ne!');
    expect(anonymous.body).to.deep.equal({ errors: [gqlError('ForbiddenError', 'Forbidden access', 'FORBIDDEN')], data: { changePassword: null } });
  });

  it('forgotPassword → mail over SMTP → resetPassword with the mailed code → login with the new password', async () => {
    await register(app, 'kate');
    const before = smtp.mails.length;
    const forgot = await gql(app, 'mutation { forgotPassword(email: "KATE@example.com") { ok } }');
    expect(forgot.body).to.deep.equal({ data: { forgotPassword: { ok: true } } });
    // An unknown address answers the same (no account-existence oracle).
    expect((await gql(app, 'mutation { forgotPassword(email: "nobody@example.com") { ok } }')).body).to.deep.equal({ data: { forgotPassword: { ok: true } } });
    const mail = await smtp.next('kate@example.com', before);
    expect(mail.raw).to.match(/^Subject: Reset password/m);
    const code = /https:\/\/front\.test\/reset\?code=([0-9]+\.[0-9a-f]{64})/.exec(mail.text)![1];
    const reset = (resetCode: string) =>
      gql(app, 'mutation ($code: String!) { resetPassword(code: $code, password: "R3setPassw0rd", passwordConfirmation: "R3setPassw0rd") { jwt user { username email } } }', { variables: { code: resetCode } });
    const bad = await reset('nope');
    expect(bad.body).to.deep.equal({ errors: [gqlError('ValidationError', 'Incorrect code provided')], data: { resetPassword: null } });
    const done = await reset(code);
    expect(done.body.errors).to.equal(undefined);
    expect(done.body.data.resetPassword.user).to.deep.equal({ username: 'kate', email: 'kate@example.com' });
    expect(done.body.data.resetPassword.jwt).to.match(JWT);
    expect((await login('kate', 'Passw0rd!')).body.data).to.equal(null);
    expect((await login('kate@example.com', 'R3setPassw0rd')).body.data.login.user.username).to.equal('kate');
    // A code works once.
    expect((await reset(code)).body).to.deep.equal(bad.body);
  });

  it('emailConfirmation with a bad code is a ValidationError "Invalid token"', async () => {
    const response = await gql(app, 'mutation { emailConfirmation(confirmation: "nope") { jwt user { id } } }');
    expect(response.body).to.deep.equal({ errors: [gqlError('ValidationError', 'Invalid token')], data: { emailConfirmation: null } });
  });

  it('a duplicate register is BAD_USER_INPUT "Email or Username are already taken", as REST answers', async () => {
    await register(app, 'liam');
    const rest = await app.post('/api/auth/local/register', { username: 'liam', email: 'liam@example.com', password: 'Passw0rd!' });
    expect(rest.body).to.deep.equal(errorBody(400, 'ApplicationError', 'Email or Username are already taken'));
    for (const input of [{ username: 'liam', email: 'other@example.com' }, { username: 'liam2', email: 'LIAM@example.com' }]) {
      const response = await gql(app, REGISTER, { variables: { input: { ...input, password: 'Passw0rd!' } } });
      expect(response.body, input.email).to.deep.equal({ errors: [gqlError('ApplicationError', 'Email or Username are already taken')], data: null });
    }
  });

  it('register takes username, email and password only: role, confirmed, blocked are refused before anything runs', async () => {
    const users = () => app.app.db.query('plugin::users-permissions.user').count();
    const before = await users();
    const literal = await gql(app, 'mutation { register(input: { username: "mal", email: "mal@example.com", password: "Passw0rd!", role: 1 }) { jwt } }');
    expect(literal.status).to.equal(400);
    expect(literal.body.errors!.map((error) => [error.message, error.extensions!.code])).to.deep.equal([['Field "role" is not defined by type "UsersPermissionsRegisterInput".', 'GRAPHQL_VALIDATION_FAILED']]);
    const input = { username: 'mal', email: 'mal@example.com', password: 'Passw0rd!', role: '1', confirmed: true, blocked: false, provider: 'github' };
    const variables = await gql(app, REGISTER, { variables: { input } });
    expect(variables.status).to.equal(400);
    expect(variables.body.data).to.equal(undefined);
    expect(variables.body.errors!.map((error) => error.extensions!.code)).to.deep.equal(['BAD_USER_INPUT', 'BAD_USER_INPUT', 'BAD_USER_INPUT', 'BAD_USER_INPUT']);
    expect(variables.body.errors!.map((error) => /Field "(\w+)" is not defined by type "UsersPermissionsRegisterInput"\.$/.exec(error.message)?.[1])).to.deep.equal(['role', 'confirmed', 'blocked', 'provider']);
    expect(await users()).to.equal(before);
  });

  it('user mutations go through the user service: password hashed, codes never writable, privileged fields need user.update', async () => {
    const full = await app.fullAccessToken();
    const created = await gql(app, 'mutation { createUsersPermissionsUser(data: { username: "nina", email: "Nina@example.com", password: "Passw0rd!" }) { data { id attributes { username email provider confirmed blocked role { data { attributes { type } } } } } } }', { token: full });
    expect(created.body.errors).to.equal(undefined);
    const id = created.body.data.createUsersPermissionsUser.data.id;
    expect(created.body.data.createUsersPermissionsUser.data.attributes).to.deep.equal({
      username: 'nina',
      email: 'nina@example.com',
      provider: 'local',
      confirmed: false,
      blocked: false,
      role: { data: { attributes: { type: 'authenticated' } } },
    });
    expect((await login('nina', 'Passw0rd!')).body.data.login.user.id).to.equal(id);
    const codes = await gql(app, `mutation { updateUsersPermissionsUser(id: ${id}, data: { resetPasswordToken: "x" }) { data { id } } }`, { token: full });
    expect(codes.status).to.equal(400);
    expect(codes.body.errors![0].message).to.equal('Field "resetPasswordToken" is not defined by type "UsersPermissionsUserInput".');
    const updated = await gql(app, `mutation { updateUsersPermissionsUser(id: ${id}, data: { blocked: true }) { data { id attributes { blocked } } } }`, { token: full });
    expect(updated.body).to.deep.equal({ data: { updateUsersPermissionsUser: { data: { id, attributes: { blocked: true } } } } });

    // A credential that may create users but not update them cannot hand out a role (shadow CRUD would have).
    const { accessKey: creator } = await app.app.apiTokens.create({ name: 'creator', type: 'custom', permissions: ['plugin::users-permissions.user.create'] });
    const promoted = await gql(app, 'mutation { createUsersPermissionsUser(data: { username: "oscar", email: "oscar@example.com", password: "Passw0rd!", role: 1 }) { data { id } } }', { token: creator });
    expect(promoted.body).to.deep.equal({ errors: [gqlError('ForbiddenError', 'You may not change role', 'FORBIDDEN')], data: null });
    const deleted = await gql(app, `mutation { deleteUsersPermissionsUser(id: ${id}) { data { id attributes { username } } } }`, { token: creator });
    expect(deleted.body).to.deep.equal({ errors: [gqlError('ForbiddenError', 'Forbidden access', 'FORBIDDEN')], data: null });
    const removed = await gql(app, `mutation { deleteUsersPermissionsUser(id: ${id}) { data { id attributes { username } } } }`, { token: full });
    expect(removed.body).to.deep.equal({ data: { deleteUsersPermissionsUser: { data: { id, attributes: { username: 'nina' } } } } });
  });

  it('role mutations go through the role service and answer { ok: true }; permissions and users lists are refused', async () => {
    const full = await app.fullAccessToken();
    const create = await gql(app, 'mutation { createUsersPermissionsRole(data: { name: "Editors", description: "They edit" }) { ok } }', { token: full });
    expect(create.body).to.deep.equal({ data: { createUsersPermissionsRole: { ok: true } } });
    const role = await app.app.db.query('plugin::users-permissions.role').findOne({ where: { type: 'editors' } });
    expect([role!.name, role!.description]).to.deep.equal(['Editors', 'They edit']);
    const update = await gql(app, `mutation { updateUsersPermissionsRole(id: ${role!.id}, data: { name: "Writers" }) { ok } }`, { token: full });
    expect(update.body).to.deep.equal({ data: { updateUsersPermissionsRole: { ok: true } } });
    const lists = await gql(app, `mutation { updateUsersPermissionsRole(id: ${role!.id}, data: { permissions: ["1"], users: ["1"] }) { ok } }`, { token: full });
    expect(lists.body).to.deep.equal({ errors: [gqlError('ValidationError', 'Invalid parameters: permissions, users')], data: { updateUsersPermissionsRole: null } });
    const builtIn = await gql(app, `mutation { deleteUsersPermissionsRole(id: ${authenticated}) { ok } }`, { token: full });
    expect(builtIn.body).to.deep.equal({ errors: [gqlError('ApplicationError', 'The authenticated role cannot be deleted')], data: { deleteUsersPermissionsRole: null } });
    const anonymous = await gql(app, `mutation { deleteUsersPermissionsRole(id: ${role!.id}) { ok } }`);
    expect(anonymous.body).to.deep.equal({ errors: [gqlError('ForbiddenError', 'Forbidden access', 'FORBIDDEN')], data: { deleteUsersPermissionsRole: null } });
    expect((await gql(app, `mutation { deleteUsersPermissionsRole(id: ${role!.id}) { ok } }`, { token: full })).body).to.deep.equal({ data: { deleteUsersPermissionsRole: { ok: true } } });
    expect(await app.app.db.query('plugin::users-permissions.role').count({ where: { id: role!.id } })).to.equal(0);
  });

  it('no answer holds password, resetPasswordToken or confirmationToken, and the user type cannot select them', async () => {
    const graphqlBodies = recordedBodies.filter((body) => body.request === 'POST /graphql');
    expect(graphqlBodies.length).to.be.greaterThan(40);
    for (const { text } of graphqlBodies) {
      expect(text).to.not.match(/"(password|resetPasswordToken|confirmationToken)"/);
      expect(text).to.not.match(/\$2[aby]\$\d\d\$/);
    }
    const full = await app.fullAccessToken();
    for (const field of ['password', 'resetPasswordToken', 'confirmationToken']) {
      const response = await gql(app, `{ usersPermissionsUsers { data { attributes { ${field} } } } }`, { token: full });
      expect(response.status, field).to.equal(400);
      expect(response.body.errors![0].message, field).to.equal(`Cannot query field "${field}" on type "UsersPermissionsUser".`);
      const me = await gql(app, `{ me { ${field} } }`, { token: full });
      expect(me.body.errors![0].message, field).to.equal(`Cannot query field "${field}" on type "UsersPermissionsMe".`);
    }
  });
});

eachDatabase('users-permissions: GraphQL email confirmation', (dialect) => {
  const smtp = new TestSmtp();
  let app: TestApp;
  before(async () => {
    await smtp.start();
    const email = { provider: 'smtp', providerOptions: { host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true }, from: 'Tessera <no-reply@test.local>' };
    app = await startUpApp(dialect, { graphql: true, config: { email, advanced: { emailConfirmation: true } } });
  });
  after(async () => {
    await app?.stop();
    await smtp.stop();
  });

  it('register answers the unconfirmed user without a JWT; the mailed code confirms and logs in, once', async () => {
    const before = smtp.mails.length;
    const registered = await gql(app, REGISTER, { variables: { input: { username: 'pia', email: 'pia@example.com', password: 'Passw0rd!' } } });
    expect(registered.body.errors).to.equal(undefined);
    expect(registered.body.data.register.jwt).to.equal(null);
    expect(registered.body.data.register.user).to.include({ username: 'pia', confirmed: false });
    const refused = await gql(app, LOGIN, { variables: { identifier: 'pia', password: 'Passw0rd!' } });
    expect(refused.body).to.deep.equal({ errors: [gqlError('ApplicationError', 'Your account email is not confirmed')], data: null });
    const mail = await smtp.next('pia@example.com', before);
    const code = /email-confirmation\?confirmation=([0-9a-f]{64})/.exec(mail.text)![1];
    const confirm = () => gql(app, 'mutation ($code: String!) { emailConfirmation(confirmation: $code) { jwt user { username confirmed } } }', { variables: { code } });
    const confirmed = await confirm();
    expect(confirmed.body.errors).to.equal(undefined);
    expect(confirmed.body.data.emailConfirmation.user).to.deep.equal({ username: 'pia', confirmed: true });
    const jwt = confirmed.body.data.emailConfirmation.jwt;
    expect((await gql(app, '{ me { username confirmed } }', { token: jwt })).body).to.deep.equal({ data: { me: { username: 'pia', confirmed: true } } });
    expect((await confirm()).body).to.deep.equal({ errors: [gqlError('ValidationError', 'Invalid token')], data: { emailConfirmation: null } });
  });
});

eachDatabase('users-permissions: GraphQL and the /auth rate limit', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startUpApp(dialect, { graphql: true, config: { ratelimit: { enabled: true, interval: 60_000, max: 3 } } });
  });
  after(() => app?.stop());

  it('login shares REST login\'s counter, and each aliased login spends it: one request cannot send more than the limit', async () => {
    await register(app, 'olga');
    const aliases = [1, 2, 3].map((n) => `a${n}: login(input: { identifier: "olga", password: "Passw0rd!" }) { user { username } }`).join(' ');
    const three = await gql(app, `mutation { ${aliases} }`);
    expect(three.body).to.deep.equal({ data: { a1: { user: { username: 'olga' } }, a2: { user: { username: 'olga' } }, a3: { user: { username: 'olga' } } } });
    expect(three.headers.get('x-ratelimit-limit')).to.equal('3');
    expect(three.headers.get('x-ratelimit-remaining')).to.equal('0');
    const fourth = await gql(app, LOGIN, { variables: { identifier: 'olga', password: 'Passw0rd!' } });
    expect(fourth.status).to.equal(200);
    expect(fourth.body).to.deep.equal({ errors: [RATE_LIMITED], data: null });
    expect(Number(fourth.headers.get('retry-after'))).to.be.within(1, 60);
    // REST sees the same spent counter.
    expect((await app.post('/api/auth/local', { identifier: 'olga', password: 'Passw0rd!' })).body).to.deep.equal(errorBody(429, 'RateLimitError', 'Too many requests, please try again later.'));
  });

  it('REST requests spend the GraphQL budget too; aliased registers stop at the limit, only the first ones create users', async () => {
    // register('olga') above spent one; REST spends a second.
    expect((await app.post('/api/auth/local/register', { username: 'olga', email: 'olga@example.com', password: 'Passw0rd!' })).status).to.equal(400);
    const users = () => app.app.db.query('plugin::users-permissions.user').count();
    const before = await users();
    const aliases = [1, 2, 3].map((n) => `r${n}: register(input: { username: "bulk${n}", email: "bulk${n}@example.com", password: "Passw0rd!" }) { user { username } }`).join(' ');
    const response = await gql(app, `mutation { ${aliases} }`);
    // register's result is non-null: the limited field nulls the whole answer and the fields after it never run.
    expect(response.body).to.deep.equal({ errors: [RATE_LIMITED], data: null });
    expect(await users()).to.equal(before + 1);
  });

  it('aliases of a nullable operation run one by one and stop at the limit; each flow keeps its own counter, as its REST route does', async () => {
    const aliases = [1, 2, 3, 4].map((n) => `f${n}: forgotPassword(email: "nobody${n}@example.com") { ok }`).join(' ');
    const response = await gql(app, `mutation { ${aliases} }`);
    expect(response.body).to.deep.equal({
      errors: [RATE_LIMITED],
      data: { f1: { ok: true }, f2: { ok: true }, f3: { ok: true }, f4: null },
    });
    expect((await app.post('/api/auth/forgot-password', { email: 'nobody@example.com' })).status).to.equal(429);
    // Not an /auth operation: never limited.
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await gql(app, '{ me { id } }')).body.errors![0].extensions!.code).to.equal('FORBIDDEN');
  });
});

/** `type X {...}` blocks of a printed schema, by name, one line per field (descriptions left out). */
function blocks(sdl: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const match of sdl.matchAll(/^(?:type|input|enum|union|scalar) (\w+)([^\n]*)(?:\n((?: {2}.*\n|\n)*)\})?/gm)) {
    const lines = (match[3] ?? '').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('"""') && !line.endsWith('"""') && !line.startsWith('"'));
    result.set(match[1], [match[2].trim(), ...lines]);
  }
  return result;
}

/** The account operations' types: Strapi's lines exactly. */
const ACCOUNT_TYPES = [
  'UsersPermissionsLoginInput',
  'UsersPermissionsRegisterInput',
  'UsersPermissionsLoginPayload',
  'UsersPermissionsMe',
  'UsersPermissionsMeRole',
  'UsersPermissionsPasswordPayload',
  'UsersPermissionsCreateRolePayload',
  'UsersPermissionsUpdateRolePayload',
  'UsersPermissionsDeleteRolePayload',
];
const ROOT_FIELDS = /^(me|login|register|changePassword|forgotPassword|resetPassword|emailConfirmation|(create|update|delete)UsersPermissions(Role|User))\(|^me:/;

eachDatabase('users-permissions: GraphQL schema against Strapi v4', (dialect) => {
  let ours: Map<string, string[]>;
  let descriptions: Map<string, string | null>;
  const reference = blocks(fs.readFileSync(path.join(SHARED_REFERENCE, 'strapi4-graphql-schema.graphql'), 'utf8'));
  before(async () => {
    const app = await startUpApp(dialect, { graphql: true });
    try {
      const response = await gql(app, getIntrospectionQuery());
      const schema = lexicographicSortSchema(buildClientSchema(response.body.data));
      ours = blocks(printSchema(schema));
      const mutations = schema.getMutationType()!.getFields();
      descriptions = new Map(Object.values(mutations).map((field) => [field.name, field.description ?? null]));
    } finally {
      await app.stop();
    }
  });

  it('has the account types, field for field, with the same nullability and defaults', () => {
    for (const name of ACCOUNT_TYPES) {
      expect(reference.has(name), `reference ${name}`).to.equal(true);
      expect(ours.get(name), name).to.deep.equal(reference.get(name));
    }
  });

  it('has the same me query and account, user and role mutations, with the same arguments, results and descriptions', () => {
    for (const root of ['Query', 'Mutation']) {
      const expected = reference.get(root)!.slice(1).filter((line) => ROOT_FIELDS.test(line));
      const actual = ours.get(root)!.slice(1).filter((line) => ROOT_FIELDS.test(line));
      expect(actual, root).to.deep.equal(expected);
    }
    expect(reference.get('Mutation')!.slice(1).filter((line) => ROOT_FIELDS.test(line))).to.have.length(12);
    expect(descriptions.get('register')).to.equal('Register a user');
    expect(descriptions.get('resetPassword')).to.equal('Reset user password. Confirm with a code (resetToken from forgotPassword)');
    expect(descriptions.get('createUsersPermissionsUser')).to.equal('Create a new user');
    expect(descriptions.get('login')).to.equal(null);
  });

  it('has the user input with the password Strapi adds back, and no reset or confirmation code', () => {
    const expected = reference.get('UsersPermissionsUserInput')!.filter((line) => !/^(resetPasswordToken|confirmationToken):/.test(line));
    // The spec's <Type>Input carries the timestamps too (accepted and ignored).
    expect([...ours.get('UsersPermissionsUserInput')!].sort()).to.deep.equal([...expected, 'createdAt: DateTime', 'updatedAt: DateTime'].sort());
  });
});
