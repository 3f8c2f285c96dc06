/**
 * The explorer in a real browser: Debian's Chromium, driven by
 * playwright-core, loads GraphiQL from Tessera with every other host cut
 * off, runs a query and shows the result. Chromium comes from the project's
 * setup (.ci/run installs it when missing); without it the test fails under
 * CI and is skipped elsewhere.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';
import { EXAMPLE_APP, startApp, type TestApp } from '@tessera/testing';
import { create } from './helpers';

const CHROMIUM = process.env.TESSERA_CHROMIUM ?? '/usr/bin/chromium';

describe('GraphQL explorer in Chromium, offline [sqlite]', () => {
  let app: TestApp;
  let browser: Browser;
  before(async function () {
    if (!fs.existsSync(CHROMIUM)) {
      if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: .ci/run installs it (apt-get install -y chromium)`);
      this.skip();
    }
    app = await startApp({ dialect: 'sqlite', from: EXAMPLE_APP });
    const token = await app.fullAccessToken();
    for (const name of ['offline-1', 'offline-2']) await create(app, token, 'tags', { name });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking', '--disable-dev-shm-usage'] });
  });
  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('loads GraphiQL from Tessera alone, runs a query and shows the result', async function () {
    const context = await browser.newContext();
    const blocked: string[] = [];
    // The network is cut off: only the app itself answers.
    await context.route('**/*', (route) => {
      if (route.request().url().startsWith(app.url)) return route.continue();
      blocked.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${app.url}/graphql`);
    await page.waitForSelector('.graphiql-query-editor .CodeMirror', { timeout: 30000 });
    // Browser-side code as plain strings: the test file's transpiler would add helpers the page lacks.
    await page.evaluate(`document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue('{ tags(sort: "name:asc") { data { attributes { name } } } }')`);
    await page.click('.graphiql-execute-button');
    // Polled from Node with page.evaluate rather than page.waitForFunction: the
    // latter evals its predicate inside the page, which the explorer's CSP
    // (no 'unsafe-eval') rightly refuses on newer Chromium builds.
    const result = await pollPage(page, `(() => {
      const response = document.querySelector('.graphiql-response .CodeMirror');
      const text = response && response.CodeMirror ? response.CodeMirror.getValue() : '';
      return text.includes('offline-2') ? text : '';
    })()`, 30000);
    expect(JSON.parse(result)).to.deep.equal({ data: { tags: { data: [{ attributes: { name: 'offline-1' } }, { attributes: { name: 'offline-2' } }] } } });
    expect(pageErrors).to.deep.equal([]);
    // Nothing outside the app was asked for.
    expect(blocked).to.deep.equal([]);
    await context.close();
  });
});

/** Evaluates `expression` in the page until it yields a non-empty string. */
async function pollPage(page: Page, expression: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = String((await page.evaluate(expression)) ?? '');
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
