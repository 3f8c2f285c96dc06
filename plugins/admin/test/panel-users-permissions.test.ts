/**
 * Settings → Users & Permissions in Strapi 4.26.2's real panel (Chromium, the cached build), served by Tessera from
 * the example app, every other host cut off: the Public role is granted `create` on Tag and saved → an anonymous
 * REST create succeeds; revoked and saved → 403. Then Email templates: the reset-password message edited → the next
 * forgot-password mail (to a real SMTP server, the example app's SMTP settings) is made from it. Then Advanced
 * settings: "Enable sign-ups" off and saved → `POST /api/auth/local/register` is refused. Then an end user made in the
 * content manager, its role chosen in the picker, signs in with its password. Each effect is checked
 * through the content API and the mail, not the panel.
 */
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openBrowser, TestSmtp, type TestApp } from '@tessera/testing';
import { signInToPanel, skipUnlessPanelRuns, startMailingPanelApp } from './panel-build';

const ADA = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: 'Secret123' };
const WAIT = { timeout: 60_000 };
const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };

describe('admin panel in Chromium: Settings → Users & Permissions [sqlite]', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const blocked: string[] = [];
  const pageErrors: string[] = [];
  const apiCalls: string[] = [];
  const smtp = new TestSmtp();

  before(async function () {
    this.timeout(15 * 60_000);
    skipUnlessPanelRuns(this);
    await smtp.start();
    app = await startMailingPanelApp(smtp.port);
    const registered = await app.post('/admin/register-admin', ADA);
    if (registered.status !== 200) throw new Error(`register-admin: ${registered.text}`);
    ({ browser, context, page } = await openBrowser(app.url, { blocked, pageErrors }));
    page.on('request', (sent) => {
      const type = sent.resourceType();
      if (sent.url().startsWith(app.url) && (type === 'xhr' || type === 'fetch')) apiCalls.push(`${sent.method()} ${new URL(sent.url()).pathname}`);
    });
    await signInToPanel(page, app.url, ADA);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    await smtp.stop();
  });

  const createTag = (name: string) => app.post('/api/tags', { data: { name } });

  /** Opens the Public role, toggles Tag's `create`, saves, and waits for the panel's confirmation. */
  async function setPublicTagCreate(checked: boolean): Promise<void> {
    await page.goto(`${app.url}/admin/settings/users-permissions/roles`);
    await page.getByRole('gridcell', { name: 'Public', exact: true }).click();
    await page.waitForSelector('h1:has-text("Public")', WAIT);
    await page.getByRole('button', { name: /^Tag/ }).click();
    const box = page.getByRole('checkbox', { name: 'create', exact: true });
    await box.waitFor(WAIT);
    if ((await box.isChecked()) !== checked) await box.click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('text=Role edited', WAIT);
  }

  it('grants the Public role create on Tag: an anonymous REST create succeeds', async function () {
    this.timeout(120_000);
    expect((await createTag('before')).body).to.deep.equal(FORBIDDEN);
    await setPublicTagCreate(true);
    const created = await createTag('from anyone');
    expect(created.status).to.equal(200);
    expect(created.body.data.attributes.name).to.equal('from anyone');
  });

  it('revokes it: an anonymous REST create is 403 again', async function () {
    this.timeout(120_000);
    await setPublicTagCreate(false);
    expect((await createTag('refused')).body).to.deep.equal(FORBIDDEN);
  });

  it('edits the reset-password template: the next forgot-password mail is made from it', async function () {
    this.timeout(120_000);
    const user = await app.post('/api/auth/local/register', { username: 'reader', email: 'reader@example.com', password: 'Passw0rd!' });
    expect(user.status).to.equal(200);
    await page.goto(`${app.url}/admin/settings/users-permissions/email-templates`);
    await page.getByRole('gridcell', { name: 'Reset password', exact: true }).first().click();
    const message = page.locator('textarea[id="options.message"]');
    await message.waitFor(WAIT);
    await page.fill('input[name="options.object"]', 'Your Blog reset link, <%= USER.username %>');
    await message.fill('<p>Hi <%= USER.username %>, reset it at <%= URL %>?code=<%= TOKEN %></p>');
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.waitForSelector('text=Saved', WAIT);
    const before = smtp.mails.length;
    expect((await app.post('/api/auth/forgot-password', { email: 'reader@example.com' })).body).to.deep.equal({ ok: true });
    const mail = await smtp.next('reader@example.com', before);
    expect(mail.raw).to.match(/^Subject: Your Blog reset link, reader/m);
    expect(mail.raw).to.match(/^From: Blog <no-reply@blog\.test>/m);
    expect(mail.text).to.match(/Hi reader, reset it at http:\/\/localhost:3000\/reset-password\?code=[0-9]+\.[0-9a-f]{64}/);
  });

  it('turns sign-ups off in Advanced settings: register is refused', async function () {
    this.timeout(120_000);
    const user = { username: 'newbie', email: 'newbie@example.com', password: 'Passw0rd!' };
    await page.goto(`${app.url}/admin/settings/users-permissions/advanced-settings`);
    const toggle = page.getByRole('checkbox', { name: 'Enable sign-ups' });
    await toggle.waitFor(WAIT);
    expect(await toggle.isChecked()).to.equal(true);
    await toggle.click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('text=Saved', WAIT);
    const refused = await app.post('/api/auth/local/register', user);
    expect(refused.body).to.deep.equal({ data: null, error: { status: 400, name: 'ApplicationError', message: 'Register action is currently disabled', details: {} } });
  });

  it('creates an end user in the content manager with a role from its picker: the user signs in through the content API', async function () {
    this.timeout(120_000);
    await page.goto(`${app.url}/admin/content-manager/collection-types/plugin::users-permissions.user/create`);
    await page.getByRole('textbox', { name: /^username/ }).fill('panel-made', WAIT);
    await page.getByRole('textbox', { name: /^email/ }).fill('Panel.Made@Example.com');
    await page.getByRole('textbox', { name: /^password/ }).fill('Reader123');
    // The role picker lists users-permissions' roles, a type the content manager does not display.
    await page.getByRole('combobox', { name: 'role' }).click();
    await page.getByRole('option', { name: 'Authenticated' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/plugin::users-permissions\.user\/\d+$/, WAIT);
    const login = await app.post('/api/auth/local', { identifier: 'panel.made@example.com', password: 'Reader123' });
    expect([login.status, login.body.user?.email]).to.deep.equal([200, 'panel.made@example.com']);
    const stored = await app.app.entityService.findOne('plugin::users-permissions.user', login.body.user.id, { fields: ['provider'], populate: { role: { fields: ['type'] } } });
    expect([stored?.provider, (stored?.role as { type?: string } | undefined)?.type]).to.deep.equal(['local', 'authenticated']);
  });

  it('ran without a page error, asked nothing of another host, and called no route Tessera lacks', () => {
    expect(pageErrors).to.deep.equal([]);
    expect(blocked).to.deep.equal([]);
    expect(apiCalls.filter((call) => /license-limit|providers\/options|isSSOLocked/.test(call))).to.deep.equal([]);
  });
});
