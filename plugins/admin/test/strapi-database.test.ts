/**
 * A database Strapi 4.26.2 made (fixtures/strapi-4.26.2-admin.sql: its admin
 * tables, DDL and rows, after an admin registered on shared/strapi4-peer):
 * Tessera boots on it without touching the roles, the admin logs in with the
 * password set on Strapi, a token Strapi issued is accepted (until it expires,
 * as Strapi would), and `users/me/permissions` answers the stored permissions
 * as Strapi answered them. A fresh database gets the same table layout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { startApp, type TestApp } from '@tessera/testing';
import { ROLE_UID } from '@tessera/plugin-admin';
import { ADMIN_APP_FILES } from './fixture';
import { PEER_ADMIN, PEER_ME, PEER_PERMISSIONS, PEER_SECRET, PEER_TOKEN, PEER_TOKEN_EXPIRES } from './recorded';

const FIXTURE = path.join(__dirname, 'fixtures', 'strapi-4.26.2-admin.sql');
const ADMIN_TABLES = ['admin_users', 'admin_roles', 'admin_permissions', 'admin_users_roles_links', 'admin_permissions_role_links'];

function strapiDatabase(dir: string): string {
  const file = path.join(dir, 'strapi.db');
  const db = new Database(file);
  db.exec(fs.readFileSync(FIXTURE, 'utf8'));
  db.close();
  return file;
}

function columns(file: string, table: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map((row) => row.name).sort();
  } finally {
    db.close();
  }
}

describe('admin sign-in on a database Strapi 4.26.2 made [sqlite]', () => {
  let dir: string;
  let app: TestApp;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-admin-strapi-'));
    app = await startApp({ dialect: 'sqlite', sqliteFile: strapiDatabase(dir), files: ADMIN_APP_FILES, config: { admin: { auth: { secret: PEER_SECRET } } } });
  });
  after(async () => {
    await app?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps Strapi roles as they are and knows the admin exists', async () => {
    expect(await app.app.db.query(ROLE_UID).count({})).to.equal(3);
    expect((await app.get('/admin/init')).body).to.deep.equal({ data: { uuid: false, hasAdmin: true, menuLogo: null, authLogo: null } });
  });

  it('logs the admin in with the password set on Strapi, answering the user as Strapi stored it', async () => {
    const login = await app.post('/admin/login', PEER_ADMIN);
    expect(login.status).to.equal(200);
    const { roles, ...user } = PEER_ME;
    expect(login.body.data.user).to.deep.equal(user);
    expect(roles).to.have.length(1);
    const me = await app.get('/admin/users/me', { token: login.body.data.token });
    expect(me.body).to.deep.equal({ data: PEER_ME });
    // Strapi looks the email up lower-cased (recorded: 200 for PEER.Admin@example.com).
    expect((await app.post('/admin/login', { ...PEER_ADMIN, email: 'PEER.Admin@example.com' })).status).to.equal(200);
  });

  it('accepts a token Strapi issued while it is valid (Strapi signs { id } with the admin secret, 30 days)', async () => {
    const me = await app.get('/admin/users/me', { token: PEER_TOKEN });
    if (Date.now() / 1000 < PEER_TOKEN_EXPIRES) expect([me.status, me.body]).to.deep.equal([200, { data: PEER_ME }]);
    else expect(me.status).to.equal(401);
    // The same token renewed by Tessera: Strapi's renew-token does not look at the expiry's owner, only at the signature and expiry.
    const renewed = await app.post('/admin/renew-token', { token: PEER_TOKEN });
    expect(renewed.status).to.equal(Date.now() / 1000 < PEER_TOKEN_EXPIRES ? 200 : 400);
  });

  it("answers the admin's stored permissions as Strapi answered them", async () => {
    const login = await app.post('/admin/login', PEER_ADMIN);
    const permissions = await app.get('/admin/users/me/permissions', { token: login.body.data.token });
    expect(permissions.body).to.deep.equal({ data: PEER_PERMISSIONS });
  });

  it('makes the admin tables of a fresh database with the columns Strapi makes', async () => {
    const fresh = await startApp({ dialect: 'sqlite', files: ADMIN_APP_FILES, config: { admin: { auth: { secret: 's' } } } });
    try {
      const strapiFile = strapiDatabase(fs.mkdtempSync(path.join(dir, 'layout-')));
      for (const table of ADMIN_TABLES) expect(columns(fresh.database.sqliteFile!, table), table).to.deep.equal(columns(strapiFile, table));
    } finally {
      await fresh.stop();
    }
  });
});
