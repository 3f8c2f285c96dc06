/**
 * Third-party sign-in end to end, held to Strapi 4.26.2's answers (recorded/strapi-4.26.2-oauth.json, made by
 * recorded/record-oauth-peer.ts on the peer with the same custom provider): a real OAuth2 server (oauth-server.ts)
 * registered by the app as a custom provider through `providers-registry` — the app code is the peer's — and the
 * whole browser journey over real HTTP: connect → authorize → callback → the frontend's redirect with the token →
 * `/api/auth/:provider/callback` → `{ jwt, user }`, the account read back from the database.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { errorBody, startUpApp } from './fixture';
import { OAuthServer } from './oauth-server';
import RECORDED from './recorded/strapi-4.26.2-oauth.json';
import SETTINGS_RECORDED from './recorded/strapi-4.26.2-settings-journeys.json';

const DISABLED = errorBody(400, 'ApplicationError', 'This provider is disabled');
const USER_UID = 'plugin::users-permissions.user';
const TIMEOUT_MS = 1500;

/** The peer's src/index.js provider, as an app registers one (recorded/record-oauth-peer.ts). */
const appIndex = (oauth: string, frontend: string) => `
export default {
  register({ strapi }) {
    strapi.plugin('users-permissions').service('providers-registry').add('tessera', {
      enabled: true,
      icon: '',
      grantConfig: {
        key: 'tessera-client', secret: 'tessera-secret', oauth: 2,
        authorize_url: '${oauth}/authorize', access_url: '${oauth}/token',
        callback: '${frontend}', scope: ['profile', 'email'],
      },
      async authCallback({ accessToken }) {
        const response = await fetch('${oauth}/userinfo', { headers: { authorization: 'Bearer ' + accessToken } });
        if (!response.ok) throw new Error('userinfo answered ' + response.status);
        const body = await response.json();
        return { username: body.preferred_username, email: body.email };
      },
    });
  },
};
`;

interface Hop {
  status: number;
  location: string;
  cookie: string;
  setCookie: string[];
  body: unknown;
}

/** One request as a browser makes it, redirects not followed, the sign-in cookie carried by hand. */
async function hop(url: string, cookie = ''): Promise<Hop> {
  const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a redirect's HTML
  }
  const setCookie = response.headers.getSetCookie();
  return { status: response.status, location: response.headers.get('location') ?? '', cookie: setCookie.map((item) => item.split(';')[0]).join('; '), setCookie, body };
}

