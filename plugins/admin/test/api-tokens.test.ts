/**
 * The panel's API-token pages on Tessera, answered as Strapi 4.26.2 answers
 * them (recorded/strapi-4.26.2-api-tokens.json, replayed step by step on a
 * fresh database of each kind), and what the tokens then do on the content
 * API: the same rows, hash and lifespans as `tessera api-token` and the
 * content API's token strategy.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import type { AdminApiTokenService } from '@tessera/core';
import recorded from './recorded/strapi-4.26.2-api-tokens.json';
import { normalise, startSettingsApp, type RecordedCall } from './settings-fixture';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Where Tessera answers differently, on purpose. Strapi deletes one permission row when a custom token becomes
 * read-only (`query.delete` removes a single row), so its answer still lists one; Tessera removes them all.
 */
const DEVIATIONS: Record<string, (answer: Record<string, unknown>) => unknown> = {
  'tokens: update to read-only': (answer) => ({ data: { ...(answer.data as object), permissions: [] } }),
  'tokens: delete': (answer) => ({ data: { ...(answer.data as object), permissions: [] } }),
};

function withIds(path: string, ids: Record<string, number>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => String(ids[name]));
}

/** Edge answers name ids of a fresh database; the replay's own differ. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === 'id' ? '<id>' : withoutIds(item)]));
  return value;
}

eachDatabase('admin API tokens (Strapi 4.26.2 answers)', (dialect) => {
  let app: TestApp;
  let jwt: string;
  const keys: Record<string, string> = {};

  before(async () => {
    // As the peer ran when this was recorded: a transfer salt, transfer turned off from the environment (its
    // transfer steps answer 404; transfer-tokens.test.ts replays the routes with transfer on).
    process.env.STRAPI_DISABLE_REMOTE_DATA_TRANSFER = 'true';
    ({ app, jwt } = await startSettingsApp(dialect, {}, { transfer: { token: { salt: 'settings-transfer-salt' } } }));
    // The peer's bootstrap made this token before the recording: token 1.
    await app.app.service<AdminApiTokenService>('admin::api-token')!.create({ name: 'peer-full-access', description: 'Reference peer full-access token (created by src/index.js bootstrap)', type: 'full-access' });
  });
  after(async () => {
    delete process.env.STRAPI_DISABLE_REMOTE_DATA_TRANSFER;
    await app?.stop();
  });

  for (const step of recorded.sequence as RecordedCall[]) {
    it(`${step.method} ${step.path}: ${step.title}`, async () => {
      const token = step.title === 'api token on admin' ? keys['tokens: create read-only 7d'] : /no auth/.test(step.title) ? undefined : jwt;
      const response = await app.request(step.method, step.path, { body: step.body, token });
      const data = response.body?.data as { accessKey?: string } | undefined;
      if (data?.accessKey) {
        expect(data.accessKey).to.match(/^[0-9a-f]{256}$/);
        keys[step.title] = data.accessKey;
      }
      const expected = step.title in DEVIATIONS ? DEVIATIONS[step.title]!(step.answer as Record<string, unknown>) : step.answer;
      expect([response.status, normalise(response.body)]).to.deep.equal([step.status, expected]);
    });
  }

  it('makes keys that work on the content API as their type says; a regenerated key replaces the old one', async () => {
    const oldKey = keys['tokens: create read-only 7d'];
    const newKey = keys['tokens: regenerate'];
    expect((await app.get('/api/notes', { token: oldKey })).status).to.equal(401);
    expect((await app.get('/api/notes', { token: newKey })).status).to.equal(200);
    const write = await app.post('/api/notes', { data: { title: 'no' } }, { token: newKey });
    expect([write.status, write.body.error.name]).to.deep.equal([403, 'ForbiddenError']);
    const full = keys['tokens: create full-access no lifespan field'];
    expect((await app.post('/api/notes', { data: { title: 'yes' } }, { token: full })).status).to.equal(200);
  });

  it('stores the lifespan and an expiry that far from creation', async () => {
    const listed = (await app.get('/admin/api-tokens', { token: jwt })).body.data as Array<{ name: string; lifespan: string | null; expiresAt: string; createdAt: string }>;
    const token = listed.find((item) => item.name === 'panel-token')!;
    expect(token.lifespan).to.equal(String(7 * DAY_MS));
    expect(Date.parse(token.expiresAt) - Date.parse(token.createdAt)).to.be.within(7 * DAY_MS - 50, 7 * DAY_MS + 50);
  });

  it('manages the same rows as tessera api-token (the kernel token service)', async () => {
    const cli = await app.app.apiTokens.create({ name: 'from-the-cli', type: 'custom', permissions: ['api::note.note.find'] });
    const listed = (await app.get('/admin/api-tokens', { token: jwt })).body.data as Array<{ id: number; name: string; permissions: string[] }>;
    expect(listed.find((item) => item.name === 'from-the-cli')).to.deep.include({ id: cli.token.id, permissions: ['api::note.note.find'] });
    const panel = listed.find((item) => item.name === 'panel-token')!;
    expect((await app.app.apiTokens.find(panel.id))!.type).to.equal('read-only');
    expect((await app.delete(`/admin/api-tokens/${cli.token.id}`, { token: jwt })).status).to.equal(200);
    expect(await app.app.apiTokens.find(cli.token.id)).to.equal(null);
    expect((await app.get('/api/notes', { token: cli.accessKey })).status).to.equal(401);
  });

  it('answers a deleted custom token with its permission rows, as Strapi does', async () => {
    const created = await app.post('/admin/api-tokens', { name: 'to-delete', type: 'custom', permissions: ['api::note.note.find', 'api::tag.tag.find'] }, { token: jwt });
    const deleted = await app.delete(`/admin/api-tokens/${created.body.data.id}`, { token: jwt });
    const strapiRow = (recorded.sequence.find((step) => step.title === 'tokens: delete')!.answer as { data: { permissions: object[] } }).data.permissions[0]!;
    const rows = normalise(deleted.body.data.permissions) as Array<Record<string, unknown>>;
    expect(rows.map((row) => Object.keys(row))).to.deep.equal([Object.keys(strapiRow), Object.keys(strapiRow)]);
    expect(rows.map(({ action, createdAt }) => [action, createdAt])).to.deep.equal([
      ['api::note.note.find', '<date>'],
      ['api::tag.tag.find', '<date>'],
    ]);
    expect(await app.app.apiTokens.find(created.body.data.id)).to.equal(null);
  });

  it('refuses over-long names and permission lists with a 400, writing nothing', async () => {
    const before = (await app.get('/admin/api-tokens', { token: jwt })).body.data.length;
    const long = await app.post('/admin/api-tokens', { name: 'n'.repeat(256), type: 'read-only' }, { token: jwt });
    expect([long.status, long.body.error.message]).to.deep.equal([400, 'name must be at most 255 characters']);
    const many = await app.post('/admin/api-tokens', { name: 'many', type: 'custom', permissions: Array.from({ length: 1001 }, () => 'api::note.note.find') }, { token: jwt });
    expect([many.status, many.body.error.message]).to.deep.equal([400, 'permissions must have less than or equal to 1000 items']);
    expect((await app.get('/admin/api-tokens', { token: jwt })).body.data.length).to.equal(before);
  });

  describe('edge cases (a second recorded sequence)', () => {
    const ids: Record<string, number> = {};
    for (const step of recorded.edges as RecordedCall[]) {
      it(`${step.method} ${step.path}: ${step.title}`, async () => {
        const response = await app.request(step.method, withIds(step.path, ids), { body: step.body, token: jwt });
        if (step.title === 'tokens create: base') ids.base = response.body.data.id;
        expect([response.status, withoutIds(normalise(response.body))]).to.deep.equal([step.status, withoutIds(step.answer)]);
      });
    }
  });

  it("lists the content API's actions and routes as Strapi does (the note API, recorded on the peer)", async () => {
    const permissions = await app.get('/admin/content-api/permissions', { token: jwt });
    const peerPermissions = recorded.contentApi.permissions.data as Record<string, unknown>;
    expect(permissions.body.data['api::note']).to.deep.equal(peerPermissions['api::note']);
    expect(Object.keys(permissions.body.data)).to.include.members(['api::article', 'api::note', 'api::tag']);
    const routes = await app.get('/admin/content-api/routes', { token: jwt });
    const peerRoutes = recorded.contentApi.routes.data as Record<string, unknown>;
    expect(routes.body.data['api::note']).to.deep.equal(peerRoutes['api::note']);
  });
});
