/**
 * What a browser test's page saw, told when a test fails. A step that waits for the panel to show something and
 * times out says only which selector it waited for; whether the panel was still loading, showed an error, sat on
 * another page or lost its server is in what the page asked and answered. A journal records the answers of 400 and
 * above, the requests that got no answer, and the page's errors and console errors.
 *
 * openBrowser (browser.ts) keeps the journal of each page it opens under a global symbol while its browser is open;
 * the test runner's root hook (scripts/mocha-isolation.js) prints every open page's description after a failed
 * test, so a failure on a busy CI machine can be read from the log alone, in every browser test.
 */
import type { Browser, Page } from 'playwright-core';

const KEPT = 40;
const TEXT_SHOWN = 1500;
/** Where the open pages' journals are kept (a Set<BrowserJournal>); mocha-isolation.js reads it by the same key. */
const OPEN_JOURNALS = Symbol.for('tessera.test.browserJournals');

interface BrowserJournal {
  /** The page's address and the start of its text, then what the journal recorded. */
  describe(): Promise<string>;
}

/** Starts the journal of `page`, kept among the open pages' until `browser` closes. */
export function keepJournal(page: Page, browser: Browser): void {
  const entries: string[] = [];
  const note = (line: string) => {
    entries.push(line);
    if (entries.length > KEPT) entries.shift();
  };
  page.on('response', (response) => {
    if (response.status() >= 400) note(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  page.on('requestfailed', (request) => note(`no answer: ${request.method()} ${new URL(request.url()).pathname} (${request.failure()?.errorText ?? 'failed'})`));
  page.on('pageerror', (error) => note(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') note(`console error: ${message.text().slice(0, 300)}`);
  });

  const journal: BrowserJournal = {
    async describe() {
      const text = await page
        .locator('body')
        .innerText({ timeout: 5_000 })
        .catch((error: Error) => `(unreadable: ${error.message.split('\n')[0]})`);
      return [
        `page: ${page.url()}`,
        `text: ${text.replace(/\s+/g, ' ').slice(0, TEXT_SHOWN)}`,
        `seen (last ${KEPT}):`,
        ...(entries.length > 0 ? entries.map((entry) => `  ${entry}`) : ['  no answer above 399, no failed request, no page error']),
      ].join('\n');
    },
  };
  const holder = globalThis as { [OPEN_JOURNALS]?: Set<BrowserJournal> };
  const open = (holder[OPEN_JOURNALS] ??= new Set());
  open.add(journal);
  browser.once('disconnected', () => open.delete(journal));
}
