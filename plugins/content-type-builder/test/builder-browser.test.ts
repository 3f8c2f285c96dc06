/**
 * The content-type builder in Strapi 4.26.2's real panel (Chromium, the tests' cached panel build), on an app run
 * by `tessera develop`: the first admin signs in, opens the builder, creates a collection type with two fields and
 * a relation through its forms and saves; the panel waits for the restart (polling `/_health`), comes back, and
 * lists the new type; the schema file is the one Strapi 4.26.2 writes for the body the panel sent (replayed on the
 * peer: recorded/panel-book) and the type's REST route exists. Then the type's edit form makes it a single type,
 * a field is added to a component from the page of a type that uses it, and one to the users-permissions User. Without Chromium or
 * @strapi/admin the test says why and skips.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { EXAMPLE_APP, openBrowser, panelHome } from '@tessera/testing';
import { CliProcess, count, request, tempApp, type TempApp } from '../../../packages/cli/test/helpers';
import { EXAMPLE_PACKAGE, panelInto, ROOT_NODE_MODULES, skipUnlessPanelRuns } from '../../admin/test/panel-build';
import { recorded, recordedJson } from './builder-fixture';

const ADMIN = { email: 'builder@example.com', password: 'Secret123', firstname: 'Bea', lastname: 'Builder' };
const WAIT = { timeout: 90_000 };

describe('content-type builder in Chromium under tessera develop [sqlite]', function () {
  let app: TempApp;
  let cli: CliProcess | undefined;
  let browser: Browser | undefined;
  let page: Page;
  const healthPolls: number[] = [];
  const posted: unknown[] = [];

  before(async function () {
    this.timeout(15 * 60_000);
    skipUnlessPanelRuns(this);
    app = await tempApp('sqlite', EXAMPLE_APP);
    app.write('package.json', EXAMPLE_PACKAGE);
    fs.symlinkSync(ROOT_NODE_MODULES, path.join(app.dir, 'node_modules'), 'dir');
    await panelInto(app.dir, () => undefined);
    cli = new CliProcess(['develop'], { cwd: app.dir, env: { ...app.env, ADMIN_JWT_SECRET: 'ctb-write-browser-secret' } });
    await cli.waitForOutput((output) => count(output, 'ready at') === 1);
    await request(`${app.url}/admin/register-admin`, 'POST', ADMIN);
    const session = await openBrowser(app.url, { blocked: [], pageErrors: [] });
    browser = session.browser;
    page = session.page;
    // Strapi's guided tour, opened over the builder on a first visit when the panel decides to, marked skipped as the
    // panel's own Skip button marks it (localStorage GUIDED_TOUR_SKIPPED): the journey is the builder's, not the tour's.
    await page.addInitScript("window.localStorage.setItem('GUIDED_TOUR_SKIPPED', 'true')");
    page.on('request', (sent) => {
      if (sent.method() === 'POST' && new URL(sent.url()).pathname === '/content-type-builder/content-types') posted.push(sent.postDataJSON());
    });
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/_health') healthPolls.push(response.status());
    });
  });
  /** On the builder's page of `uid`, a Text field `name` added from the button `adder`, then saved; the PUT bodies go to `sent`. */
  async function addTextField(uid: string, adder: string, name: string, sent: unknown[]): Promise<void> {
    page.on('request', (request) => {
      if (request.method() === 'PUT' && new URL(request.url()).pathname === `/content-type-builder/content-types/${uid}`) sent.push(request.postDataJSON());
    });
    await page.goto(`${app.url}/admin/plugins/content-type-builder/content-types/${uid}`);
    await page.click(`button:has-text("${adder}")`, WAIT);
    await page.click('[role="dialog"] button:has-text("Text")', WAIT);
    await page.fill('[role="dialog"] input[name="name"]', name);
    await page.click('[role="dialog"] button:has-text("Finish")');
    await page.click('button:has-text("Save")', WAIT);
  }
  afterEach(function () {
    // What the page saw is printed by the runner's root hook (@tessera/testing's browser journal); the server's side:
    if (this.currentTest?.state === 'failed' && cli) console.log(`tessera develop printed:\n${cli.output.slice(-3000)}`);
  });
  after(async () => {
    await browser?.close();
    if (cli?.running) await cli.stop('SIGKILL');
    await app?.remove();
  });

  it('creates a collection type with two fields and a relation from the builder; the panel waits for the restart and lists it', async function () {
    this.timeout(10 * 60_000);
    await page.goto(`${app.url}/admin/auth/login`);
    await page.fill('input[name="email"]', ADMIN.email);
    await page.fill('input[name="password"]', ADMIN.password);
    await page.click('button[type="submit"]');
    await panelHome(page);
    await page.goto(`${app.url}/admin/plugins/content-type-builder`);
    await page.click('text=Create new collection type', WAIT);
    await page.fill('[role="dialog"] input[name="displayName"]', 'Book');
    await page.click('[role="dialog"] button:has-text("Continue")');
    // Text "title", then Boolean "inStock", then a relation with the form's defaults.
    await page.click('[role="dialog"] button:has-text("Text")', WAIT);
    await page.fill('[role="dialog"] input[name="name"]', 'title');
    await page.click('[role="dialog"] button:has-text("Add another field")');
    await page.click('[role="dialog"] button:has-text("Boolean")', WAIT);
    await page.fill('[role="dialog"] input[name="name"]', 'inStock');
    await page.click('[role="dialog"] button:has-text("Add another field")');
    await page.click('[role="dialog"] button:has-text("Relation")', WAIT);
    await page.click('[role="dialog"] button:has-text("Finish")', WAIT);
    await page.click('button:has-text("Save")', WAIT);
    // The panel's "waiting for restart", then the builder again once /_health answers.
    await cli!.waitForOutput((output) => count(output, 'ready at') === 2);
    await page.waitForSelector('a:has-text("Book")', WAIT);
    expect(healthPolls).to.include(204);
    expect(count(cli!.stdout, 'restarting')).to.equal(1);

    // What the panel sent, replayed on Strapi 4.26.2 (recorded/panel-book): the same bytes on disk.
    expect(posted).to.deep.equal([recordedJson('panel-book/request.json')]);
    expect(fs.readFileSync(path.join(app.dir, 'src/api/book/content-types/book/schema.json'), 'utf8')).to.equal(recorded('panel-book/schema.json'));
    expect((await request(`${app.url}/api/books`, 'GET')).status).to.equal(403);
  });

  it("makes the type a single type from its edit form's Type choice: the schema Strapi writes for what the panel sent, listed among single types", async function () {
    this.timeout(10 * 60_000);
    const schemaFile = path.join(app.dir, 'src/api/book/content-types/book/schema.json');
    const sent: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && new URL(request.url()).pathname === '/content-type-builder/content-types/api::book.book') sent.push(request.postDataJSON());
    });
    await page.goto(`${app.url}/admin/plugins/content-type-builder/content-types/api::book.book`);
    await page.click('button:has-text("Edit")', WAIT);
    await page.click('[role="dialog"] label:has-text("Single Type")', WAIT);
    // A kind change is saved by the form's Finish itself (the panel sends the type at once and waits for the restart).
    await page.click('[role="dialog"] button:has-text("Finish")');
    await cli!.waitForOutput((output) => count(output, 'ready at') === 3);
    // The builder's menu after the restart: Book among the single types (read from Node: the panel's CSP refuses eval).
    const deadline = Date.now() + WAIT.timeout;
    let menu = '';
    while (!/SINGLE TYPES\s+2\s+Book\s+Homepage/i.test(menu) && Date.now() < deadline) {
      await page.waitForTimeout(250);
      menu = await page.locator('body').innerText().catch(() => '');
    }
    expect(menu).to.match(/COLLECTION TYPES\s+7\s+Article/i);
    expect(menu).to.match(/SINGLE TYPES\s+2\s+Book\s+Homepage/i);
    // What the panel sent, replayed on Strapi 4.26.2 after the book's creation (recorded/panel-book): the same bytes.
    expect(sent).to.deep.equal([recordedJson('panel-book/to-single.request.json')]);
    expect(fs.readFileSync(schemaFile, 'utf8')).to.equal(recorded('panel-book/to-single.schema.json'));
    expect((await request(`${app.url}/api/book`, 'GET')).status).to.equal(403);
  });

  it("adds a field to a component from the page of a type that uses it: the type's save carries the component's edit", async function () {
    this.timeout(10 * 60_000);
    const seoFile = path.join(app.dir, 'src/components/shared/seo.json');
    const before = JSON.parse(fs.readFileSync(seoFile, 'utf8')) as { attributes: Record<string, unknown> };
    const sent: Array<{ components?: Array<{ uid?: string }> }> = [];
    await addTextField('api::article.article', 'Add another field to this component', 'canonical', sent);
    await cli!.waitForOutput((output) => count(output, 'ready at') === 4);
    expect(sent).to.have.length(1);
    expect(sent[0]!.components?.map((component) => component.uid)).to.deep.equal(['shared.seo']);
    const after = JSON.parse(fs.readFileSync(seoFile, 'utf8')) as { attributes: Record<string, unknown> };
    expect(after.attributes).to.deep.equal({ ...before.attributes, canonical: { type: 'string' } });
    await page.waitForSelector('text=canonical', WAIT);
  });

  it("adds a field to the users-permissions User: Strapi's extension file for what the panel sent, and the field after the restart", async function () {
    this.timeout(10 * 60_000);
    const sent: unknown[] = [];
    await addTextField('plugin::users-permissions.user', 'Add another field', 'phone', sent);
    await cli!.waitForOutput((output) => count(output, 'ready at') === 5);
    // The body the panel sent, replayed on Strapi 4.26.2 (recorded/plugin-user): the same extension file.
    expect(sent).to.deep.equal([recordedJson('plugin-user/panel-user-phone.request.json')]);
    expect(fs.readFileSync(path.join(app.dir, 'src/extensions/users-permissions/content-types/user/schema.json'), 'utf8')).to.equal(recorded('plugin-user/panel-user-phone.schema.json'));
    await page.waitForSelector('text=phone', WAIT);
  });
});
