/**
 * JWTs: every forged or stale token is a 401, never the public role —
 * `alg: none`, HS512, a wrong secret, no `exp`, expired, a deleted user, a
 * blocked user — and where the secret comes from: JWT_SECRET or the config;
 * generated into the app's .env in development; refused outside
 * development and test.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { bootError, eachDatabase, type TestApp } from '@tessera/testing';
import { contentTypes } from '../src/content-types';
import { PUBLIC_ACTIONS, UNAUTHORIZED, register, startUpApp, upFiles } from './fixture';

const SECRET = 'a-test-secret-of-enough-length-0123456789';

/** A route answering what a Strapi plugin's controller finds on ctx.state: the user and the strategy's name. */
const WHOAMI = {
  'src/api/whoami/routes/whoami.js': `module.exports = { routes: [{ method: 'GET', path: '/whoami', handler: 'whoami.me' }] };`,
  'src/api/whoami/controllers/whoami.js': `module.exports = { me(ctx) { const user = ctx.state.user; ctx.body = { ...(user ? { id: user.id, username: user.username, password: user.password } : {}), strategy: ctx.state.auth.strategy.name }; } };`,
};

/** An app's user type with a `credits` field (Strapi's attributes and its own), and a route answering what its middleware sees. */
const CREDITS_USER = (() => {
  const { passwordChangedAt: _tesseraOnly, ...strapiAttributes } = (contentTypes.user.schema as { attributes: Record<string, unknown> }).attributes;
  return { ...(contentTypes.user.schema as object), attributes: { ...strapiAttributes, credits: { type: 'integer', default: 0 }, image: { type: 'media', multiple: false } } };
})();
const WHOAMI_CREDITS = `module.exports = { me(ctx) { const user = ctx.state.user; ctx.body = { credits: user.credits, role: user.role.type, keys: Object.keys(user).sort() }; } };`;

function base64url(value: object | string): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

