/**
 * Debian's Chromium through playwright-core, for the tests that drive a real page (Strapi's admin panel, the GraphQL
 * explorer): where Chromium is, whether a browser test can run here, and a page confined to the app's origin. One
 * module, so every browser test launches and fences the browser alike.
 */
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { keepJournal } from './browser-journal';

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

/** What a test collects from its page: requests off the origin (refused), page errors, and, when given, answers of 400 and above. */
export interface BrowserWatch {
  blocked: string[];
  pageErrors: string[];
  /** `METHOD /path?query status` of each answer of 400 or more. */
  failed?: string[];
}

/**
 * Chromium on the app at `origin`. Every request off that origin is refused as if offline and its URL pushed to
 * `blocked`, as is each one the page's Content-Security-Policy refused (nothing may leave the machine, and a test can
 * say nothing tried);
 * every error the page throws is pushed to `pageErrors`, and each failed answer to `failed` when the test asks. A
 * failed test prints what the page saw (browser-journal.ts).
 */
export async function openBrowser(origin: string, watch: BrowserWatch, contextOptions: BrowserContextOptions = {}): Promise<BrowserSession> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  // Reduced motion, as a user may ask of their system: Strapi's panel then skips its transitions and spinners'
  // animation, which headless Chromium would otherwise paint frame by frame (about a tenth of a journey's CPU).
  const context = await browser.newContext({ reducedMotion: 'reduce', ...contextOptions });
  await context.route('**/*', (route) => {
    if (route.request().url().startsWith(origin)) return route.continue();
    watch.blocked.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => watch.pageErrors.push(error.message));
  // A request the app's Content-Security-Policy refuses never reaches the route above: Chromium only says so on the
  // console. It was still an attempt to leave the machine (the panel's release check was one), so it counts.
  page.on('console', (message) => {
    const text = message.text();
    const url = text.includes('Content Security Policy') ? /https?:\/\/[^'"\s]+[^'"\s.]/.exec(text)?.[0] : undefined;
    if (url && !url.startsWith(origin) && !watch.blocked.includes(url)) watch.blocked.push(url);
  });
  const { failed } = watch;
  if (failed) {
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.request().method()} ${response.url().replace(origin, '')} ${response.status()}`);
    });
  }
  keepJournal(page, browser);
  return { browser, context, page };
}

/**
 * Waits for Strapi's panel to show its home page after a sign-in or a registration. The sign-in page's own heading
 * says "Welcome to Strapi!", so a wait for the home page's "Welcome" heading alone passed at once, before the
 * sign-in had answered; the next `goto` then cut the sign-in short and the panel sent the page back to the sign-in.
 * Off the auth pages first, then the heading.
 */
export async function panelHome(page: Page, timeout = 90_000): Promise<void> {
  await page.waitForURL((url) => !url.pathname.startsWith('/admin/auth/'), { timeout });
  await page.waitForSelector('h1:has-text("Welcome")', { timeout });
}

/**
 * The value of the input at `selector` once the panel has filled it, or '' after `timeout`. Strapi's forms render
 * before the data they show has answered (the invitation's registration-info, an entry to clone) and fill in on the
 * answer, so reading the value as soon as the input shows raced that answer under load. Polled from Node: the panel's
 * CSP (no 'unsafe-eval') refuses page.waitForFunction's predicate.
 */
export async function filledValue(page: Page, selector: string, timeout = 30_000): Promise<string> {
  const input = page.locator(selector);
  const deadline = Date.now() + timeout;
  let value = await input.inputValue({ timeout });
  while (value === '' && Date.now() < deadline) {
    await page.waitForTimeout(50);
    value = await input.inputValue({ timeout });
  }
  return value;
}