eachDatabase('users-permissions: third-party sign-in through a real OAuth2 provider', (dialect) => {
  let app: TestApp;
  let oauth: OAuthServer;
  let frontend: string;
  /** The recorded answer with the peer's addresses (OAuth server 1381, Strapi 1380) made this run's. */
  const local = (recorded: string) => recorded.replaceAll('http://127.0.0.1:1381', oauth.url).replaceAll('http://127.0.0.1:1382', new URL(frontend).origin).replaceAll(encodeURIComponent('http://localhost:1380'), encodeURIComponent(app.url));
  const users = (email: string) => app.app.db.query(USER_UID).findMany({ where: { email }, populate: { role: { select: ['type'] } } });
  const store = () => app.app.store({ type: 'plugin', name: 'users-permissions' });

  async function signIn(query = ''): Promise<{ connect: Hop; authorize: Hop; callback: Hop; token: string; auth: Awaited<ReturnType<TestApp['get']>> }> {
    const connect = await hop(`${app.url}/api/connect/tessera${query}`);
    const authorize = await hop(connect.location);
    const callback = await hop(authorize.location, connect.cookie);
    // Read off the text: with a callback that has a query, grant's redirect holds a second `?` (Strapi's recorded form).
    const token = /[?&]access_token=([^&]+)/.exec(callback.location)?.[1] ?? '';
    return { connect, authorize, callback, token, auth: await app.get(`/api/auth/tessera/callback?access_token=${token}`) };
  }

  before(async () => {
    oauth = await OAuthServer.start();
    frontend = `${oauth.url.replace(/:\d+$/, ':1382')}/connect/tessera/redirect`;
    app = await startUpApp(dialect, { files: { 'src/index.ts': appIndex(oauth.url, frontend) }, config: { providerRequests: { timeout: TIMEOUT_MS, maxBytes: 65_536 } } });
  });
  after(async () => {
    await app.stop();
    await oauth.stop();
  });
  beforeEach(() => {
    oauth.hang = false;
    oauth.account = { username: 'octo', email: 'octo@example.com' };
  });

  it("connect → authorize → callback → the frontend's redirect with the token → { jwt, user }: Strapi's redirects, one account made, found again on the second sign-in", async () => {
    const first = await signIn();
    expect([first.connect.status, first.connect.location]).to.deep.equal([302, local(RECORDED.firstSignIn.connect.location)]);
    expect(first.connect.setCookie).to.have.length(1);
    expect(first.connect.setCookie[0]).to.match(/^tessera\.grant=[\w-]+\.[\w-]+; path=\/api\/connect; expires=.*; samesite=lax; httponly$/);
    expect(oauth.authorizeQueries.at(-1)).to.deep.equal(JSON.parse(local(RECORDED.firstSignIn.authorizeQuery).replaceAll('http://localhost:1380', app.url)));
    // The code was exchanged as grant exchanges it (the code itself differs per run).
    expect({ ...oauth.tokenRequests.at(-1), code: '' }).to.deep.equal({ ...(JSON.parse(RECORDED.firstSignIn.tokenRequest.replaceAll('http://localhost:1380', app.url)) as object), code: '' });
    expect(first.callback.status).to.equal(302);
    expect(first.callback.location.replaceAll(first.token, '<token>')).to.equal(local(RECORDED.firstSignIn.callback.location.replaceAll('ceba25a2ce34e89e3d9c1822fec6f982', '<token>')));
    expect(first.auth.status).to.equal(200);
    const { jwt, user } = first.auth.body as { jwt: string; user: Record<string, unknown> };
    expect(Object.keys(user)).to.deep.equal(Object.keys(RECORDED.firstSignIn.auth.body.user));
    expect({ ...user, id: 0, createdAt: '', updatedAt: '' }).to.deep.equal({ ...RECORDED.firstSignIn.auth.body.user, id: 0, createdAt: '', updatedAt: '' });
    // The token was checked with the provider, and the account is in the database with the default role.
    expect(oauth.userinfoTokens.at(-1)).to.equal(first.token);
    const stored = await users('octo@example.com');
    expect(stored.map((row) => [row.id, row.username, row.provider, row.confirmed, (row.role as { type: string }).type])).to.deep.equal([[user.id, 'octo', 'tessera', true, 'authenticated']]);
    expect((await app.get('/api/users/me', { token: jwt })).body).to.deep.include({ id: user.id, email: 'octo@example.com' });

    const second = await signIn();
    expect(second.token).to.not.equal(first.token);
    expect(second.auth.status).to.equal(200);
    expect((second.auth.body as { user: { id: number } }).user.id).to.equal(user.id);
    expect(await users('octo@example.com')).to.have.length(1);
  });

  it("a wrong code, a provider's refusal, a missing or forged sign-in cookie, a code used twice: Strapi's redirects with the error, no token", async () => {
    const connect = await hop(`${app.url}/api/connect/tessera`);
    const wrong = await hop(`${app.url}/api/connect/tessera/callback?code=not-a-code`, connect.cookie);
    expect([wrong.status, wrong.location]).to.deep.equal([302, local(RECORDED.wrongCode.location)]);
    const refused = await hop(`${app.url}/api/connect/tessera/callback?error=access_denied&error_description=denied`, (await hop(`${app.url}/api/connect/tessera`)).cookie);
    expect([refused.status, refused.location]).to.deep.equal([302, local(RECORDED.callbackProviderError.location)]);
    const noSession = await hop(`${app.url}/api/connect/tessera/callback?code=not-a-code`);
    expect([noSession.status, noSession.location]).to.deep.equal([302, RECORDED.callbackWithoutSession.location]);
    // A cookie whose payload was changed (another provider, a chosen callback) fails its signature: no session.
    const [payload, signature] = connect.cookie.replace('tessera.grant=', '').split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), callback: 'http://evil.example/' })).toString('base64url');
    const tampered = await hop(`${app.url}/api/connect/tessera/callback?code=not-a-code`, `tessera.grant=${forged}.${signature}`);
    expect([tampered.status, tampered.location]).to.deep.equal([302, RECORDED.callbackWithoutSession.location]);
    // A code is good once.
    const flow = await hop(`${app.url}/api/connect/tessera`);
    const back = (await hop(flow.location)).location;
    expect(new URL((await hop(back, flow.cookie)).location).searchParams.get('access_token')).to.match(/^[0-9a-f]{32}$/);
    const replay = await hop(back, flow.cookie);
    expect(replay.location).to.equal(local(RECORDED.wrongCode.location));
  });

  it('state (grant\'s `state: true` in the provider\'s settings): sent, bound to the browser, a forged one refused', async () => {
    const grant = (await store().get({ key: 'grant' })) as Record<string, Record<string, unknown>>;
    await store().set({ key: 'grant', value: { ...grant, tessera: { ...grant.tessera, state: true } } });
    try {
      const connect = await hop(`${app.url}/api/connect/tessera`);
      const state = new URL(connect.location).searchParams.get('state');
      expect(state).to.match(/^[0-9a-f]{40}$/);
      const back = new URL((await hop(connect.location)).location);
      expect(back.searchParams.get('state')).to.equal(state);
      back.searchParams.set('state', 'forged');
      const forged = await hop(back.toString(), connect.cookie);
      expect(forged.location).to.equal(`${frontend}?error=Grant%3A%20OAuth2%20state%20mismatch`);
      // The browser that started the sign-in, with its state, gets the token.
      const again = await hop(`${app.url}/api/connect/tessera`);
      const good = await hop((await hop(again.location)).location, again.cookie);
      expect(new URL(good.location).searchParams.get('access_token')).to.match(/^[0-9a-f]{32}$/);
      // Another browser's cookie does not carry this state.
      const other = await hop(`${app.url}/api/connect/tessera`);
      const crossed = await hop((await hop(again.location)).location, other.cookie);
      expect(crossed.location).to.equal(`${frontend}?error=Grant%3A%20OAuth2%20state%20mismatch`);
    } finally {
      await store().set({ key: 'grant', value: grant });
    }
  });

  it("a frontend callback named by the connect request: another origin or path is Strapi's 400, the same one is used", async () => {
    const foreign = await hop(`${app.url}/api/connect/tessera?callback=${encodeURIComponent('http://evil.example/connect/tessera/redirect')}`);
    expect([foreign.status, foreign.body]).to.deep.equal([400, RECORDED.dynamicCallbackForeign.body]);
    const otherPath = `${new URL(frontend).origin}/elsewhere`;
    const elsewhere = await hop(`${app.url}/api/connect/tessera?callback=${encodeURIComponent(otherPath)}`);
    expect([elsewhere.status, elsewhere.body]).to.deep.equal([400, errorBody(400, 'ValidationError', 'Invalid callback URL provided', { callback: otherPath })]);
    const { callback, token } = await signIn(`?callback=${encodeURIComponent(`${frontend}?from=x`)}`);
    expect(callback.location.replaceAll(token, '<token>')).to.equal(local(RECORDED.dynamicCallbackRedirect.location.replaceAll('90dc621732a56525b2ab132bae5705cb', '<token>')));
  });

  it("the auth callback: no token, a token the provider does not know, an email a password account holds, a blocked account: Strapi's 400s", async () => {
    expect((await app.get('/api/auth/tessera/callback')).body).to.deep.equal(RECORDED.authWithoutToken.body);
    const forged = await app.get('/api/auth/tessera/callback?access_token=forged');
    expect([forged.status, forged.body]).to.deep.equal([400, RECORDED.authBadToken.body]);
    expect(oauth.userinfoTokens.at(-1)).to.equal('forged');

    expect((await app.post('/api/auth/local/register', { username: 'localann', email: 'ann@example.com', password: 'Secret123!' })).status).to.equal(200);
    oauth.account = { username: 'ann', email: 'Ann@Example.com' };
    const taken = await signIn();
    expect([taken.auth.status, taken.auth.body]).to.deep.equal([400, RECORDED.sameEmailAsLocal.auth.body]);
    expect((await users('ann@example.com')).map((row) => row.provider)).to.deep.equal(['local']);

    oauth.account = { username: 'octo', email: 'octo@example.com' };
    const [octo] = await users('octo@example.com');
    await app.app.db.query(USER_UID).update({ where: { id: octo.id }, data: { blocked: true } });
    const blocked = await signIn();
    expect([blocked.auth.status, blocked.auth.body]).to.deep.equal([400, RECORDED.blockedSignIn.auth.body]);
    await app.app.db.query(USER_UID).update({ where: { id: octo.id }, data: { blocked: false } });
  });

  it('sign-ups off (advanced.allow_register false): a new account is refused, an existing one still signs in', async () => {
    const advanced = (await store().get({ key: 'advanced' })) as Record<string, unknown>;
    await store().set({ key: 'advanced', value: { ...advanced, allow_register: false } });
    try {
      oauth.account = { username: 'newcomer', email: 'newcomer@example.com' };
      const refused = await signIn();
      expect([refused.auth.status, refused.auth.body]).to.deep.equal([400, errorBody(400, 'ApplicationError', 'Register action is actually not available.')]);
      expect(await users('newcomer@example.com')).to.deep.equal([]);
      oauth.account = { username: 'octo', email: 'octo@example.com' };
      expect((await signIn()).auth.status).to.equal(200);
    } finally {
      await store().set({ key: 'advanced', value: advanced });
    }
  });

  it('a provider that hangs: the code exchange and the auth callback each end with a clear error within their budget', async () => {
    const connect = await hop(`${app.url}/api/connect/tessera`);
    const code = new URL((await hop(connect.location)).location).searchParams.get('code');
    oauth.hang = true;
    const exchange = await hop(`${app.url}/api/connect/tessera/callback?code=${code}`, connect.cookie);
    expect([exchange.status, exchange.location]).to.deep.equal([302, `${frontend}?error=The%20provider%20did%20not%20answer%20within%20${TIMEOUT_MS}%20ms`]);
    const auth = await app.get('/api/auth/tessera/callback?access_token=anything');
    expect([auth.status, auth.body]).to.deep.equal([400, errorBody(400, 'ApplicationError', `The provider did not answer within ${TIMEOUT_MS * 3} ms`)]);
  });

  it("a provider's answer past providerRequests.maxBytes is refused, not read on", async () => {
    const connect = await hop(`${app.url}/api/connect/tessera`);
    const back = (await hop(connect.location)).location;
    oauth.tokenPadding = 100_000;
    try {
      const exchange = await hop(back, connect.cookie);
      expect([exchange.status, exchange.location]).to.deep.equal([302, `${frontend}?error=The%20provider's%20answer%20is%20larger%20than%2065536%20bytes`.replace("'", '%27')]);
    } finally {
      oauth.tokenPadding = 0;
    }
  });

  it("disabled providers: Strapi's 400 on connect, callback and auth callback; `local`'s callback is the password login", async () => {
    expect((await hop(`${app.url}/api/connect/github`)).body).to.deep.equal(RECORDED.disabledConnect.body);
    expect((await app.get('/api/auth/github/callback?access_token=x')).body).to.deep.equal(RECORDED.disabledAuth.body);
    expect((await hop(`${app.url}/api/connect/nosuch`)).body).to.deep.equal(RECORDED.unknownConnect.body);
    for (const path of ['/api/connect/email', '/api/connect/github/callback?code=x', '/api/auth/nosuch/callback']) expect((await app.get(path)).body, path).to.deep.equal(DISABLED);
    const grant = (await store().get({ key: 'grant' })) as Record<string, Record<string, unknown>>;
    await store().set({ key: 'grant', value: { ...grant, tessera: { ...grant.tessera, enabled: false } } });
    try {
      expect((await app.get('/api/connect/tessera')).body).to.deep.equal(DISABLED);
      expect((await app.get('/api/auth/tessera/callback?access_token=x')).body).to.deep.equal(DISABLED);
    } finally {
      await store().set({ key: 'grant', value: grant });
    }
    const local = await app.get('/api/auth/local/callback');
    expect(local.status).to.equal(400);
    expect(local.body.error.message).to.equal('2 errors occurred');
  });

  it("GitHub enabled in the grant settings: /api/connect/github is Strapi's recorded redirect to GitHub's authorize URL", async () => {
    const grant = (await store().get({ key: 'grant' })) as Record<string, Record<string, unknown>>;
    const { callback } = SETTINGS_RECORDED.githubEnabled.storedGithub;
    await store().set({ key: 'grant', value: { ...grant, github: { ...grant.github, enabled: true, key: 'Iv1.panel-client', secret: 'panel-secret', callback } } });
    try {
      const connect = await hop(`${app.url}/api/connect/github`);
      expect(connect.status).to.equal(302);
      expect(connect.location).to.equal(SETTINGS_RECORDED.connectGithub.location.replace(encodeURIComponent('http://localhost:1340'), encodeURIComponent(app.url)));
    } finally {
      await store().set({ key: 'grant', value: grant });
    }
  });
});
