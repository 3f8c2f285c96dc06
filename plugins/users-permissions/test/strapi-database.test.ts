/**
 * The example app on a copy of the database Strapi v4 created: a user added
 * the way Strapi stores one (bcrypt hash in up_users, linked to the
 * Authenticated role in up_users_role_links, epoch-millisecond timestamps)
 * logs in unchanged, and Strapi's stored public permissions keep working.
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

  it('Strapi\'s stored roles answer the roles list, and its public permissions still apply', async () => {
    expect((await app.get('/api/articles?pagination[pageSize]=1')).body.meta.pagination.total).to.equal(1334);
    expect((await app.get('/api/users')).body).to.deep.equal(FORBIDDEN);
    const token = await app.fullAccessToken();
    const roles = await app.get('/api/users-permissions/roles', { token });
    expect(roles.body.roles.map((role: { name: string; nb_users: number }) => [role.name, role.nb_users])).to.deep.equal([['Authenticated', 1], ['Public', 0]]);
    expect(roles.body.roles[0].createdAt).to.match(/^2026-11-\d\dT/);
  });
});
