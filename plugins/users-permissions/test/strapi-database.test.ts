/**
 * The example app on a copy of the database Strapi v4 created: a user added
 * the way Strapi stores one (bcrypt hash in up_users, linked to the
 * Authenticated role in up_users_role_links, epoch-millisecond timestamps)
 * logs in unchanged, and Strapi's stored public permissions keep working.
 * Strapi's up_* tables stay as Strapi made them but for one column the
 * additive sync adds, up_users.password_changed_at (password-change.ts).
 * Strapi's settings rows in the core store are the settings: a register turned
 * off there (as Strapi's panel stores it) is refused, and no row is rewritten.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import Sqlite from 'better-sqlite3';
import { expect } from 'chai';
import { EXAMPLE_APP, SHARED_REFERENCE, startApp, type TestApp } from '@tessera/testing';
import { FORBIDDEN, USER_KEYS, recording } from './fixture';

describe('users-permissions: on a copy of the Strapi v4 reference database [sqlite]', () => {
  let app: TestApp;
  let workDir: string;
  let columnsBefore: Record<string, string[]>;
  before(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-up-reference-'));
    const copy = path.join(workDir, 'strapi4-blog.sqlite');
    fs.copyFileSync(path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite'), copy);
    const db = new Sqlite(copy);
    try {
      const created = Date.UTC(2026, 10, 1, 12, 0, 0);
      const { lastInsertRowid } = db
        .prepare('INSERT INTO up_users (username, email, provider, password, confirmed, blocked, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run('strapi-user', 'strapi-user@example.com', 'local', bcrypt.hashSync('Str4piPassw0rd', 10), 1, 0, created, created);
      const authenticated = db.prepare(`SELECT id FROM up_roles WHERE type = 'authenticated'`).get() as { id: number };
      db.prepare('INSERT INTO up_users_role_links (user_id, role_id, user_order) VALUES (?, ?, 1)').run(lastInsertRowid, authenticated.id);
      columnsBefore = upColumns(db);
    } finally {
      db.close();
    }
    app = recording(await startApp({ dialect: 'sqlite', from: EXAMPLE_APP, sqliteFile: copy }));
  });
  after(async () => {
    await app?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('a user stored with a bcrypt hash logs in, by email and by username', async () => {
    for (const identifier of ['strapi-user@example.com', 'strapi-user']) {
      const login = await app.post('/api/auth/local', { identifier, password: 'Str4piPassw0rd' });
      expect(login.status, identifier).to.equal(200);
      expect(Object.keys(login.body.user)).to.deep.equal(USER_KEYS);
      expect(login.body.user).to.include({ username: 'strapi-user', confirmed: true, blocked: false, createdAt: '2026-11-01T12:00:00.000Z' });
      const me = await app.get('/api/users/me', { token: login.body.jwt });
      expect(me.body).to.deep.equal(login.body.user);
    }
    expect((await app.post('/api/auth/local', { identifier: 'strapi-user', password: 'wrong' })).status).to.equal(400);
  });

  it('Strapi\'s up_* tables are unchanged but for up_users.password_changed_at; a password change revokes the earlier JWT', async () => {
    const db = new Sqlite(app.database.sqliteFile!, { readonly: true });
    let columnsAfter: Record<string, string[]>;
    try {
      columnsAfter = upColumns(db);
    } finally {
      db.close();
    }
    expect(columnsAfter).to.deep.equal({ ...columnsBefore, up_users: [...columnsBefore.up_users, 'password_changed_at'] });
    const login = await app.post('/api/auth/local', { identifier: 'strapi-user', password: 'Str4piPassw0rd' });
    const changed = await app.post('/api/auth/change-password', { currentPassword: 'Str4piPassw0rd', password: 'N3wPassw0rd', passwordConfirmation: 'N3wPassw0rd' }, { token: login.body.jwt });
    expect(changed.status).to.equal(200);
    expect((await app.get('/api/users/me', { token: login.body.jwt })).status).to.equal(401);
    expect((await app.get('/api/users/me', { token: changed.body.jwt })).body.username).to.equal('strapi-user');
    await app.post('/api/auth/change-password', { currentPassword: 'N3wPassw0rd', password: 'Str4piPassw0rd', passwordConfirmation: 'Str4piPassw0rd' }, { token: changed.body.jwt });
  });

  it('Strapi\'s stored roles answer the roles list, and its public permissions still apply', async () => {
    expect((await app.get('/api/articles?pagination[pageSize]=1')).body.meta.pagination.total).to.equal(1334);
    expect((await app.get('/api/users')).body).to.deep.equal(FORBIDDEN);
    const token = await app.fullAccessToken();
    const roles = await app.get('/api/users-permissions/roles', { token });
    expect(roles.body.roles.map((role: { name: string; nb_users: number }) => [role.name, role.nb_users])).to.deep.equal([['Authenticated', 1], ['Public', 0]]);
    expect(roles.body.roles[0].createdAt).to.match(/^2026-11-\d\dT/);
  });
});

describe('users-permissions: Strapi\'s stored settings on its reference database [sqlite]', () => {
  it('are honoured as they are: register switched off there is refused; the rows stay as Strapi wrote them', async () => {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-up-settings-'));
    const copy = path.join(workDir, 'strapi4-blog.sqlite');
    fs.copyFileSync(path.join(SHARED_REFERENCE, 'strapi4-blog.sqlite'), copy);
    const db = new Sqlite(copy);
    let before: Array<{ key: string; value: string }>;
    try {
      const advanced = db.prepare(`SELECT value FROM strapi_core_store_settings WHERE key = 'plugin_users-permissions_advanced'`).get() as { value: string };
      // What Strapi's Advanced settings page stores when register is switched off.
      db.prepare(`UPDATE strapi_core_store_settings SET value = ? WHERE key = 'plugin_users-permissions_advanced'`).run(JSON.stringify({ ...JSON.parse(advanced.value), allow_register: false }));
      before = upSettings(db);
    } finally {
      db.close();
    }
    const app = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP, sqliteFile: copy });
    try {
      const refused = await app.post('/api/auth/local/register', { username: 'newbie', email: 'newbie@example.com', password: 'Passw0rd!' });
      expect(refused.body).to.deep.equal({ data: null, error: { status: 400, name: 'ApplicationError', message: 'Register action is currently disabled', details: {} } });
      const after = new Sqlite(app.database.sqliteFile!, { readonly: true });
      try {
        expect(upSettings(after)).to.deep.equal(before);
      } finally {
        after.close();
      }
    } finally {
      await app.stop();
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  });
});

/** Strapi's users-permissions rows of the core store (grant, email, advanced). */
function upSettings(db: Sqlite.Database): Array<{ key: string; value: string }> {
  return db.prepare(`SELECT key, value FROM strapi_core_store_settings WHERE key LIKE 'plugin_users-permissions_%' ORDER BY key`).all() as Array<{ key: string; value: string }>;
}

/** Every up_* table's columns, in order. */
function upColumns(db: Sqlite.Database): Record<string, string[]> {
  const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'up\\_%' ESCAPE '\\' ORDER BY name`).all() as Array<{ name: string }>;
  return Object.fromEntries(tables.map(({ name }) => [name, (db.prepare(`PRAGMA table_info(${JSON.stringify(name)})`).all() as Array<{ name: string }>).map((column) => column.name)]));
}
