/**
 * The test app of the entry routes: the peer fixture's model (Strapi's reference blog, shared/reference/strapi4-fixture:
 * article with a uid, relations, a component and media; category, tag, writer; the homepage single type) in an app
 * that depends on `@strapi/admin` (the admin and the content manager on) and `@strapi/strapi` (upload on), and the
 * first admin registered as the peer's was (`POST /admin/register-admin`).
 */
import path from 'node:path';
import { SHARED_REFERENCE, startApp, type TestApp, type TestDialect } from '@tessera/testing';

export const PEER_FIXTURE = path.join(SHARED_REFERENCE, 'strapi4-fixture');
export const FIRST_ADMIN = { email: 'cm.entries@example.com', password: 'Entries123', firstname: 'Cm', lastname: 'Entries' };

export async function startEntriesApp(dialect: TestDialect): Promise<TestApp> {
  return startApp({
    dialect,
    from: PEER_FIXTURE,
    files: { 'package.json': { name: 'cm-entries-app', version: '0.1.0', dependencies: { '@strapi/strapi': '4.26.2', '@strapi/admin': '4.26.2' } } },
    config: { admin: { auth: { secret: 'cm-entries-admin-secret' } } },
  });
}

export async function registerFirstAdmin(app: TestApp): Promise<string> {
  const response = await app.post('/admin/register-admin', FIRST_ADMIN);
  if (response.status !== 200) throw new Error(`register-admin: ${response.status} ${response.text}`);
  return response.body.data.token as string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The fixture's component attributes (article.seo). */
const COMPONENT_KEYS = new Set(['seo']);

/**
 * Timestamps as `<timestamp>` (the recorder's normalisation), and a component's own id as `<component id>`: Strapi
 * updates a component in place when the body names its id, Tessera's query engine writes it anew (a new row id),
 * for REST and GraphQL writes alike.
 */
export function normalise(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, item: unknown) => {
    if (typeof item === 'string' && ISO.test(item)) return '<timestamp>';
    if (COMPONENT_KEYS.has(key) && typeof item === 'object' && item !== null && 'id' in item) return { ...item, id: '<component id>' };
    return item;
  });
}
