/**
 * The admin panel's build for the tests: made once per set of versions (the
 * build's own stamp keys the cache in the system's temp folder) and copied
 * into each test app, so a test run builds it at most once (~30 s of CPU)
 * whichever test asks first. A lock folder makes concurrent test workers wait
 * for the one building. The build needs the repository's npm install to have
 * brought `@strapi/admin` (apps/example depends on it): without it the tests
 * skip, saying so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, Response } from 'playwright-core';
import { chromiumMissing, EXAMPLE_APP, panelHome, REPO_ROOT, startApp, type TestApp, type TestAppOptions } from '@tessera/testing';
import { adminPanelSettings, buildPanel, hasAdminPackage } from '@tessera/plugin-admin';

/** Outside a test run's own TMPDIR (scripts/test.js sets this): the run removes that folder, and the cache must outlive it. */
export const PANEL_CACHE = process.env.TESSERA_ADMIN_PANEL_CACHE ?? path.join(os.tmpdir(), 'tessera-admin-panel-cache');
export const ROOT_NODE_MODULES = path.join(REPO_ROOT, 'node_modules');
/** The example app's package.json: @strapi/admin, its peers and the plugins whose admin sides it has. */
export const EXAMPLE_PACKAGE = JSON.parse(fs.readFileSync(path.join(EXAMPLE_APP, 'package.json'), 'utf8')) as Record<string, unknown>;

/** Why the panel cannot be built here, or undefined when it can. */
export function panelUnavailable(): string | undefined {
  if (!hasAdminPackage(EXAMPLE_APP)) return '@strapi/admin is not installed (npm install at the repository root brings it from the npm registry, which was unreachable)';
  return undefined;
}

const LOCK = `${PANEL_CACHE}.lock`;
const LOCK_WAIT_MS = 10 * 60_000;

async function withLock<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock older than the longest build was left by a killed run.
      const age = Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_WAIT_MS) fs.rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited ${LOCK_WAIT_MS / 1000} s for ${LOCK}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Puts the panel's build into `appDir/build` (from the cache when it holds this build); returns the outcome. `pluginConfig`: the app's config/plugins. */
export async function panelInto(
  appDir: string,
  log: (line: string) => void = (line) => console.log(`      ${line}`),
  pluginConfig: Record<string, unknown> = {},
): Promise<'built' | 'copied' | 'fresh'> {
  const settings = adminPanelSettings(appDir, () => undefined);
  return withLock(async () => (await buildPanel({ appDir, settings, pluginConfig, log, cacheDir: PANEL_CACHE })).outcome);
}

/**
 * Skips a panel test, saying why, where @strapi/admin or Chromium is missing; under CI a missing Chromium fails it
 * instead (`.ci/run` installs it), so a browser suite never goes quiet there.
 */
export function skipUnlessPanelRuns(test: Mocha.Context): void {
  const reason = panelUnavailable() ?? chromiumMissing();
  if (reason === undefined) return;
  if (process.env.CI === 'true' && chromiumMissing() !== undefined) throw new Error(reason);
  console.log(`      skipped: ${reason}`);
  test.skip();
}

/** The example app on SQLite with the built panel in it (`options` as startApp's, over these defaults). */
export async function startPanelApp(options: Partial<TestAppOptions> = {}): Promise<TestApp> {
  const app = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP, files: { 'package.json': EXAMPLE_PACKAGE }, nodeModules: ROOT_NODE_MODULES, ...options });
  await panelInto(app.dir);
  return app;
}

/** What the example app's config/plugins.ts reads to mail through SMTP (it logs mails without SMTP_HOST). */
const MAIL_ENV = ['SMTP_HOST', 'SMTP_PORT', 'EMAIL_FROM'] as const;

/**
 * `startPanelApp()` with the app's mail going to the SMTP server listening on `smtpPort`. The variables are read at
 * boot and put back as they were once the app is up, so the next test file of the worker starts from its own.
 */
export async function startMailingPanelApp(smtpPort: number): Promise<TestApp> {
  const saved = MAIL_ENV.map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtpPort), EMAIL_FROM: 'Blog <no-reply@blog.test>' });
  try {
    return await startPanelApp();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** Signs in from the panel's login page and waits for its home page. */
export async function signInToPanel(page: Page, origin: string, user: { email: string; password: string }): Promise<void> {
  await page.goto(`${origin}/admin/auth/login`);
  await page.waitForSelector('input[name="email"]', { timeout: 60_000 });
  await page.fill('input[name="email"]', user.email);
  await page.fill('input[name="password"]', user.password);
  await page.click('button[type="submit"]');
  await panelHome(page);
}

/**
 * Clicks the content manager's Save on the edit view of collection type `uid`, then waits for the write's answer and
 * the panel's "Saved". The answer is returned for the test to check (its status first).
 */
export async function saveEntry(page: Page, uid: string, timeout = 60_000): Promise<Response> {
  const written = page.waitForResponse((response) => ['POST', 'PUT'].includes(response.request().method()) && new URL(response.url()).pathname.startsWith(`/content-manager/collection-types/${uid}`), { timeout });
  await page.getByRole('button', { name: 'Save' }).click();
  const response = await written;
  if (response.status() === 200) await page.waitForSelector('text=Saved', { timeout });
  return response;
}

