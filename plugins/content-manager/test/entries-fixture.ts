/**
 * The test app of the entry routes: the peer fixture's model (Strapi's reference blog, shared/reference/strapi4-fixture:
 * article with a uid, relations, a component and media; category, tag, writer; the homepage single type) in an app
 * that depends on `@strapi/admin` (the admin and the content manager on) and `@strapi/strapi` (upload on), and the
 * first admin registered as the peer's was (`POST /admin/register-admin`).
 */
import fs from 'node:fs';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { PERMISSION_UID, ROLE_UID, USER_UID } from '@tessera/plugin-admin';
import { SHARED_REFERENCE, startApp, type TestApp, type TestDialect } from '@tessera/testing';

export const PEER_FIXTURE = path.join(SHARED_REFERENCE, 'strapi4-fixture');
export const FIRST_ADMIN = { email: 'cm.entries@example.com', password: 'Entries123', firstname: 'Cm', lastname: 'Entries' };

const PAGE_SCHEMA = path.join(SHARED_REFERENCE, 'strapi4-fixture-i18n/src/api/page/content-types/page/schema.json');

/** The peer's locales (en, the default; fr; de), made as a Strapi app's bootstrap makes them. */
const LOCALES_BOOTSTRAP = `module.exports = {
  async bootstrap({ strapi }) {
    const locales = strapi.plugin('i18n').service('locales');
    for (const [code, name] of [['fr', 'French (fr)'], ['de', 'German (de)']]) if (!(await locales.findByCode(code))) await locales.create({ code, name });
  },
};
`;

/** The files that make the peer fixture localized: the `page` type (title, slug, body localized; order shared) and the peer's locales. */
export function localizedFiles(): Record<string, string | object> {
  return { 'src/api/page/content-types/page/schema.json': JSON.parse(fs.readFileSync(PAGE_SCHEMA, 'utf8')), 'src/index.js': LOCALES_BOOTSTRAP };
}

/**
 * With `i18n`: the i18n plugin on, the fixture's localized `page` type and the peer's locales; with
 * `usersPermissions`: that plugin on (its user type in the content manager); `files`: more schemas.
 */
export async function startEntriesApp(dialect: TestDialect, options: { i18n?: boolean; usersPermissions?: boolean; files?: Record<string, string | object> } = {}): Promise<TestApp> {
  const dependencies: Record<string, string> = { '@strapi/strapi': '4.26.2', '@strapi/admin': '4.26.2' };
  if (options.usersPermissions) dependencies['@strapi/plugin-users-permissions'] = '4.26.2';
  let files: Record<string, string | object> = { ...options.files };
  if (options.i18n) {
    dependencies['@strapi/plugin-i18n'] = '4.26.2';
    files = { ...files, ...localizedFiles() };
  }
  return startApp({
    dialect,
    from: PEER_FIXTURE,
    files: { ...files, 'package.json': { name: 'cm-entries-app', version: '0.1.0', dependencies } },
    config: { admin: { auth: { secret: 'cm-entries-admin-secret' } } },
  });
}

export async function registerFirstAdmin(app: TestApp): Promise<string> {
  const response = await app.post('/admin/register-admin', FIRST_ADMIN);
  if (response.status !== 200) throw new Error(`register-admin: ${response.status} ${response.text}`);
  return response.body.data.token as string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A file's generated names (the recorder's normalisation). */
const HASHED = new Set(['hash', 'url']);

/** The fixture's component attributes (article.seo). */
const COMPONENT_KEYS = new Set(['seo']);

/**
 * Timestamps as `<timestamp>` and a file's hash and url as `<hash>`/`<url>` (the recorder's normalisation), and a component's own id as `<component id>`: Strapi
 * updates a component in place when the body names its id, Tessera's query engine writes it anew (a new row id),
 * for REST and GraphQL writes alike.
 */
export function normalise(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, item: unknown) => {
    if (typeof item === 'string' && ISO.test(item)) return '<timestamp>';
    if (typeof item === 'string' && HASHED.has(key)) return `<${key}>`;
    if (COMPONENT_KEYS.has(key) && typeof item === 'object' && item !== null && 'id' in item) return { ...item, id: '<component id>' };
    return item;
  });
}

export interface Grant {
  action: string;
  /** null for an action on no type (a plugin's, a setting's). */
  subject: string | null;
  properties: Record<string, unknown>;
  conditions: string[];
}

/** Stores permissions on a role, as `PUT /admin/roles/:id/permissions` stores them. */
export async function grant(app: TestApp, role: number, permissions: Grant[]): Promise<void> {
  for (const permission of permissions) await app.app.db.query(PERMISSION_UID).create({ data: { ...permission, actionParameters: {}, role } });
}

/** An active admin with `role`, as an invitation and registration make one, signed in: its token. */
export async function signInAdmin(app: TestApp, user: { email: string; firstname: string; lastname: string; password: string }, role: number): Promise<string> {
  const password = await bcrypt.hash(user.password, 10);
  await app.app.db.query(USER_UID).create({ data: { ...user, password, isActive: true, blocked: false, roles: [role] } });
  const login = await app.post('/admin/login', { email: user.email, password: user.password });
  if (login.status !== 200) throw new Error(`login of ${user.email}: ${login.status} ${login.text}`);
  return login.body.data.token as string;
}

export async function roleId(app: TestApp, code: string): Promise<number> {
  const role = await app.app.db.query(ROLE_UID).findOne({ where: { code } });
  if (!role) throw new Error(`no role ${code}`);
  return role.id;
}

export async function createRole(app: TestApp, name: string): Promise<number> {
  return (await app.app.db.query(ROLE_UID).create({ data: { name, code: name.toLowerCase(), description: '' } })).id;
}
