/**
 * A media library Strapi 4.26.2 made (fixtures/strapi-4.26.2-media-library.sql:
 * its upload and admin tables, DDL and rows, after folders Photos and
 * Photos/Sub were made and two images uploaded through its admin routes on
 * shared/strapi4-peer): Tessera boots on it and the media library's routes
 * answer what Strapi answered on it (data/strapi-4.26.2-media-library-database.json),
 * ids and timestamps included; the admin signs in with the password set on
 * Strapi; a folder made on it continues Strapi's pathIds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { startApp, type TestApp } from '@tessera/testing';
import recorded from './data/strapi-4.26.2-media-library-database.json';
import { MEDIA_APP_FILES } from './admin-fixture';

const FIXTURE = path.join(__dirname, 'fixtures', 'strapi-4.26.2-media-library.sql');

describe('media library on a database Strapi 4.26.2 made [sqlite]', () => {
  let dir: string;
  let app: TestApp;
  let token: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-media-strapi-'));
    const file = path.join(dir, 'strapi.db');
    const db = new Database(file);
    db.exec(fs.readFileSync(FIXTURE, 'utf8'));
    db.close();
    app = await startApp({ dialect: 'sqlite', sqliteFile: file, files: MEDIA_APP_FILES, config: { admin: { auth: { secret: 'media-strapi-secret' } } } });
    const login = await app.post('/admin/login', recorded.admin);
    expect(login.status).to.equal(200);
    token = login.body.data.token;
  });
  after(async () => {
    await app?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const { path: route, answer } of recorded.answers) {
    it(`GET ${route}: Strapi's answer`, async () => {
      const response = await app.get(route, { token });
      expect([response.status, response.body]).to.deep.equal([200, answer]);
    });
  }

  it("makes the next folder with Strapi's next pathId, under a folder Strapi made", async () => {
    const created = await app.post('/upload/folders', { name: 'Deeper', parent: 2 }, { token });
    expect([created.status, created.body.data.pathId, created.body.data.path]).to.deep.equal([200, 3, '/1/2/3']);
  });
});
