/**
 * Admin RBAC at the API level, through the typed contract a plugin uses
 * (`adminAbility(ctx)` from `@tessera/plugin-admin`): a plugin's admin routes
 * read and update entries through the filters, fields and locales the
 * signed-in admin's permissions allow, on the peer's own app. An Author (the
 * default role, `admin::is-creator`) reads and updates only what it created;
 * a role without a field gets no such field; a role limited to one locale
 * touches only that locale. The gate (policies) refuses a role without the action.
 */
import { expect } from 'chai';
import type Koa from 'koa';
import bcrypt from 'bcryptjs';
import { ForbiddenError, NotFoundError } from '@tessera/errors';
import { requestBody, type Plugin } from '@tessera/core';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { adminAbility, adminRoute, PERMISSION_UID, ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { addLocales, peerModelFiles } from './fixture';

const READ = 'plugin::content-manager.explorer.read';
const UPDATE = 'plugin::content-manager.explorer.update';

/** What a content-manager-like plugin does with the contract: every read and write goes through the caller's access. */
const explorer: Plugin = {
  name: 'explorer',
  controllers: {
    entries: ({ app }) => ({
      async list(ctx: Koa.Context) {
        const uid = String(ctx.params.uid);
        const access = adminAbility(ctx).access(READ, uid);
        if (!access) throw new ForbiddenError();
        const locale = typeof ctx.query.locale === 'string' ? ctx.query.locale : undefined;
        if (locale !== undefined && access.locales !== 'all' && !access.locales.includes(locale)) throw new ForbiddenError();
        const where = { $and: [access.filters ?? {}, locale === undefined ? {} : { locale }] };
        const rows = await app.db.query(uid).findMany({ where, orderBy: [{ id: 'asc' }] });
        // Only the permitted fields leave (relations and components would be populated the same way).
        const permitted = (field: string) => field === 'id' || (access.fields === 'all' ? !['createdAt', 'updatedAt', 'publishedAt'].includes(field) : access.fields.some((path) => path.split('.')[0] === field));
        ctx.body = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([field]) => permitted(field))));
      },
      async update(ctx: Koa.Context) {
        const uid = String(ctx.params.uid);
        const ability = adminAbility(ctx);
        const access = ability.access(UPDATE, uid);
        if (!access) throw new ForbiddenError();
        const data = requestBody(ctx) as Record<string, unknown>;
        if (Object.keys(data).some((field) => !ability.can(UPDATE, uid, field))) throw new ForbiddenError();
        const { count } = await app.db.query(uid).updateMany({ where: { $and: [{ id: Number(ctx.params.id) }, access.filters ?? {}] }, data });
        if (count === 0) throw new NotFoundError();
        ctx.body = { count };
      },
    }),
  },
  routes: {
    admin: {
      type: 'admin',
      prefix: '/explorer',
      routes: [adminRoute('GET', '/:uid', 'entries.list'), adminRoute('PUT', '/:uid/:id', 'entries.update')],
    },
  },
};

const NOTE = 'api::note.note';
const PAGE = 'api::page.page';

