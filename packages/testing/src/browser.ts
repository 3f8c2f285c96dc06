/**
 * Debian's Chromium through playwright-core, for the tests that drive a real page (Strapi's admin panel, the GraphQL
 * explorer): where Chromium is, whether a browser test can run here, and a page confined to the app's origin. One
 * module, so every browser test launches and fences the browser alike.
 */
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM = process.env.TESSERA_CHROMIUM ?? '/usr/bin/chromium';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'];

/** Why a browser test cannot run here (no Chromium), or undefined. */
export function chromiumMissing(): string | undefined {
  return fs.existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing (apt-get install -y chromium)`;
}

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * Chromium on the app at `origin`. Every request off that origin is refused as if offline and its URL pushed to
 * `blocked` (the panel checks GitHub for updates: nothing may leave the machine, and a test can say nothing tried);
 * every error the page throws is pushed to `pageErrors`.
 */
export async function openBrowser(origin: string, watch: { blocked: string[]; pageErrors: string[] }, contextOptions: BrowserContextOptions = {}): Promise<BrowserSession> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const context = await browser.newContext(contextOptions);
  await context.route('**/*', (route) => {
    if (route.request().url().startsWith(origin)) return route.continue();
    watch.blocked.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => watch.pageErrors.push(error.message));
  return { browser, context, page };
}
