/**
 * A database Strapi 4.26.2 made (fixtures/strapi-4.26.2-admin.sql: its admin
 * tables, DDL and rows, after an admin registered on shared/strapi4-peer):
 * Tessera boots on it without touching the roles, the admin logs in with the
 * password set on Strapi, a token Strapi issued is accepted (until it expires,
 * as Strapi would), and `users/me/permissions` answers the stored permissions
 * as Strapi stores them (synced to this app at boot, as Strapi syncs them).
 * A fresh database gets the same table layout.
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

  it("reads the admin's permissions Strapi stored, synced at boot to this app as Strapi syncs them", async () => {
    const login = await app.post('/admin/login', PEER_ADMIN);
    const permissions: Array<{ id: number; action: string; subject: string | null }> = (await app.get('/admin/users/me/permissions', { token: login.body.data.token })).body.data;
    // As Strapi's boot would on this app: the Super Admin is given every registered action on this app's types (its
    // note permission now lists the note's one field), and what Strapi stored for types and fields this app lacks is gone.
    expect(permissions.filter((permission) => PEER_PERMISSIONS.some((stored) => stored.id === permission.id))).to.deep.equal([]);
    const note = permissions.find((permission) => permission.action === PEER_PERMISSIONS[0].action && permission.subject === 'api::note.note');
    expect(note).to.deep.include({ actionParameters: {}, properties: { fields: ['title'] }, conditions: [] });
    expect(permissions.filter((permission) => permission.subject !== null && permission.subject !== 'api::note.note')).to.deep.equal([]);
    const withSubjects = app.app.admin.services.permission.actionProvider.values().filter((action) => action.subjects === undefined || action.subjects.length > 0);
    expect([...new Set(permissions.map((permission) => permission.action))].sort()).to.deep.equal(withSubjects.map((action) => action.actionId).sort());
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
