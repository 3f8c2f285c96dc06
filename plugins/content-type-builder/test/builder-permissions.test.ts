/**
 * Who may use the builder: Strapi 4.26.2 declares one action, `plugin::content-type-builder.read`, on every builder
 * route (reads and writes alike, through `admin::hasPermissions`). Its default Editor and Author roles do not hold
 * it, so an Editor is refused (403) and writes nothing; a role granted the action reads; the content API's tokens
 * are never admitted on these admin routes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import bcrypt from 'bcryptjs';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { PERMISSION_UID, ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { recordedJson, registerAdmin, startBuilderApp } from './builder-fixture';

const BASE = '/content-type-builder';
const CREATE_BOOK = recordedJson<unknown>('create-book/request.json');
/** Strapi 4.26.2's answer to its Editor on these routes (recorded: answers.json `editorRefused`). */
const FORBIDDEN = recordedJson<{ editorRefused: { body: unknown } }>('answers.json').editorRefused.body;

eachDatabase('content-type builder permissions (Strapi 4.26.2)', (dialect) => {
  let app: TestApp;
  const tokens: Record<string, string> = {};

  async function admin(name: string, roleId: number): Promise<void> {
    const password = await bcrypt.hash('Secret123', 10);
    await app.app.db.query(USER_UID).create({ data: { email: `${name}@example.com`, firstname: name, password, isActive: true, blocked: false, roles: [roleId] } });
    tokens[name] = (await app.post('/admin/login', { email: `${name}@example.com`, password: 'Secret123' })).body.data.token;
  }

  before(async () => {
    app = await startBuilderApp(dialect, { autoReload: true, restart: () => undefined });
    tokens.superAdmin = await registerAdmin(app);
    const editor = await app.app.db.query(ROLE_UID).findOne({ where: { code: 'strapi-editor' }, select: ['id'] });
    if (!editor) throw new Error("Strapi's Editor role is missing");
    await admin('editor', editor.id);
    const builders = await app.app.db.query(ROLE_UID).create({ data: { name: 'Builders', code: 'builders', description: '' } });
    await app.app.db.query(PERMISSION_UID).create({ data: { action: 'plugin::content-type-builder.read', actionParameters: {}, subject: null, properties: {}, conditions: [], role: builders.id } });
    await admin('builder', builders.id);
  });
  after(() => app?.stop());

  it("refuses Strapi's Editor on every builder route, writing nothing; a role holding the read action reads", async () => {
    for (const [method, route] of [['GET', '/content-types'], ['GET', '/reserved-names'], ['GET', '/components'], ['DELETE', '/content-types/api::tag.tag']] as const) {
      const response = await app.request(method, `${BASE}${route}`, { token: tokens.editor });
      expect({ status: response.status, body: response.body }, `${method} ${route}`).to.deep.equal({ status: 403, body: FORBIDDEN });
    }
    const created = await app.post(`${BASE}/content-types`, CREATE_BOOK, { token: tokens.editor });
    expect({ status: created.status, body: created.body }).to.deep.equal({ status: 403, body: FORBIDDEN });
    expect(fs.existsSync(path.join(app.dir, 'src/api/book'))).to.equal(false);
    expect(fs.existsSync(path.join(app.dir, 'src/api/tag/content-types/tag/schema.json'))).to.equal(true);
    const read = await app.get(`${BASE}/content-types/api::tag.tag`, { token: tokens.builder });
    expect(read.status).to.equal(200);
    expect(read.body.data.uid).to.equal('api::tag.tag');
    expect((await app.get(`${BASE}/reserved-names`, { token: tokens.superAdmin })).status).to.equal(200);
  });
});
