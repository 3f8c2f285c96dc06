/**
 * The test app of the content manager's model tests: shared/strapi4-peer's model (fixtures/peer-app: article,
 * category, homepage, note, the localized page, tag, writer, the seo component) with the plugins the peer runs,
 * and the peer's seed as far as the uid answers read it (20 articles "Article N", slugs article-N).
 */
import path from 'node:path';
import { startApp, type DatabaseHandle, type TestApp, type TestDialect } from '@tessera/testing';

export const PEER_APP = path.join(__dirname, 'fixtures', 'peer-app');
export const PEER_PACKAGE = {
  name: 'cm-layouts-peer',
  version: '0.1.0',
  dependencies: { '@strapi/strapi': '4.26.2', '@strapi/admin': '4.26.2', '@strapi/plugin-users-permissions': '4.26.2', '@strapi/plugin-i18n': '4.26.2' },
};
export const ADMIN = { email: 'cm@example.com', password: 'Secret123', firstname: 'Cm', lastname: 'Admin' };
export const CONFIG = { admin: { auth: { secret: 'cm-layouts-secret' } } };

export interface PeerAppOptions {
  sqliteFile?: string;
  /** A previous app's database (a restart). */
  database?: DatabaseHandle;
  files?: Record<string, string | object>;
}

export async function startPeerApp(dialect: TestDialect, options: PeerAppOptions = {}): Promise<TestApp> {
  return startApp({ dialect, from: PEER_APP, files: { 'package.json': PEER_PACKAGE, ...(options.files ?? {}) }, config: CONFIG, sqliteFile: options.sqliteFile, database: options.database });
}

/** The first admin (a super admin), registered as the panel does; its session token. */
export async function registerAdmin(app: TestApp): Promise<string> {
  const response = await app.post('/admin/register-admin', ADMIN);
  if (response.status !== 200) throw new Error(`register-admin answered ${response.status}: ${response.text}`);
  return String(response.body.data.token);
}

/** The peer's articles as far as uid fields read them. */
export async function seedArticles(app: TestApp, count = 20): Promise<void> {
  const data = Array.from({ length: count }, (_, index) => ({ title: `Article ${index + 1}`, slug: `article-${index + 1}` }));
  await app.app.db.query('api::article.article').createMany({ data });
}
