/**
 * Settings → Transfer Tokens' routes on Tessera, answered as Strapi 4.26.2 answers them with a transfer salt set
 * (recorded/strapi-4.26.2-transfer-tokens.json, replayed step by step on a fresh database of each kind): list,
 * create, get, update, regenerate, delete and the bodies Strapi refuses. Without a salt, and with transfer turned
 * off from the environment, the routes answer as Strapi does then (its 501 and 404, recorded).
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import recorded from './recorded/strapi-4.26.2-transfer-tokens.json';
import withoutSalt from './recorded/strapi-4.26.2-api-tokens.json';
import { normalise, startSettingsApp, type RecordedCall } from './settings-fixture';

const SALT = 'transfer-test-salt';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Strapi's answers name its access keys `<accessKey>`; here the ones Tessera answered are kept to check them. */
const keysOf = (answer: unknown): string[] => {
  const data = (answer as { data?: { accessKey?: unknown } } | undefined)?.data;
  return typeof data?.accessKey === 'string' ? [data.accessKey] : [];
};

eachDatabase('admin transfer tokens (Strapi 4.26.2 answers)', (dialect) => {
  let app: TestApp;
  let jwt: string;
  const keys: Record<string, string> = {};

  before(async () => {
    ({ app, jwt } = await startSettingsApp(dialect, {}, { transfer: { token: { salt: SALT } } }));
  });
  after(() => app?.stop());

  for (const step of recorded.sequence as RecordedCall[]) {
    it(`${step.method} ${step.path}: ${step.title}`, async () => {
      const response = await app.request(step.method, step.path, { body: step.body, token: step.title === 'no auth' ? undefined : jwt });
      for (const key of keysOf(response.body)) {
        expect(key).to.match(/^[0-9a-f]{256}$/);
        keys[step.title] = key;
      }
      expect([response.status, normalise(response.body)]).to.deep.equal([step.status, step.answer]);
    });
  }

  it('stores each key as its HMAC-SHA512 with the salt, a regenerated one in place of the old', async () => {
    const stored = async (name: string) => (await app.app.db.query('admin::transfer-token').findOne({ where: { name }, select: ['accessKey'] }))?.accessKey;
    const hmac = (key: string) => crypto.createHmac('sha512', SALT).update(key).digest('hex');
    expect(await stored('panel-full')).to.equal(hmac(keys.regenerate));
    expect(await stored('panel-pull')).to.equal(hmac(keys['create pull 30 days']));
  });

  it('stores the lifespan and an expiry that far from creation', async () => {
    const listed = (await app.get('/admin/transfer/tokens', { token: jwt })).body.data as Array<{ name: string; lifespan: string | null; expiresAt: string; createdAt: string }>;
    const token = listed.find((item) => item.name === 'panel-pull')!;
    expect(token.lifespan).to.equal(String(30 * DAY_MS));
    expect(Date.parse(token.expiresAt) - Date.parse(token.createdAt)).to.be.within(30 * DAY_MS - 1000, 30 * DAY_MS + 1000);
  });

  it('deletes a token with its permission rows', async () => {
    const made = await app.post('/admin/transfer/tokens', { name: 'short-lived', permissions: ['push', 'pull'] }, { token: jwt });
    expect((await app.delete(`/admin/transfer/tokens/${made.body.data.id}`, { token: jwt })).status).to.equal(200);
    const rows = await app.app.db.query('admin::transfer-token-permission').findMany({ where: { token: { id: made.body.data.id } } });
    expect([rows.length, await app.app.db.query('admin::transfer-token').count({ where: { name: 'short-lived' } })]).to.deep.equal([0, 0]);
  });

  it('refuses over-long names and permission lists with a 400, writing nothing', async () => {
    const before = (await app.get('/admin/transfer/tokens', { token: jwt })).body.data.length;
    const long = await app.post('/admin/transfer/tokens', { name: 'n'.repeat(256), permissions: ['push'] }, { token: jwt });
    expect([long.status, long.body.error.message]).to.deep.equal([400, 'name must be at most 255 characters']);
    const many = await app.post('/admin/transfer/tokens', { name: 'many', permissions: Array.from({ length: 11 }, () => 'push') }, { token: jwt });
    expect([many.status, many.body.error.message]).to.deep.equal([400, 'permissions must have less than or equal to 10 items']);
    expect((await app.get('/admin/transfer/tokens', { token: jwt })).body.data.length).to.equal(before);
  });
});

describe('admin transfer tokens without a salt, or turned off (Strapi 4.26.2 answers) [sqlite]', () => {
  let app: TestApp;
  let jwt: string;
  before(async () => {
    ({ app, jwt } = await startSettingsApp('sqlite'));
  });
  after(() => app?.stop());

  it("answers Strapi's 501 INVALID_TOKEN_SALT on every token route, never a 500", async () => {
    const [missing] = withoutSalt.transferWithoutSalt;
    for (const [method, path] of [['GET', '/admin/transfer/tokens'], ['POST', '/admin/transfer/tokens'], ['POST', '/admin/transfer/tokens/1/regenerate'], ['DELETE', '/admin/transfer/tokens/1']]) {
      const response = await app.request(method, path, { token: jwt, body: method === 'POST' ? { name: 'x', permissions: ['push'] } : undefined });
      expect([response.status, response.body]).to.deep.equal([missing.status, missing.answer]);
    }
  });

  it('answers 404 with a salt when STRAPI_DISABLE_REMOTE_DATA_TRANSFER=true, as Strapi does', async () => {
    const previous = process.env.STRAPI_DISABLE_REMOTE_DATA_TRANSFER;
    process.env.STRAPI_DISABLE_REMOTE_DATA_TRANSFER = 'true';
    const off = await startSettingsApp('sqlite', {}, { transfer: { token: { salt: SALT } } });
    try {
      const response = await off.app.get('/admin/transfer/tokens', { token: off.jwt });
      expect([response.status, response.body]).to.deep.equal([404, { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } }]);
    } finally {
      await off.app.stop();
      if (previous === undefined) delete process.env.STRAPI_DISABLE_REMOTE_DATA_TRANSFER;
      else process.env.STRAPI_DISABLE_REMOTE_DATA_TRANSFER = previous;
    }
  });
});
