/**
 * Settings → Roles in Chromium (Strapi 4.26.2's real panel, served by Tessera from the example app, every other host
 * cut off): a role made in the panel, with only Read on Article, decides what its holder's panel shows and what the
 * API lets it do; a permission added to the role later reaches the holder at its next sign-in; the holder, deactivated
 * from the Users page, can no longer sign in.
 */
import { expect } from 'chai';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { openBrowser, type TestApp, filledValue } from '@tessera/testing';
import { signInToPanel, skipUnlessPanelRuns, startPanelApp } from './panel-build';

const ADMIN = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: 'Secret123' };
const REVIEWER_NAMES = { firstname: 'Rita', lastname: 'Reviewer' };
const REVIEWER = { email: 'rita@example.com', password: 'Review123' };
const WAIT = { timeout: 60_000 };

describe('admin panel in Chromium: Settings → Roles [sqlite]', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let jwt: string;
  const blocked: string[] = [];
  const pageErrors: string[] = [];

  before(async function () {
    this.timeout(15 * 60_000);
    skipUnlessPanelRuns(this);
    app = await startPanelApp();
    ({ browser, context, page } = await openBrowser(app.url, { blocked, pageErrors }));
    const registered = await app.post('/admin/register-admin', ADMIN);
    expect(registered.status).to.equal(200);
    jwt = registered.body.data.token;
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  const signIn = (user: { email: string; password: string }) => signInToPanel(page, app.url, user);
  const signOut = async (name: string) => {
    await page.click(`nav button:has-text("${name}")`);
    await page.getByText('Logout', { exact: true }).click();
    await page.waitForSelector('input[name="email"]', WAIT);
  };
  /** The role's permissions as stored: action → subject → fields. */
  const storedPermissions = async (roleId: number) => {
    const answer = await app.get(`/admin/roles/${roleId}/permissions`, { token: jwt });
    expect(answer.status).to.equal(200);
    return (answer.body.data as Array<{ action: string; subject: string | null; properties: { fields?: string[] } }>)
      .map(({ action, subject, properties }) => ({ action, subject, fields: properties.fields }))
      .sort((a, b) => a.action.localeCompare(b.action));
  };
  let roleId = 0;
  /** The holder's session from an API sign-in. */
  let reviewer: { token: string; user: { id: number } };

  it('makes a role with Read on Article from the Roles page; the role and its permission are stored', async function () {
    this.timeout(120_000);
    await signIn(ADMIN);
    await page.goto(`${app.url}/admin/settings/roles`);
    await page.getByRole('button', { name: 'Add new role' }).first().click();
    await page.waitForSelector('input[name="name"]', WAIT);
    await page.fill('input[name="name"]', 'Reviewer');
    await page.getByRole('textbox', { name: 'Description' }).fill('Reads the articles');
    await page.getByRole('checkbox', { name: 'Select Read article permission' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/admin\/settings\/roles\/\d+$/, WAIT);
    roleId = Number(/(\d+)$/.exec(new URL(page.url()).pathname)![1]);
    const roles = (await app.get('/admin/roles', { token: jwt })).body.data as Array<{ id: number; name: string; description: string; code: string }>;
    const made = roles.find((role) => role.id === roleId)!;
    expect([made.name, made.description]).to.deep.equal(['Reviewer', 'Reads the articles']);
    expect(made.code).to.match(/^reviewer-/);
    const permissions = await storedPermissions(roleId);
    expect(permissions.map(({ action, subject }) => `${action} ${subject}`)).to.deep.equal(['plugin::content-manager.explorer.read api::article.article']);
    // Read given at the type's level covers each of its fields.
    const attributes = app.app.contentTypes.get('api::article.article')!.attributes;
    expect(permissions[0].fields).to.include.members(['title', 'slug']);
    for (const field of permissions[0].fields!) expect(attributes).to.have.property(field.split('.')[0]);
  });

  it("its holder sees Article alone in the content manager, with no Create, and the API refuses the holder's create", async function () {
    this.timeout(120_000);
    const made = await app.post('/admin/users', { ...REVIEWER_NAMES, email: REVIEWER.email, roles: [roleId] }, { token: jwt });
    expect(made.status).to.equal(201);
    const registered = await app.post('/admin/register', { registrationToken: made.body.data.registrationToken, userInfo: { ...REVIEWER_NAMES, password: REVIEWER.password } });
    expect(registered.status).to.equal(200);
    await app.post('/api/articles', { data: { title: 'Seen by the reviewer' } }, { token: await app.fullAccessToken() });
    await signOut('Ada Lovelace');
    await signIn(REVIEWER);
    await page.goto(`${app.url}/admin/content-manager`);
    await page.waitForURL(/\/collection-types\/api::article\.article/, WAIT);
    await page.waitForSelector('text=Seen by the reviewer', WAIT);
    const types = (await page.getByRole('navigation', { name: 'Content' }).getByRole('link').allTextContents()).map((text) => text.trim());
    expect(types).to.deep.equal(['Article']);
    expect(await page.getByRole('link', { name: 'Create new entry' }).count()).to.equal(0);
    reviewer = (await app.post('/admin/login', REVIEWER)).body.data;
    const refused = await app.post('/content-manager/collection-types/api::article.article', { title: 'Not allowed' }, { token: reviewer.token });
    expect(refused.status).to.equal(403);
  });

  it('Create added to the role in the panel shows its holder the Create button at the next sign-in, and the create succeeds', async function () {
    this.timeout(120_000);
    await signOut(`${REVIEWER_NAMES.firstname} ${REVIEWER_NAMES.lastname}`);
    await signIn(ADMIN);
    await page.goto(`${app.url}/admin/settings/roles/${roleId}`);
    // The form is reset once the role's permissions arrive: a box ticked before that would be lost, so Read shown
    // ticked is the sign that the form holds the stored role.
    await page.getByRole('checkbox', { name: 'Select Read article permission', checked: true }).waitFor(WAIT);
    await page.getByRole('checkbox', { name: 'Select Create article permission' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('text=Saved', WAIT);
    const permissions = await storedPermissions(roleId);
    expect(permissions.map(({ action, subject }) => `${action} ${subject}`)).to.deep.equal([
      'plugin::content-manager.explorer.create api::article.article',
      'plugin::content-manager.explorer.read api::article.article',
    ]);
    await signOut('Ada Lovelace');
    await signIn(REVIEWER);
    await page.goto(`${app.url}/admin/content-manager/collection-types/api::article.article`);
    await page.waitForSelector('text=Seen by the reviewer', WAIT);
    await page.getByRole('link', { name: 'Create new entry' }).first().click();
    await page.waitForSelector('input[name="title"]', WAIT);
    await page.fill('input[name="title"]', 'Written by the reviewer');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/collection-types\/api::article\.article\/\d+$/, WAIT);
    // The entry is stored with its creator, the reviewer, as the content manager answers it.
    const id = /(\d+)$/.exec(new URL(page.url()).pathname)![1];
    const entry = await app.get(`/content-manager/collection-types/api::article.article/${id}`, { token: jwt });
    expect([entry.body.title, entry.body.createdBy]).to.deep.equal(['Written by the reviewer', { id: reviewer.user.id, ...REVIEWER_NAMES, username: null }]);
  });

  it("the Super Admin deactivates the holder from the Users page: the holder's sign-in is refused, its session too", async function () {
    this.timeout(120_000);
    // Each sign-in counts against /admin/login's limit of 5 per email in 5 minutes, as on Strapi: the session of the
    // earlier API sign-in serves here.
    await signOut(`${REVIEWER_NAMES.firstname} ${REVIEWER_NAMES.lastname}`);
    await signIn(ADMIN);
    await page.goto(`${app.url}/admin/settings/users/${reviewer.user.id}`);
    await filledValue(page, 'input[name="email"]');
    await page.getByRole('checkbox', { name: 'Active', exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('text=Saved', WAIT);
    const users = (await app.get('/admin/users', { token: jwt })).body.data.results as Array<{ email: string; isActive: boolean }>;
    expect(users.map(({ email, isActive }) => `${email} ${isActive}`).sort()).to.deep.equal([`${ADMIN.email} true`, `${REVIEWER.email} false`]);
    const refused = await app.post('/admin/login', REVIEWER);
    expect([refused.status, refused.body.error.message]).to.deep.equal([400, 'User not active']);
    expect((await app.get('/admin/users/me', { token: reviewer.token })).status).to.equal(401);
  });

  it('ran without a page error and asked nothing of another host', () => {
    expect(pageErrors).to.deep.equal([]);
    expect(blocked).to.deep.equal([]);
  });
});
