/**
 * The auth routes' answers to bad bodies and to callers with no user, held to
 * what Strapi 4.26.2 answered to the same requests (recorded on the peer,
 * ../shared/strapi4-peer, 2026-11-28): its yup checks first (messages, all
 * fields at once, yup's order, `noUnknown`), then the route's own checks in
 * its order — reset-password: the pair, then the code, then the password's
 * rules. Where Strapi's answer depends on its database (a NUL or an over-long
 * username: stored by SQLite, a 500 on PostgreSQL), Tessera refuses on every
 * database, naming the field.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { errorBody, register, startUpApp } from './fixture';

const yup = (...errors: Array<[path: string[], message: string]>) =>
  errorBody(400, 'ValidationError', errors.length === 1 ? errors[0][1] : `${errors.length} errors occurred`, {
    errors: errors.map(([path, message]) => ({ path, message, name: 'ValidationError' })),
  });
const plain = (message: string) => errorBody(400, 'ValidationError', message);
const typeError = (field: string, shown: string) => `${field} must be a \`string\` type, but the final value was: \`${shown}\`.`;

/** [route, raw JSON body, Strapi 4.26.2's answer (all 400)]. */
const ANONYMOUS_CASES: Array<[string, string, object]> = [
  ['/api/auth/reset-password', '{"password":"a","passwordConfirmation":"b","code":"x"}', plain('Passwords do not match')],
  ['/api/auth/reset-password', '{"password":"a","passwordConfirmation":"a","code":"x"}', plain('Incorrect code provided')],
  ['/api/auth/reset-password', '{}', yup([['passwordConfirmation'], 'passwordConfirmation is a required field'], [['password'], 'password is a required field'], [['code'], 'code is a required field'])],
  ['/api/auth/reset-password', '{"password":"abcdef"}', yup([['passwordConfirmation'], 'passwordConfirmation is a required field'], [['code'], 'code is a required field'])],
  ['/api/auth/reset-password', '{"password":123456,"passwordConfirmation":123456,"code":"x"}',
    yup([['passwordConfirmation'], typeError('passwordConfirmation', '123456')], [['password'], typeError('password', '123456')])],
  ['/api/auth/reset-password', '{"password":"abcdef","passwordConfirmation":"abcdef","code":"x","foo":1}', yup([[], 'this field has unspecified keys: foo'])],
  ['/api/auth/reset-password', '[1]', yup([[], 'this must be a `object` type, but the final value was: `[\n  "1"\n]`.'])],
  ['/api/auth/forgot-password', '{"email":"nobody@x.com","x":1}', yup([[], 'this field has unspecified keys: x'])],
  ['/api/auth/forgot-password', '{"email":"nope","x":1}', yup([['email'], 'email must be a valid email'], [[], 'this field has unspecified keys: x'])],
  ['/api/auth/forgot-password', '{"email":5}', yup([['email'], typeError('email', '5')])],
  ['/api/auth/forgot-password', '{"email":null}', yup([['email'], typeError('email', 'null')])],
  ['/api/auth/forgot-password', '{"email":"a\\u0000b@example.com"}', yup([['email'], 'email must be a valid email'])],
  ['/api/auth/forgot-password', '[]', yup([[], 'this must be a `object` type, but the final value was: `[]`.'])],
  ['/api/auth/send-email-confirmation', '[]', yup([[], 'this must be a `object` type, but the final value was: `[]`.'])],
  ['/api/auth/local', '{"identifier":5,"password":[]}', yup([['identifier'], typeError('identifier', '5')], [['password'], typeError('password', '[]')])],
  ['/api/auth/local', '[]', yup([[], 'this must be a `object` type, but the final value was: `[]`.'])],
  ['/api/auth/local/register', '[1,2]',
    yup([['email'], 'email is a required field'], [['username'], 'username is a required field'], [['password'], 'password is a required field'])],
  ['/api/auth/local/register', '{"username":null,"email":true,"password":{}}',
    yup([['email'], typeError('email', 'true')], [['username'], typeError('username', 'null')], [['password'], typeError('password', '{}')])],
];

