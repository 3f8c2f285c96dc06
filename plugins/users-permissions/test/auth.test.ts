/**
 * Register, login (email and username), me and change-password, with the
 * exact bodies Strapi v4 answers (reference samples 40-44, 80, 84-86), and
 * what register refuses: missing or bad fields, taken identities, and every
 * field a client must not set on itself.
 */
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { bootError, eachDatabase, type TestApp } from '@tessera/testing';
import { FORBIDDEN, ISO, USER_KEYS, errorBody, register, startUpApp, upFiles } from './fixture';

eachDatabase('users-permissions: register, login, me, change-password', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startUpApp(dialect);
  });
  after(() => app?.stop());

  it('registers a user: { jwt, user } with exactly the public fields, and rate-limit headers', async () => {
    const response = await app.post('/api/auth/local/register', { username: 'alice', email: 'Alice@Example.com', password: 'Passw0rd!' });
    expect(response.status).to.equal(200);
    expect(Object.keys(response.body)).to.deep.equal(['jwt', 'user']);
    expect(Object.keys(response.body.user)).to.deep.equal(USER_KEYS);
    const { user } = response.body;
    expect(user).to.include({ username: 'alice', email: 'alice@example.com', provider: 'local', confirmed: true, blocked: false });
    expect(user.createdAt).to.match(ISO);
    const payload = jwt.decode(response.body.jwt, { complete: true }) as jwt.Jwt;
    expect(payload.header.alg).to.equal('HS256');
    expect(Object.keys(payload.payload as object)).to.deep.equal(['id', 'iat', 'exp']);
    expect((payload.payload as jwt.JwtPayload).id).to.equal(user.id);
    expect((payload.payload as jwt.JwtPayload).exp! - (payload.payload as jwt.JwtPayload).iat!).to.equal(30 * 24 * 3600);
    expect(response.headers.get('x-ratelimit-limit')).to.equal('10000');
  });

  it('a taken username or email is the 400 of sample 43, whatever the email case', async () => {
    const taken = errorBody(400, 'ApplicationError', 'Email or Username are already taken');
    expect((await app.post('/api/auth/local/register', { username: 'alice', email: 'other@example.com', password: 'Passw0rd!' })).body).to.deep.equal(taken);
    expect((await app.post('/api/auth/local/register', { username: 'alice2', email: 'ALICE@example.com', password: 'Passw0rd!' })).body).to.deep.equal(taken);
  });

  it('register checks its fields', async () => {
    const cases: Array<[object, string]> = [
      [{ username: 'x1', password: 'Passw0rd!' }, 'email is a required field'],
      [{ username: 'x1', email: 'not-an-email', password: 'Passw0rd!' }, 'email must be a valid email'],
      [{ username: 'x1', email: 'x1@example.com', password: '123' }, 'password must be at least 6 characters'],
      [{ username: 'x1', email: 'x1@example.com', password: 'é'.repeat(37) }, 'password must be at most 72 bytes'],
      [{ username: 'x1', email: 'x1@example.com' }, 'password is a required field'],
      [{ email: 'x1@example.com', password: 'Passw0rd!' }, 'username is a required field'],
      [{ username: 7, email: 'x1@example.com', password: 'Passw0rd!' }, 'username must be a `string` type, but the final value was: `7`.'],
    ];
    for (const [body, message] of cases) {
      const response = await app.post('/api/auth/local/register', body);
      expect(response.status, message).to.equal(400);
      expect(response.body.error.name).to.equal('ValidationError');
      expect(response.body.error.message).to.equal(message);
    }
    expect((await app.post('/api/auth/local/register', [1, 2])).status).to.equal(400);
    expect((await app.app.db.query('plugin::users-permissions.user').count())).to.equal(1);
  });

  it('mass assignment on register does nothing: role, confirmed, blocked, provider, codes, id, stamps are dropped (Strapi 4.26 drops them)', async () => {
    const adminRole = await app.app.db.query('plugin::users-permissions.role').create({ data: { name: 'Admins', type: 'admins', description: '' } });
    const extras = {
      role: adminRole.id, confirmed: false, blocked: true, provider: 'github', resetPasswordToken: 'x', confirmationToken: 'x',
      id: 99, createdAt: '2020-01-01T00:00:00.000Z', passwordChangedAt: '2020-01-01T00:00:00.000Z', nickname: 'not an attribute',
    };
    const response = await app.post('/api/auth/local/register', { username: 'mallory', email: 'mallory@example.com', password: 'Passw0rd!', ...extras });
    expect(response.status).to.equal(200);
    expect(Object.keys(response.body.user)).to.deep.equal(USER_KEYS);
    const { id } = response.body.user;
    expect(id).to.not.equal(99);
    const stored = await app.app.db.query('plugin::users-permissions.user').findOne({ where: { id }, populate: { role: true } });
    expect(stored).to.include({ confirmed: true, blocked: false, provider: 'local', resetPasswordToken: null, confirmationToken: null, passwordChangedAt: null });
    expect(String(stored!.createdAt)).to.not.contain('2020');
    expect((stored!.role as { type: string }).type).to.equal('authenticated');
    expect(String(stored!.password)).to.match(/^\$2[aby]\$10\$/);
  });

  it('logs in with the email or the username (samples 41 and 42)', async () => {
    for (const identifier of ['alice@example.com', 'ALICE@EXAMPLE.COM', 'alice']) {
      const response = await app.post('/api/auth/local', { identifier, password: 'Passw0rd!' });
      expect(response.status, identifier).to.equal(200);
      expect(Object.keys(response.body)).to.deep.equal(['jwt', 'user']);
      expect(Object.keys(response.body.user)).to.deep.equal(USER_KEYS);
      expect(response.body.user.username).to.equal('alice');
    }
    const invalid = errorBody(400, 'ValidationError', 'Invalid identifier or password');
    expect((await app.post('/api/auth/local', { identifier: 'alice@example.com', password: 'wrong' })).body).to.deep.equal(invalid);
    expect((await app.post('/api/auth/local', { identifier: 'nobody@example.com', password: 'wrong' })).body).to.deep.equal(invalid);
    expect((await app.post('/api/auth/local', { identifier: 'Alice', password: 'Passw0rd!' })).body).to.deep.equal(invalid);
    const missing = await app.post('/api/auth/local', { identifier: 'alice' });
    expect(missing.status).to.equal(400);
    expect(missing.body.error.message).to.equal('password is a required field');
    expect((await app.post('/api/auth/local', { identifier: { $ne: '' }, password: 'x' })).status).to.equal(400);
    // Identifiers no account can have name none, as on Strapi (they were 400s naming the username column).
    for (const identifier of ['a'.repeat(20000), 'alice\u0000', 'alice@example.com\u0000']) {
      expect((await app.post('/api/auth/local', { identifier, password: 'Passw0rd!' })).body, identifier.slice(0, 20)).to.deep.equal(invalid);
    }
  });

  it('a wrong password and an unknown account fail alike: same status, body and time (one bcrypt each)', async () => {
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    const texts = new Set<string>();
    for (let round = 0; round < 6; round += 1) {
      for (const [kind, identifier] of [['known', 'alice'], ['unknown', `nobody${round}`]] as const) {
        const started = process.hrtime.bigint();
        const response = await app.post('/api/auth/local', { identifier, password: 'wrong-password' });
        times[kind].push(Number(process.hrtime.bigint() - started) / 1e6);
        texts.add(`${response.status} ${response.text}`);
      }
    }
    expect([...texts]).to.deep.equal(['400 {"data":null,"error":{"status":400,"name":"ValidationError","message":"Invalid identifier or password","details":{}}}']);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const [known, unknown] = [median(times.known), median(times.unknown)];
    expect(Math.abs(known - unknown), JSON.stringify(times)).to.be.lessThan(Math.max(30, 0.5 * Math.max(known, unknown)));
  });

  it('Strapi v4 app code can use the user service: add hashes and defaults, validatePassword checks', async () => {
    const users = app.app.plugin('users-permissions')!.service<Record<string, (...args: any[]) => Promise<any>>>('user')!;
    const added = await users.add({ username: 'zoe', email: 'zoe@example.com', password: 'Z0ePassw0rd', confirmed: true });
    expect(added).to.include({ username: 'zoe', provider: 'local' });
    expect(added.role.type).to.equal('authenticated');
    expect(await users.validatePassword('Z0ePassw0rd', added.password)).to.equal(true);
    expect((await app.post('/api/auth/local', { identifier: 'zoe', password: 'Z0ePassw0rd' })).status).to.equal(200);
    const edited = await users.edit(added.id, { password: 'Z0eNewPassw0rd' });
    expect(await users.validatePassword('Z0eNewPassw0rd', edited.password)).to.equal(true);
    await users.remove({ id: added.id });
    expect(await users.fetch(added.id)).to.equal(null);
    // strapi.query writes are guarded too: a plaintext password is hashed, an existing hash (an import) is kept.
    const raw = await app.app.query('plugin::users-permissions.user').create({ data: { username: 'yan', email: 'yan@example.com', provider: 'local', password: 'Y4nPassw0rd', confirmed: true } });
    expect(String(raw.password)).to.match(/^\$2[ab]\$10\$/);
    expect((await app.post('/api/auth/local', { identifier: 'yan', password: 'Y4nPassw0rd' })).status).to.equal(200);
    await app.app.query('plugin::users-permissions.user').update({ where: { id: raw.id }, data: { password: raw.password } });
    expect((await app.post('/api/auth/local', { identifier: 'yan', password: 'Y4nPassw0rd' })).status).to.equal(200);
  });

  it('GET /users/me answers the caller (sample 44); populate=role is left out without role.find (sample 84)', async () => {
    const login = await app.post('/api/auth/local', { identifier: 'alice', password: 'Passw0rd!' });
    const me = await app.get('/api/users/me', { token: login.body.jwt });
    expect(me.status).to.equal(200);
    expect(me.body).to.deep.equal(login.body.user);
    expect((await app.get('/api/users/me?populate=role', { token: login.body.jwt })).body).to.deep.equal(login.body.user);
    expect((await app.get('/api/users/me')).body).to.deep.equal(FORBIDDEN);
  });

  it('changes the password with the current one (samples 85, 86)', async () => {
    const { jwt: token } = await register(app, 'carol');
    const wrong = await app.post('/api/auth/change-password', { currentPassword: 'nope', password: 'X3wPassw0rd!', passwordConfirmation: 'X3wPassw0rd!' }, { token });
    expect(wrong.body).to.deep.equal(errorBody(400, 'ValidationError', 'The provided current password is invalid'));
    const mismatch = await app.post('/api/auth/change-password', { currentPassword: 'Passw0rd!', password: 'X3wPassw0rd!', passwordConfirmation: 'other' }, { token });
    // Strapi 4.26.2: the pair is its yup schema's oneOf, so the refusal names the field (recorded on the peer).
    expect(mismatch.body).to.deep.equal(
      errorBody(400, 'ValidationError', 'Passwords do not match', { errors: [{ path: ['passwordConfirmation'], message: 'Passwords do not match', name: 'ValidationError' }] }),
    );
    const same = await app.post('/api/auth/change-password', { currentPassword: 'Passw0rd!', password: 'Passw0rd!', passwordConfirmation: 'Passw0rd!' }, { token });
    expect(same.body.error.message).to.equal('Your new password must be different than your current password');
    const changed = await app.post('/api/auth/change-password', { currentPassword: 'Passw0rd!', password: 'N3wPassw0rd!', passwordConfirmation: 'N3wPassw0rd!' }, { token });
    expect(changed.status).to.equal(200);
    expect(Object.keys(changed.body)).to.deep.equal(['jwt', 'user']);
    expect(Object.keys(changed.body.user)).to.deep.equal(USER_KEYS);
    expect((await app.post('/api/auth/local', { identifier: 'carol', password: 'Passw0rd!' })).status).to.equal(400);
    expect((await app.post('/api/auth/local', { identifier: 'carol', password: 'N3wPassw0rd!' })).status).to.equal(200);
    // Anonymous callers may not (the public role lacks the action).
    const anonymous = await app.post('/api/auth/change-password', { currentPassword: 'N3wPassw0rd!', password: 'Z3wPassw0rd!', passwordConfirmation: 'Z3wPassw0rd!' });
    expect(anonymous.body).to.deep.equal(FORBIDDEN);
  });

  it('register can be switched off, and allowedFields may never name a privileged field', async () => {
    const closed = await startUpApp(dialect, { config: { advanced: { allowRegister: false } } });
    try {
      const response = await closed.post('/api/auth/local/register', { username: 'dave', email: 'dave@example.com', password: 'Passw0rd!' });
      expect(response.body).to.deep.equal(errorBody(400, 'ApplicationError', 'Register action is currently disabled'));
    } finally {
      await closed.stop();
    }
    const error = await bootError({ dialect, files: upFiles({ config: { register: { allowedFields: ['role'] } } }) });
    expect(error.message).to.contain('register.allowedFields may not contain role');
  });
});
