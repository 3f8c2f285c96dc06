/**
 * The /auth/* rate limit: N requests per window per route and client
 * address, answered 429 RateLimitError beyond; the usual ways around it
 * (case, trailing slash, query strings, another identifier in the body, a
 * forged X-Forwarded-For) do not work; X-Forwarded-For counts only behind a
 * proxy (`server.proxy`); the window is configurable, so no test waits a
 * minute.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { errorBody, startUpApp } from './fixture';

const LIMITED = errorBody(429, 'RateLimitError', 'Too many requests, please try again later.');

eachDatabase('users-permissions: rate limit on /auth/*', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startUpApp(dialect, { config: { ratelimit: { enabled: true, interval: 60_000, max: 3 } } });
  });
  after(() => app?.stop());

  it('counts per route and address, with X-RateLimit headers, and answers 429 beyond the limit', async () => {
    const remaining: Array<string | null> = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await app.post('/api/auth/local', { identifier: `nobody${attempt}@example.com`, password: 'wrong' });
      expect(response.status).to.equal(400);
      expect(response.headers.get('x-ratelimit-limit')).to.equal('3');
      remaining.push(response.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).to.deep.equal(['2', '1', '0']);
    const limited = await app.post('/api/auth/local', { identifier: 'alice', password: 'Passw0rd!' });
    expect(limited.status).to.equal(429);
    expect(limited.body).to.deep.equal(LIMITED);
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
    expect(Number(limited.headers.get('x-ratelimit-reset'))).to.be.greaterThan(Date.now() / 1000);
  });

  it('case, trailing slashes, query strings, body fields and X-Forwarded-For do not get around it', async () => {
    const attempts: Array<[string, object, Record<string, string>?]> = [
      ['/API/AUTH/LOCAL', { identifier: 'a', password: 'b' }],
      ['/api/auth/local/', { identifier: 'a', password: 'b' }],
      ['/api/Auth/Local/?x=1', { identifier: 'a', password: 'b' }],
      ['/api/auth/local', { identifier: 'someone-else@example.com', password: 'b', email: 'x@example.com' }],
      ['/api/auth/local', { identifier: 'a', password: 'b' }, { 'x-forwarded-for': '203.0.113.7' }],
      ['/api/auth/local', { identifier: 'a', password: 'b' }, { 'x-real-ip': '203.0.113.8', forwarded: 'for=203.0.113.9' }],
    ];
    for (const [path, body, headers] of attempts) {
      const response = await app.request('POST', path, { body, headers });
      expect(response.body, path).to.deep.equal(LIMITED);
    }
  });

  it('is shared by every process on the database: a second server counts against the same limit, concurrent hits lose no count', async () => {
    const other = await startUpApp(dialect, { database: app.database, config: { ratelimit: { enabled: true, interval: 60_000, max: 3 } } });
    try {
      const path = '/api/auth/email-confirmation';
      const answers = await Promise.all([app, other, app, other, app, other].map((server) => server.get(`${path}?confirmation=nope`)));
      expect(answers.map((answer) => answer.status).sort()).to.deep.equal([400, 400, 400, 429, 429, 429]);
      expect((await other.get(`${path}?confirmation=nope`)).body).to.deep.equal(LIMITED);
    } finally {
      await other.stop({ keepDatabase: true });
    }
  });

  it('each route has its own counter; every open account route is limited', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await app.post('/api/auth/forgot-password', { email: 'bad' })).status).to.equal(400);
    expect((await app.post('/api/auth/forgot-password', { email: 'bad' })).body).to.deep.equal(LIMITED);
    for (const path of ['/api/auth/local/register', '/api/auth/reset-password', '/api/auth/send-email-confirmation']) {
      let last = 0;
      for (let attempt = 0; attempt < 4; attempt += 1) last = (await app.post(path, {})).status;
      expect(last, path).to.equal(429);
    }
    // Routes outside /auth are not limited.
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await app.get('/api/posts')).status).to.equal(200);
  });
});

eachDatabase('users-permissions: rate limit windows and proxies', (dialect) => {
  it('a new window starts after the configured interval', async () => {
    const app = await startUpApp(dialect, { config: { ratelimit: { enabled: true, interval: 300, max: 1 } } });
    try {
      expect((await app.post('/api/auth/forgot-password', { email: 'bad' })).status).to.equal(400);
      expect((await app.post('/api/auth/forgot-password', { email: 'bad' })).status).to.equal(429);
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect((await app.post('/api/auth/forgot-password', { email: 'bad' })).status).to.equal(400);
    } finally {
      await app.stop();
    }
  });

  it('a store given in the config (ratelimit.store) keeps the counters', async () => {
    const store = `
const seen = [];
export const keys = seen;
export default {
  'users-permissions': {
    enabled: true,
    config: {
      ratelimit: { enabled: true, interval: 60000, max: 2, store: { hit(key, windowMs, now) { seen.push(key); return { count: seen.length, resetAt: now + windowMs }; } } },
    },
  },
};
`;
    const app = await startUpApp(dialect, { files: { 'config/plugins.ts': store } });
    try {
      expect((await app.post('/api/auth/forgot-password', { email: 'bad' })).status).to.equal(400);
      expect((await app.post('/API/Auth/Forgot-Password/', { email: 'bad' })).status).to.equal(400);
      expect((await app.post('/api/auth/forgot-password', { email: 'bad' })).body).to.deep.equal(LIMITED);
    } finally {
      await app.stop();
    }
  });

  it('behind a proxy (server.proxy: true) the X-Forwarded-For address is the client', async () => {
    const app = await startUpApp(dialect, { config: { ratelimit: { enabled: true, interval: 60_000, max: 1 } }, serverConfig: { proxy: true } });
    try {
      const from = (ip: string) => app.request('POST', '/api/auth/forgot-password', { body: { email: 'bad' }, headers: { 'x-forwarded-for': ip } });
      expect((await from('198.51.100.1')).status).to.equal(400);
      expect((await from('198.51.100.1')).status).to.equal(429);
      expect((await from('198.51.100.2')).status).to.equal(400);
      // The client writes the left of the header; only the entry our proxy appended counts.
      for (const spoofed of ['203.0.113.1', '203.0.113.2, 10.0.0.1', 'anything']) {
        expect((await from(`${spoofed}, 198.51.100.1`)).status, spoofed).to.equal(429);
      }
    } finally {
      await app.stop();
    }
  });

  it('behind two proxies (server.proxy: 2) the client is the second entry from the right', async () => {
    const app = await startUpApp(dialect, { config: { ratelimit: { enabled: true, interval: 60_000, max: 1 } }, serverConfig: { proxy: 2 } });
    try {
      const from = (header: string) => app.request('POST', '/api/auth/forgot-password', { body: { email: 'bad' }, headers: { 'x-forwarded-for': header } });
      expect((await from('198.51.100.7, 10.0.0.2')).status).to.equal(400);
      expect((await from('spoofed, 198.51.100.7, 10.0.0.3')).status).to.equal(429);
      expect((await from('198.51.100.8, 10.0.0.2')).status).to.equal(400);
    } finally {
      await app.stop();
    }
  });
});