eachDatabase('users-permissions: auth bodies as Strapi 4.26.2 checks them', (dialect) => {
  let app: TestApp;
  let token: string;
  let jwt: string;
  before(async () => {
    app = await startUpApp(dialect);
    token = await app.fullAccessToken();
    ({ jwt } = await register(app, 'carol'));
  });
  after(() => app?.stop());

  it('yup first, then the route: every case as Strapi 4.26.2 answered it', async () => {
    for (const [route, rawBody, expected] of ANONYMOUS_CASES) {
      const response = await app.request('POST', route, { rawBody });
      expect({ status: response.status, body: response.body }, `${route} ${rawBody}`).to.deep.equal({ status: 400, body: expected });
    }
  });

  it('email-confirmation checks its query with yup: a repeated or nested confirmation is not a string', async () => {
    const cases: Array<[string, object]> = [
      ['confirmation=a&confirmation=b', yup([['confirmation'], typeError('confirmation', '[\n  "\\"a\\"",\n  "\\"b\\""\n]')])],
      ['confirmation[a]=abc', yup([['confirmation'], typeError('confirmation', '{\n  "a": "\\"abc\\""\n}')])],
      ['confirmation=', yup([['confirmation'], 'confirmation is a required field'])],
      ['confirmation=abc', plain('Invalid token')],
    ];
    for (const [query, expected] of cases) expect((await app.get(`/api/auth/email-confirmation?${query}`)).body, query).to.deep.equal(expected);
  });

  it('change-password: yup (the pair is its oneOf, with details), then the current password, then sameness, then the rules', async () => {
    const cases: Array<[object, object]> = [
      [{}, yup([['passwordConfirmation'], 'passwordConfirmation is a required field'], [['password'], 'password is a required field'], [['currentPassword'], 'currentPassword is a required field'])],
      [{ password: 'a', passwordConfirmation: 'b', currentPassword: 'wrong' }, yup([['passwordConfirmation'], 'Passwords do not match'])],
      [{ password: 'a', passwordConfirmation: 'b', currentPassword: 'c', x: 1 }, yup([['passwordConfirmation'], 'Passwords do not match'], [[], 'this field has unspecified keys: x'])],
      [{ password: 'a', passwordConfirmation: 'a', currentPassword: 'wrong' }, plain('The provided current password is invalid')],
      [{ password: 'a', passwordConfirmation: 'a', currentPassword: 'Passw0rd!' }, yup([['password'], 'password must be at least 6 characters'])],
      [{ password: 'Passw0rd!', passwordConfirmation: 'Passw0rd!', currentPassword: 'Passw0rd!' }, plain('Your new password must be different than your current password')],
    ];
    for (const [body, expected] of cases) {
      const response = await app.post('/api/auth/change-password', body, { token: jwt });
      expect({ status: response.status, body: response.body }, JSON.stringify(body)).to.deep.equal({ status: 400, body: expected });
    }
  });

  it('a full-access API token has no user: /users/me is 401 Unauthorized, change-password its 400', async () => {
    const me = await app.get('/api/users/me', { token });
    expect({ status: me.status, body: me.body }).to.deep.equal({ status: 401, body: errorBody(401, 'UnauthorizedError', 'Unauthorized') });
    const change = await app.post('/api/auth/change-password', { password: 'a', passwordConfirmation: 'b', currentPassword: 'c' }, { token });
    expect({ status: change.status, body: change.body }).to.deep.equal({
      status: 400,
      body: errorBody(400, 'ApplicationError', 'You must be authenticated to reset your password'),
    });
  });

  it('register: a taken identity is refused before the password rules, as Strapi creates after its conflict check', async () => {
    const response = await app.post('/api/auth/local/register', { username: 'carol', email: 'other@example.com', password: '123' });
    expect(response.body).to.deep.equal(errorBody(400, 'ApplicationError', 'Email or Username are already taken'));
  });

  it('register: a username with a NUL or past 10,000 characters is refused naming the field, on every database', async () => {
    const cases: Array<[string, string]> = [
      ['u'.repeat(10_001), 'username must be at most 255 characters'],
      ['a\u0000b', 'username must not contain NUL characters'],
    ];
    for (const [username, message] of cases) {
      const response = await app.post('/api/auth/local/register', { username, email: `n${username.length}@example.com`, password: 'Passw0rd!' });
      expect({ status: response.status, body: response.body }).to.deep.equal({ status: 400, body: yup([['username'], message]) });
    }
    expect(await app.app.db.query('plugin::users-permissions.user').count()).to.equal(1);
  });
});
