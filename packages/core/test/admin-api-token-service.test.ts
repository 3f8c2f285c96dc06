/**
 * `strapi.service('admin::api-token')`, Strapi v4's admin service for API
 * tokens. The real Strapi app beside the project (shared/strapi4-peer: its
 * bootstrap makes a full-access token through this service and writes the
 * plaintext to a file) boots unchanged, and that token opens the API. Then
 * each function of the service, with the answers and errors of Strapi 4.26.2
 * (@strapi/admin services/api-token), checked through real requests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { SHARED_REFERENCE, eachDatabase, requireReference, startApp, type TestApp } from '@tessera/testing';
import type { AdminApiTokenService } from '@tessera/core';

const PEER = path.resolve(SHARED_REFERENCE, '../strapi4-peer/app');
const SEVEN_DAYS = 7 * 24 * 60 * 60 * 1000;

/** Runs `boot` with the peer's environment: where its token goes, and how many articles it seeds. */
async function withPeerEnvironment<T>(tokenFile: string, boot: () => Promise<T>): Promise<T> {
  const saved = { file: process.env.PEER_TOKEN_FILE, seed: process.env.SEED };
  process.env.PEER_TOKEN_FILE = tokenFile;
  process.env.SEED = '3';
  try {
    return await boot();
  } finally {
    for (const [name, value] of [['PEER_TOKEN_FILE', saved.file], ['SEED', saved.seed]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

eachDatabase("strapi.service('admin::api-token')", (dialect) => {
  let app: TestApp;
  let tokens: AdminApiTokenService;
  let tokenFile: string;

  before(async function () {
    requireReference(this, '../strapi4-peer/app/src/index.js');
    // Made here, not when the file loads: a suite left out by --grep (or skipped) makes nothing to remove.
    tokenFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-peer-token-')), 'token.txt');
    // Its package.json too: its dependencies (@strapi/plugin-i18n…) say which plugins it runs.
    const files = { 'package.json': fs.readFileSync(path.join(PEER, 'package.json'), 'utf8') };
    app = await withPeerEnvironment(tokenFile, () => startApp({ dialect, from: PEER, files }));
    tokens = app.app.service<AdminApiTokenService>('admin::api-token')!;
  });
  after(async () => {
    await app?.stop();
    if (tokenFile) fs.rmSync(path.dirname(tokenFile), { recursive: true, force: true });
  });

  it("boots the reference Strapi app unchanged: its bootstrap's token opens the API", async () => {
    const key = fs.readFileSync(tokenFile, 'utf8').trim();
    expect(key).to.match(/^[0-9a-f]{256}$/);
    const token = await tokens.getByName('peer-full-access');
    expect(token).to.include({ name: 'peer-full-access', type: 'full-access', lifespan: null, expiresAt: null });
    // The peer's seed ran too (through strapi.db.metadata's join tables and strapi.db.connection): 3 articles, the
    // third a draft, which a full-access token may read; and the token writes.
    expect((await app.post('/api/articles', { data: { title: 'Article 4', slug: 'article-4' } }, { token: key })).status).to.equal(200);
    const preview = await app.get('/api/articles?publicationState=preview&fields[0]=title&populate[tags][fields][0]=name&sort=id', { token: key });
    expect(preview.status).to.equal(200);
    expect(preview.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.deep.equal(['Article 1', 'Article 2', 'Article 3', 'Article 4']);
    expect(preview.body.data[0].attributes.tags.data.map((tag: { attributes: { name: string } }) => tag.attributes.name)).to.deep.equal(['Tag 2', 'Tag 9', 'Tag 15']);
    expect((await app.get('/api/articles?publicationState=preview', { token: 'not-a-token' })).status).to.equal(401);
  });

  it('creates a custom token whose key works once, lists by name, regenerates and revokes', async () => {
    const created = await tokens.create({ name: 'reader', description: 'reads articles', type: 'custom', permissions: ['api::article.article.find', 'api::article.article.find'] });
    expect(created.accessKey).to.match(/^[0-9a-f]{256}$/);
    expect(created).to.include({ name: 'reader', description: 'reads articles', type: 'custom', lifespan: null, expiresAt: null });
    expect(created.permissions).to.deep.equal(['api::article.article.find']);
    const key = created.accessKey as string;
    expect((await app.get('/api/articles', { token: key })).status).to.equal(200);
    expect((await app.get('/api/tags', { token: key })).status).to.equal(403);

    expect((await tokens.list()).map((token) => token.name)).to.deep.equal(['peer-full-access', 'reader']);
    expect(await tokens.exists({ name: 'reader' })).to.equal(true);
    expect(await tokens.getBy({})).to.equal(null);

    const regenerated = await tokens.regenerate(created.id);
    expect(regenerated.id).to.equal(created.id);
    expect((await app.get('/api/articles', { token: key })).status).to.equal(401);
    expect((await app.get('/api/articles', { token: regenerated.accessKey as string })).status).to.equal(200);

    const revoked = await tokens.revoke(created.id);
    expect(revoked).to.include({ id: created.id, name: 'reader' });
    expect((await app.get('/api/articles', { token: regenerated.accessKey as string })).status).to.equal(401);
    expect(await tokens.getById(created.id)).to.equal(null);
  });

  it('updates description and permissions; a lifespan sets the expiry', async () => {
    const created = await tokens.create({ name: 'editor', type: 'custom', permissions: ['api::tag.tag.find'], lifespan: SEVEN_DAYS });
    // A biginteger column: a decimal string, as on every database (Strapi on PostgreSQL answers the same).
    expect(created.lifespan).to.equal(String(SEVEN_DAYS));
    expect(new Date(created.expiresAt as string).getTime()).to.be.closeTo(Date.now() + SEVEN_DAYS, 60_000);
    const key = created.accessKey as string;
    const updated = await tokens.update(created.id, { description: 'edits tags', permissions: ['api::tag.tag.find', 'api::tag.tag.create'] });
    expect(updated).to.include({ description: 'edits tags', type: 'custom' });
    expect([...(updated.permissions as string[])].sort()).to.deep.equal(['api::tag.tag.create', 'api::tag.tag.find']);
    expect((await app.post('/api/tags', { data: { name: 'Made with a custom token' } }, { token: key })).status).to.equal(200);
    expect((await app.get('/api/articles', { token: key })).status).to.equal(403);
  });

  it("refuses what Strapi refuses, with Strapi's messages", async () => {
    const refusal = async (work: () => Promise<unknown>) => work().then(() => null, (error: Error) => `${error.name}: ${error.message}`);
    expect(await refusal(() => tokens.create({ name: 'x', type: 'read-only', permissions: ['api::tag.tag.find'] }))).to.equal('ValidationError: Non-custom tokens should not reference permissions');
    expect(await refusal(() => tokens.create({ name: 'y', type: 'custom' }))).to.equal('ValidationError: Missing permissions attribute for custom token');
    expect(await refusal(() => tokens.create({ name: 'z', type: 'read-only', lifespan: 1234 }))).to.match(/^ValidationError: lifespan must be one of the following values/);
    expect(await refusal(() => tokens.regenerate(999_999))).to.equal('NotFoundError: The provided token id does not exist');
    expect(await refusal(() => tokens.update(999_999, { description: 'nothing' }))).to.equal('NotFoundError: Token not found');
    expect(tokens.hash('key')).to.match(/^[0-9a-f]{128}$/);
  });
});