eachDatabase('admin RBAC through the contract', (dialect) => {
  let app: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  async function role(code: string, name = code): Promise<number> {
    const found = await app.app.db.query(ROLE_UID).findOne({ where: { code }, select: ['id'] });
    return found ? found.id : (await app.app.db.query(ROLE_UID).create({ data: { name, code, description: '' } })).id;
  }

  async function admin(name: string, roles: number[]): Promise<void> {
    const password = await bcrypt.hash('Secret123', 10);
    ids[name] = (await app.app.db.query(USER_UID).create({ data: { email: `${name}@example.com`, firstname: name, password, isActive: true, blocked: false, roles } })).id;
    tokens[name] = (await app.post('/admin/login', { email: `${name}@example.com`, password: 'Secret123' })).body.data.token;
  }

  async function grant(roleId: number, action: string, subject: string, properties: object): Promise<void> {
    await app.app.db.query(PERMISSION_UID).create({ data: { action, actionParameters: {}, subject, properties, conditions: [], role: roleId } });
  }

  const titles = async (name: string, path: string) => {
    const response = await app.get(path, { token: tokens[name] });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body.map((row: { title: string }) => row.title);
  };

  before(async () => {
    app = await startApp({ dialect, files: peerModelFiles(), plugins: [explorer], config: { admin: { auth: { secret: 'admin-rbac-secret' } } } });
    await addLocales(app);
    await admin('author', [await role('strapi-author')]);
    await admin('other', [await role('strapi-author')]);
    await admin('editor', [await role('strapi-editor')]);
    const titleOnly = await role('title-only');
    await grant(titleOnly, READ, NOTE, { fields: ['title'] });
    await grant(titleOnly, UPDATE, NOTE, { fields: ['title'] });
    await admin('reader', [titleOnly]);
    const french = await role('french-only');
    await grant(french, READ, PAGE, { fields: ['title'], locales: ['fr'] });
    await admin('french', [french]);
    await admin('nobody', [await role('nothing')]);
    for (const [title, by] of [['by author', 'author'], ['by other', 'other'], ['by editor', 'editor']]) {
      await app.app.db.query(NOTE).create({ data: { title, secret: 's', score: 1, createdBy: ids[by] } });
    }
    for (const [title, locale] of [['Hello', 'en'], ['Bonjour', 'fr'], ['Hallo', 'de']]) await app.app.db.query(PAGE).create({ data: { title, locale } });
  });
  after(() => app?.stop());

  it('lets an Author read and update only the entries it created (admin::is-creator)', async () => {
    expect(await titles('author', `/explorer/${NOTE}`)).to.deep.equal(['by author']);
    expect(await titles('other', `/explorer/${NOTE}`)).to.deep.equal(['by other']);
    expect(await titles('editor', `/explorer/${NOTE}`)).to.deep.equal(['by author', 'by other', 'by editor']);
    const own = await app.app.db.query(NOTE).findOne({ where: { title: 'by author' } });
    const theirs = await app.app.db.query(NOTE).findOne({ where: { title: 'by other' } });
    expect((await app.put(`/explorer/${NOTE}/${own!.id}`, { score: 2 }, { token: tokens.author })).body).to.deep.equal({ count: 1 });
    expect((await app.put(`/explorer/${NOTE}/${theirs!.id}`, { score: 9 }, { token: tokens.author })).status).to.equal(404);
    expect((await app.app.db.query(NOTE).findOne({ where: { id: theirs!.id } }))!.score).to.equal(1);
  });

  it('gives a role without a field no such field: not read, not written', async () => {
    const rows = (await app.get(`/explorer/${NOTE}`, { token: tokens.reader })).body;
    expect(rows.map((row: object) => Object.keys(row).sort())).to.deep.equal([['id', 'title'], ['id', 'title'], ['id', 'title']]);
    const note = await app.app.db.query(NOTE).findOne({ where: { title: 'by editor' } });
    expect((await app.put(`/explorer/${NOTE}/${note!.id}`, { secret: 'changed' }, { token: tokens.reader })).status).to.equal(403);
    expect((await app.put(`/explorer/${NOTE}/${note!.id}`, { title: 'renamed' }, { token: tokens.reader })).body).to.deep.equal({ count: 1 });
    expect(await app.app.db.query(NOTE).findOne({ where: { id: note!.id } })).to.deep.include({ title: 'renamed', secret: 's' });
  });

  it('keeps a role limited to one locale to that locale', async () => {
    expect(await titles('french', `/explorer/${PAGE}`)).to.deep.equal(['Bonjour']);
    expect(await titles('french', `/explorer/${PAGE}?locale=fr`)).to.deep.equal(['Bonjour']);
    expect((await app.get(`/explorer/${PAGE}?locale=en`, { token: tokens.french })).status).to.equal(403);
    expect(await titles('editor', `/explorer/${PAGE}`)).to.deep.equal(['Hello', 'Bonjour', 'Hallo']);
  });

  it('refuses a role without the action (403), and every admin route to content-API callers (401)', async () => {
    expect((await app.get(`/explorer/${NOTE}`, { token: tokens.nobody })).status).to.equal(403);
    expect((await app.get(`/explorer/${PAGE}`, { token: tokens.reader })).status).to.equal(403);
    expect((await app.get(`/explorer/${NOTE}`, { token: await app.fullAccessToken() })).status).to.equal(401);
  });
});