/** Restores NODE_ENV and JWT_SECRET after a test that changes them. */
function withEnv(changes: Record<string, string | undefined>, work: () => Promise<void>): Promise<void> {
  const saved = Object.fromEntries(Object.keys(changes).map((key) => [key, process.env[key]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
  apply(changes);
  return work().finally(() => apply(saved));
}

eachDatabase('users-permissions: forged and stale JWTs', (dialect) => {
  let app: TestApp;
  let user: { jwt: string; id: number };
  const now = () => Math.floor(Date.now() / 1000);
  before(async () => {
    app = await startUpApp(dialect, { config: { jwtSecret: SECRET }, files: WHOAMI, permissions: { public: PUBLIC_ACTIONS, authenticated: ['api::whoami.whoami.me'] } });
    user = await register(app, 'jack');
  });
  after(() => app?.stop());

  it("puts the JWT's user on ctx.state.user, as Strapi's strategy does (plugins read it there); an API token has none", async () => {
    const me = await app.get('/api/whoami', { token: user.jwt });
    expect(me.status).to.equal(200);
    expect(me.body).to.deep.include({ id: user.id, username: 'jack', strategy: 'users-permissions' });
    expect(me.body).to.not.have.any.keys('password', 'resetPasswordToken', 'passwordChangedAt');
    const byToken = await app.get('/api/whoami', { token: await app.fullAccessToken() });
    expect(byToken.body).to.deep.equal({ strategy: 'api-token' });
  });

  it("ctx.state.user holds an app's own user fields, as Strapi's (an app's middleware reads ctx.state.user.credits)", async () => {
    const extended = await startUpApp(dialect, {
      files: { ...WHOAMI, 'src/extensions/users-permissions/content-types/user/schema.json': CREDITS_USER, 'src/api/whoami/controllers/whoami.js': WHOAMI_CREDITS },
      permissions: { public: PUBLIC_ACTIONS, authenticated: ['api::whoami.whoami.me'] },
    });
    try {
      const { jwt: token, id } = await register(extended, 'jill');
      await extended.app.db.query('plugin::users-permissions.user').update({ where: { id }, data: { credits: 3 } });
      const me = await extended.get('/api/whoami', { token });
      expect(me.body).to.deep.equal({ credits: 3, role: 'authenticated', keys: ['blocked', 'confirmed', 'createdAt', 'credits', 'email', 'id', 'provider', 'role', 'updatedAt', 'username'] });
    } finally {
      await extended.stop();
    }
  });

  it('the configured secret signs the tokens, and a valid token is accepted', async () => {
    expect((jwt.verify(user.jwt, SECRET) as jwt.JwtPayload).id).to.equal(user.id);
    expect((await app.get('/api/users/me', { token: user.jwt })).status).to.equal(200);
  });

  it('alg none, HS512, a wrong secret, no exp, expired, a bad id: 401', async () => {
    const forged = {
      'alg none': `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ id: user.id, iat: now(), exp: now() + 3600 })}.`,
      HS512: jwt.sign({ id: user.id }, SECRET, { algorithm: 'HS512', expiresIn: '1h' }),
      'wrong secret': jwt.sign({ id: user.id }, 'another-secret-of-enough-length', { expiresIn: '1h' }),
      'no exp': jwt.sign({ id: user.id }, SECRET),
      expired: jwt.sign({ id: user.id, exp: now() - 10 }, SECRET),
      'id as string': jwt.sign({ id: String(user.id) }, SECRET, { expiresIn: '1h' }),
      'no id': jwt.sign({ sub: user.id }, SECRET, { expiresIn: '1h' }),
      'tampered payload': `${user.jwt.split('.')[0]}.${base64url({ id: user.id + 1, iat: now(), exp: now() + 3600 })}.${user.jwt.split('.')[2]}`,
    };
    for (const [name, token] of Object.entries(forged)) {
      expect((await app.get('/api/users/me', { token })).body, name).to.deep.equal(UNAUTHORIZED);
      // Never the public role either: a route the public may use still refuses the token.
      expect((await app.get('/api/posts', { token })).body, `${name} on a public route`).to.deep.equal(UNAUTHORIZED);
      // Nor for plugins that verify a token themselves through Strapi's jwt service.
      const refused = await app.app.plugin('users-permissions')!.service('jwt').verify(token).then(() => undefined, (error: Error) => error.message);
      expect(refused, `${name} through service('jwt').verify`).to.equal('Invalid token.');
    }
  });

  it("service('jwt'): Strapi's verify resolves a valid token's payload, getToken reads the request's bearer token", async () => {
    const jwtService = app.app.plugin('users-permissions')!.service('jwt');
    const payload = await jwtService.verify(user.jwt);
    expect(payload).to.have.keys('id', 'iat', 'exp');
    expect(payload.id).to.equal(user.id);
    expect(await jwtService.getToken({ request: { header: { authorization: `Bearer ${user.jwt}` } } })).to.deep.equal(payload);
    expect(jwtService.getToken({ request: { header: { authorization: `Basic ${user.jwt}` } } })).to.equal(null);
    expect(jwtService.getToken({ request: { header: {} } })).to.equal(null);
  });

  it('a token of a deleted or blocked user: 401', async () => {
    const blocked = await register(app, 'kate');
    await app.app.db.query('plugin::users-permissions.user').update({ where: { id: blocked.id }, data: { blocked: true } });
    expect((await app.get('/api/users/me', { token: blocked.jwt })).body).to.deep.equal(UNAUTHORIZED);
    expect((await app.get('/api/posts', { token: blocked.jwt })).body).to.deep.equal(UNAUTHORIZED);
    expect((await app.post('/api/auth/local', { identifier: 'kate', password: 'Passw0rd!' })).body.error.message).to.equal('Your account has been blocked by an administrator');
    const deleted = await register(app, 'liam');
    await app.app.db.query('plugin::users-permissions.user').delete({ where: { id: deleted.id } });
    expect((await app.get('/api/users/me', { token: deleted.jwt })).body).to.deep.equal(UNAUTHORIZED);
    // A token minted for an id that never existed.
    const ghost = jwt.sign({ id: 999999 }, SECRET, { expiresIn: '1h' });
    expect((await app.get('/api/users/me', { token: ghost })).body).to.deep.equal(UNAUTHORIZED);
  });

  it('jwt.expiresIn sets the lifetime', async () => {
    const short = await startUpApp(dialect, { config: { jwtSecret: SECRET, jwt: { expiresIn: '1h' } } });
    try {
      const { jwt: token } = await register(short, 'mona');
      const payload = jwt.decode(token) as jwt.JwtPayload;
      expect(payload.exp! - payload.iat!).to.equal(3600);
    } finally {
      await short.stop();
    }
  });
});

eachDatabase('users-permissions: where the JWT secret comes from', (dialect) => {
  it('outside development and test, the boot refuses to start without a secret', async () => {
    await withEnv({ NODE_ENV: 'production', JWT_SECRET: undefined }, async () => {
      const error = await bootError({ dialect, files: upFiles() });
      expect(error.message).to.contain('users-permissions needs a JWT secret in production');
    });
    // With JWT_SECRET it boots, and signs with it.
    await withEnv({ NODE_ENV: 'production', JWT_SECRET: SECRET }, async () => {
      const app = await startUpApp(dialect);
      try {
        const { jwt: token } = await register(app, 'nina');
        expect((jwt.verify(token, SECRET) as jwt.JwtPayload).id).to.be.a('number');
      } finally {
        await app.stop();
      }
    });
  });

  it('in development a random secret is generated into the app .env, and used again on the next boot', async () => {
    await withEnv({ NODE_ENV: 'development', JWT_SECRET: undefined }, async () => {
      const first = await startUpApp(dialect);
      let token: string;
      let envFile: string;
      try {
        envFile = fs.readFileSync(path.join(first.dir, '.env'), 'utf8');
        const secret = /^JWT_SECRET=(.+)$/m.exec(envFile)![1];
        expect(secret.length).to.be.greaterThan(30);
        token = (await register(first, 'otto')).jwt;
        expect((jwt.verify(token, secret) as jwt.JwtPayload).id).to.be.a('number');
      } finally {
        await first.stop({ keepDatabase: true });
      }
      const second = await startUpApp(dialect, { database: first.database, files: { '.env': envFile } });
      try {
        expect((await second.get('/api/users/me', { token })).status).to.equal(200);
        expect(fs.readFileSync(path.join(second.dir, '.env'), 'utf8')).to.equal(envFile);
      } finally {
        await second.stop();
      }
    });
  });

  it('tests (NODE_ENV=test) get a random secret and write nothing', async () => {
    await withEnv({ NODE_ENV: 'test', JWT_SECRET: undefined }, async () => {
      const app = await startUpApp(dialect);
      try {
        expect(fs.existsSync(path.join(app.dir, '.env'))).to.equal(false);
        const { jwt: token } = await register(app, `t${crypto.randomBytes(3).toString('hex')}`);
        expect((await app.get('/api/users/me', { token })).status).to.equal(200);
      } finally {
        await app.stop();
      }
    });
  });
});
