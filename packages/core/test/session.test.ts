/**
 * `strapi::session` (middlewares/session.ts): `ctx.session` for plugin code, kept in a cookie signed with the app's
 * keys. A request that never touches the session sets no cookie; a changed session is written back, read on the next
 * request, and refused when its cookie is tampered with or signed with another key; `ctx.session = null` clears it;
 * an app without keys gets an empty session each time and never a cookie.
 */
import { expect } from 'chai';
import { startApp, type TestApp } from '@tessera/testing';
import { NOTE_FILES, raw } from './middleware-helpers';

/** Routes that count visits in the session, read it, and clear it. */
const SESSION_ROUTES = `
export default {
  routes: [
    { method: 'POST', path: '/visit', config: { auth: false }, handler: (ctx: any) => { ctx.session.visits = (ctx.session.visits ?? 0) + 1; return { visits: ctx.session.visits }; } },
    { method: 'GET', path: '/peek', config: { auth: false }, handler: (ctx: any) => ({ session: ctx.session }) },
    { method: 'POST', path: '/forget', config: { auth: false }, handler: (ctx: any) => { ctx.session = null; return { session: ctx.session }; } },
  ],
};
`;

const FILES = { ...NOTE_FILES, 'src/api/visit/routes/visit.ts': SESSION_ROUTES };

/** The `name=value` of the session cookie a response set, or undefined. */
function sessionCookie(headers: Record<string, string | string[] | undefined>): string | undefined {
  const cookies = ([] as string[]).concat(headers['set-cookie'] ?? []);
  return cookies.find((cookie) => cookie.startsWith('koa.sess='))?.split(';')[0];
}

describe('strapi::session: ctx.session in a signed cookie [sqlite]', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect: 'sqlite', files: { ...FILES, 'config/server.ts': `export default { app: { keys: ['first-key', 'older-key'] } };\n` } });
  });
  after(() => app.stop());

  it('sets no cookie on a request that does not use the session, nor on one that only reads it', async () => {
    for (const requestPath of ['/api/notes', '/api/peek']) {
      const answer = await raw(app, 'GET', requestPath);
      expect(answer.status, requestPath).to.equal(200);
      expect(sessionCookie(answer.headers), requestPath).to.equal(undefined);
    }
    expect(JSON.parse((await raw(app, 'GET', '/api/peek')).text)).to.deep.equal({ session: {} });
  });

  it('writes a changed session to a cookie, and reads it back on the next request', async () => {
    const first = await raw(app, 'POST', '/api/visit');
    expect(JSON.parse(first.text)).to.deep.equal({ visits: 1 });
    const cookie = sessionCookie(first.headers)!;
    expect(cookie).to.match(/^koa\.sess=[\w-]+\.[\w-]+$/);
    expect(([] as string[]).concat(first.headers['set-cookie'] ?? []).join()).to.include('httponly');
    const second = await raw(app, 'POST', '/api/visit', { cookie });
    expect(JSON.parse(second.text)).to.deep.equal({ visits: 2 });
    const peek = await raw(app, 'GET', '/api/peek', { cookie: sessionCookie(second.headers)! });
    expect(JSON.parse(peek.text)).to.deep.equal({ session: { visits: 2 } });
    expect(sessionCookie(peek.headers)).to.equal(undefined);
  });

  it('reads a tampered cookie, or one signed with a key the app does not have, as an empty session', async () => {
    const cookie = sessionCookie((await raw(app, 'POST', '/api/visit')).headers)!;
    const [payload, signature] = cookie.slice('koa.sess='.length).split('.');
    const forged = Buffer.from(JSON.stringify({ data: { visits: 99, admin: true }, expires: null })).toString('base64url');
    for (const value of [`${forged}.${signature}`, `${payload}.${signature.slice(1)}x`, payload, `${payload}.`]) {
      const peek = await raw(app, 'GET', '/api/peek', { cookie: `koa.sess=${value}` });
      expect(JSON.parse(peek.text), value).to.deep.equal({ session: {} });
    }
  });

  it('clears the cookie when the code sets ctx.session to null', async () => {
    const cookie = sessionCookie((await raw(app, 'POST', '/api/visit')).headers)!;
    const cleared = await raw(app, 'POST', '/api/forget', { cookie });
    expect(JSON.parse(cleared.text)).to.deep.equal({ session: null });
    expect(sessionCookie(cleared.headers)).to.equal('koa.sess=');
  });
});

describe('strapi::session without app keys [sqlite]', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect: 'sqlite', files: { ...FILES, 'config/server.ts': `export default { app: { keys: [] } };\n` } });
  });
  after(() => app.stop());

  it('gives each request an empty session and never sets a cookie', async () => {
    for (let visit = 0; visit < 2; visit++) {
      const answer = await raw(app, 'POST', '/api/visit');
      expect(JSON.parse(answer.text)).to.deep.equal({ visits: 1 });
      expect(sessionCookie(answer.headers)).to.equal(undefined);
    }
  });
});
