/**
 * Records Strapi 4.26.2's third-party sign-in answers into strapi-4.26.2-oauth.json, on a peer whose
 * src/index.js registers the custom provider `tessera` (providers-registry `add`) on this OAuthServer:
 *   OAUTH_SERVER=http://127.0.0.1:1381 OAUTH_FRONTEND=http://127.0.0.1:1382/connect/tessera/redirect NODE_ENV=development
 *   PORT=1380 .../strapi4-peer/start.sh   (a copy of the peer app; NODE_ENV=development: koa-session's cookie is not secure)
 * then: node -r sucrase/register/ts plugins/users-permissions/test/recorded/record-oauth-peer.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { OAuthServer } from '../oauth-server';

const PEER = process.env.PEER ?? 'http://127.0.0.1:1380';
const TOKEN = fs.readFileSync(process.env.PEER_TOKEN ?? '/tmp/oauth-peer/strapi4-token.txt', 'utf8').trim();

interface Answer { status: number; location?: string | null; setCookie?: string[]; body?: unknown }

async function get(url: string, cookie?: string): Promise<Answer & { cookies: string }> {
  const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const text = await response.text();
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  const setCookie = response.headers.getSetCookie();
  return { status: response.status, location: response.headers.get('location'), setCookie: setCookie.map((c) => c.replace(/=[^;]*/, '=…')), body: text === '' ? undefined : body, cookies: setCookie.map((c) => c.split(';')[0]).join('; ') };
}

const strip = ({ cookies: _cookies, ...answer }: Answer & { cookies: string }): Answer => answer;

async function signIn(server: OAuthServer): Promise<Record<string, Answer | string>> {
  const connect = await get(`${PEER}/api/connect/tessera`);
  const authorize = await get(connect.location as string);
  const callback = await get(authorize.location as string, connect.cookies);
  const token = new URL(callback.location as string).searchParams.get('access_token') as string;
  const auth = await get(`${PEER}/api/auth/tessera/callback?access_token=${token}`);
  return { connect: strip(connect), authorizeQuery: JSON.stringify(server.authorizeQueries.at(-1)), tokenRequest: JSON.stringify(server.tokenRequests.at(-1)), callback: strip(callback), auth: strip(auth) };
}

async function main(): Promise<void> {
  const server = await OAuthServer.start(1381);
  const out: Record<string, unknown> = { strapi: '4.26.2', note: 'custom provider `tessera` added through providers-registry on a local OAuth2 server (test/oauth-server.ts); peer in NODE_ENV=development' };
  try {
    out.firstSignIn = await signIn(server);
    out.secondSignIn = await signIn(server);
    const connect = await get(`${PEER}/api/connect/tessera`);
    out.wrongCode = strip(await get(`${PEER}/api/connect/tessera/callback?code=not-a-code`, connect.cookies));
    out.callbackWithoutSession = strip(await get(`${PEER}/api/connect/tessera/callback?code=not-a-code`));
    out.callbackProviderError = strip(await get(`${PEER}/api/connect/tessera/callback?error=access_denied&error_description=denied`, connect.cookies));
    out.dynamicCallbackForeign = strip(await get(`${PEER}/api/connect/tessera?callback=${encodeURIComponent('http://evil.example/connect/tessera/redirect')}`));
    out.dynamicCallbackOtherPath = strip(await get(`${PEER}/api/connect/tessera?callback=${encodeURIComponent('http://127.0.0.1:1382/elsewhere')}`));
    const sameOrigin = await get(`${PEER}/api/connect/tessera?callback=${encodeURIComponent('http://127.0.0.1:1382/connect/tessera/redirect?from=x')}`);
    out.dynamicCallbackAllowed = strip(sameOrigin);
    const authorize = await get(sameOrigin.location as string);
    out.dynamicCallbackRedirect = strip(await get(authorize.location as string, sameOrigin.cookies));
    out.authWithoutToken = strip(await get(`${PEER}/api/auth/tessera/callback`));
    out.authBadToken = strip(await get(`${PEER}/api/auth/tessera/callback?access_token=forged`));
    out.disabledConnect = strip(await get(`${PEER}/api/connect/github`));
    out.disabledAuth = strip(await get(`${PEER}/api/auth/github/callback?access_token=x`));
    out.unknownConnect = strip(await get(`${PEER}/api/connect/nosuch`));
    // An account registered with a password and the same email: the provider's sign-in is refused (unique_email).
    const register = await fetch(`${PEER}/api/auth/local/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'localann', email: 'ann@example.com', password: 'Secret123!' }) });
    out.localRegister = register.status;
    server.account = { username: 'ann', email: 'Ann@Example.com' };
    out.sameEmailAsLocal = await signIn(server);
    // A blocked provider account is refused.
    server.account = { username: 'octo', email: 'octo@example.com' };
    const first = (out.firstSignIn as { auth: { body: { user: { id: number } } } }).auth.body.user.id;
    const blocked = await fetch(`${PEER}/api/users/${first}`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ blocked: true }) });
    out.blockUser = blocked.status;
    out.blockedSignIn = await signIn(server);
  } finally {
    await server.stop();
  }
  fs.writeFileSync(path.join(__dirname, 'strapi-4.26.2-oauth.json'), `${JSON.stringify(out, null, 2)}\n`);
}

void main();
