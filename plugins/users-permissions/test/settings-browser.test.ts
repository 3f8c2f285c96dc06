/**
 * An administrator's week on Settings → Users & Permissions in Strapi 4.26.2's real panel (Chromium, the cached build),
 * served by Tessera from the example app, every other host cut off. Each step acts in the panel, then asks the server:
 * the Public role given find and findOne on Writer profile (public on no type before), then find taken back; a role
 * made on "Add new role", given to an end user from the content manager, then deleted from the Roles list; GitHub
 * enabled from the Providers dialog; the reset-password template's subject and message edited, then mailed to a real
 * SMTP server; sign-ups turned off and on. Strapi's own answers to the same steps, recorded on the peer, are in
 * recorded/strapi-4.26.2-settings-journeys.json.
 */
import { expect } from 'chai';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { openBrowser, TestSmtp, type TestApp } from '@tessera/testing';
import { saveEntry, signInToPanel, skipUnlessPanelRuns, startMailingPanelApp } from '../../admin/test/panel-build';
import RECORDED from './recorded/strapi-4.26.2-settings-journeys.json';

const ADMIN = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', password: 'Secret123' };
const WAIT = { timeout: 60_000 };
const PROFILE = 'api::writer-profile.writer-profile';
const USER = 'plugin::users-permissions.user';
const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
const PROFILES = [
  { bio: 'Writes about rivers', website: 'https://rivers.example' },
  { bio: 'Writes about stars', website: 'https://stars.example' },
];

type PermissionTree = Record<string, { controllers: Record<string, Record<string, { enabled: boolean }>> }>;
interface UpRole {
  id: number;
  name: string;
  description: string;
  type: string;
  nb_users: number;
}

describe('users-permissions settings in Chromium: roles, providers, email templates, sign-ups [sqlite]', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let adminJwt: string;
  const profileIds: number[] = [];
  const blocked: string[] = [];
  const pageErrors: string[] = [];
  const failed: string[] = [];
  const smtp = new TestSmtp();

  before(async function () {
    this.timeout(15 * 60_000);
    skipUnlessPanelRuns(this);
    await smtp.start();
    app = await startMailingPanelApp(smtp.port);
    const registered = await app.post('/admin/register-admin', ADMIN);
    expect(registered.status).to.equal(200);
    adminJwt = registered.body.data.token;
    for (const data of PROFILES) profileIds.push((await app.app.entityService.create(PROFILE, { data })).id as number);
    ({ browser, context, page } = await openBrowser(app.url, { blocked, pageErrors, failed }));
    await signInToPanel(page, app.url, ADMIN);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
    await smtp.stop();
  });

  const admin = { get: (path: string) => app.get(path, { token: adminJwt }) };
  const roles = async (): Promise<UpRole[]> => (await admin.get('/users-permissions/roles')).body.roles;
  const roleOfType = async (type: string): Promise<UpRole> => (await roles()).find((role) => role.type === type)!;
  /** The role's granted actions as the admin API answers its permission tree, `api::x.controller.action`, sorted. */
  async function enabledActions(roleId: number): Promise<string[]> {
    const answer = await admin.get(`/users-permissions/roles/${roleId}`);
    expect(answer.status).to.equal(200);
    const actions: string[] = [];
    for (const [api, { controllers }] of Object.entries(answer.body.role.permissions as PermissionTree)) {
      for (const [controller, granted] of Object.entries(controllers)) {
        for (const [action, { enabled }] of Object.entries(granted)) if (enabled) actions.push(`${api}.${controller}.${action}`);
      }
    }
    return actions.sort();
  }
  /** Runs `act` and returns the answer to the panel's `method` request on `path`, which must be 200. */
  async function answered(method: string, path: RegExp, act: () => Promise<unknown>): Promise<Response> {
    const response = page.waitForResponse((candidate) => candidate.request().method() === method && path.test(new URL(candidate.url()).pathname), WAIT);
    await act();
    const done = await response;
    expect(done.status(), `${method} ${done.url()}`).to.equal(200);
    return done;
  }
  /** On a role's page: opens Writer profile's permissions and sets each named action's box. */
  async function setProfileActions(boxes: Record<string, boolean>): Promise<void> {
    await page.getByRole('button', { name: /^Writer-profile/ }).click();
    for (const [action, checked] of Object.entries(boxes)) {
      const box = page.getByRole('checkbox', { name: action, exact: true });
      await box.waitFor(WAIT);
      if ((await box.isChecked()) !== checked) await box.click();
    }
  }
  async function editPublicRole(boxes: Record<string, boolean>): Promise<void> {
    await page.goto(`${app.url}/admin/settings/users-permissions/roles`);
    await page.getByRole('gridcell', { name: 'Public', exact: true }).click();
    await page.waitForSelector('h1:has-text("Public")', WAIT);
    await setProfileActions(boxes);
    await answered('PUT', /^\/users-permissions\/roles\/\d+$/, () => page.getByRole('button', { name: 'Save' }).click());
    await page.waitForSelector('text=Role edited', WAIT);
  }
  const anonymous = { list: () => app.get('/api/writer-profiles'), one: () => app.get(`/api/writer-profiles/${profileIds[0]}`) };
  const listedBios = (answer: { body: { data: Array<{ attributes: { bio: string } }> } }) => answer.body.data.map(({ attributes }) => attributes.bio).sort();

  let publicActionsBefore: string[] = [];

  it('Public role: find and findOne ticked on Writer profile and saved; anonymous REST reads the profiles, and the role holds exactly those', async function () {
    this.timeout(180_000);
    expect((await anonymous.list()).body).to.deep.equal(FORBIDDEN);
    expect((await anonymous.one()).body).to.deep.equal(FORBIDDEN);
    const publicRole = await roleOfType('public');
    publicActionsBefore = await enabledActions(publicRole.id);
    expect(publicActionsBefore.filter((action) => action.startsWith(`${PROFILE}.`))).to.deep.equal([]);
    await editPublicRole({ find: true, findOne: true });
    const listed = await anonymous.list();
    expect(listed.status).to.equal(200);
    expect(listedBios(listed)).to.deep.equal(PROFILES.map(({ bio }) => bio));
    const one = await anonymous.one();
    expect([one.status, one.body.data.attributes.website]).to.deep.equal([200, PROFILES[0].website]);
    expect(await enabledActions(publicRole.id)).to.deep.equal([...publicActionsBefore, `${PROFILE}.find`, `${PROFILE}.findOne`].sort());
  });

  it('Public role: find unticked and saved; the anonymous list is 403 again, findOne still answers', async function () {
    this.timeout(180_000);
    await editPublicRole({ find: false });
    expect((await anonymous.list()).body).to.deep.equal(FORBIDDEN);
    expect((await anonymous.one()).status).to.equal(200);
    expect(await enabledActions((await roleOfType('public')).id)).to.deep.equal([...publicActionsBefore, `${PROFILE}.findOne`].sort());
  });

  const ROLE = { name: 'Profile reader', description: 'Reads the writer profiles' };
  let reader: { jwt: string; id: number };
  /** What the reader's JWT may do over REST: status of each call. */
  const readerStatuses = async () => ({
    list: (await app.get('/api/writer-profiles', { token: reader.jwt })).status,
    one: (await app.get(`/api/writer-profiles/${profileIds[0]}`, { token: reader.jwt })).status,
    me: (await app.get('/api/users/me', { token: reader.jwt })).status,
    create: (await app.post('/api/writer-profiles', { data: { bio: 'mine' } }, { token: reader.jwt })).status,
  });
  const storedRoleType = async (userId: number) => {
    const user = await app.app.entityService.findOne(USER, userId, { populate: { role: { fields: ['type'] } } });
    return (user?.role as { type?: string } | null | undefined)?.type;
  };

  it('Add new role: a role with find on Writer profile is stored with that one permission', async function () {
    this.timeout(180_000);
    await page.goto(`${app.url}/admin/settings/users-permissions/roles`);
    await page.getByRole('link', { name: 'Add new role' }).first().click();
    await page.waitForSelector('input[name="name"]', WAIT);
    await page.fill('input[name="name"]', ROLE.name);
    await page.getByRole('textbox', { name: 'Description' }).fill(ROLE.description);
    await setProfileActions({ find: true });
    await answered('POST', /^\/users-permissions\/roles$/, () => page.getByRole('button', { name: 'Save' }).click());
    // The panel goes back to the list once the role is made.
    await page.getByRole('gridcell', { name: ROLE.name, exact: true }).waitFor(WAIT);
    const made = (await roles()).find((role) => role.name === ROLE.name)!;
    // Strapi names the type from the name (snake case) and counts no user yet.
    const { name, description, type, nb_users } = made;
    expect({ name, description, type, nb_users }).to.deep.equal({ ...RECORDED.roleCreated.listed, description: ROLE.description });
    expect(await enabledActions(made.id)).to.deep.equal([`${PROFILE}.find`]);
  });

  it("the role given to an end user from the content manager's role picker: the user's JWT may list the profiles and nothing else", async function () {
    this.timeout(180_000);
    const registered = await app.post('/api/auth/local/register', { username: 'reader', email: 'reader@example.com', password: 'Passw0rd!' });
    expect(registered.status).to.equal(200);
    reader = { jwt: registered.body.jwt, id: registered.body.user.id };
    // As an Authenticated user: its own account, no profile list (the Public role's findOne is not the user's).
    expect(await readerStatuses()).to.deep.equal({ list: 403, one: 403, me: 200, create: 403 });
    await page.goto(`${app.url}/admin/content-manager/collection-types/${USER}/${reader.id}`);
    const picker = page.getByRole('combobox', { name: 'role' });
    await picker.waitFor(WAIT);
    await picker.click();
    await page.getByRole('option', { name: ROLE.name }).click();
    const saved = await saveEntry(page, USER);
    expect([saved.status(), (await saved.json()).role]).to.deep.equal([RECORDED.userGivenRole.answer.status, RECORDED.userGivenRole.answer.role]);
    expect(await storedRoleType(reader.id)).to.equal(RECORDED.roleCreated.listed.type);
    // Exactly the role's one permission (Strapi: the role's action 200, the authenticated role's /users/me 403).
    expect(await readerStatuses()).to.deep.equal({ list: 200, one: 403, me: RECORDED.userGivenRole.restStatusWithUserJwt['GET /api/users/me'], create: 403 });
    expect(listedBios(await app.get('/api/writer-profiles', { token: reader.jwt }))).to.deep.equal(PROFILES.map(({ bio }) => bio));
  });

  it("the role deleted from the Roles list: its user moves to the Public role, as on Strapi, and the JWT gets the Public role's permissions", async function () {
    this.timeout(180_000);
    const made = (await roles()).find((role) => role.name === ROLE.name)!;
    expect(made.nb_users).to.equal(1);
    const publicUsersBefore = (await roleOfType('public')).nb_users;
    await page.goto(`${app.url}/admin/settings/users-permissions/roles`);
    // The panel marks its row actions' cell aria-hidden (it stops the row's click there): the button is found by its label.
    await page.getByLabel(`Delete ${ROLE.name}`).click();
    await answered('DELETE', new RegExp(`^/users-permissions/roles/${made.id}$`), () => page.getByRole('button', { name: 'Confirm' }).click());
    await page.getByRole('gridcell', { name: ROLE.name, exact: true }).waitFor({ state: 'detached', ...WAIT });
    expect((await roles()).map(({ type }) => type).sort()).to.deep.equal(['authenticated', 'public']);
    expect(await storedRoleType(reader.id)).to.equal(RECORDED.roleDeleted.userRoleType);
    expect((await roleOfType('public')).nb_users).to.equal(publicUsersBefore + 1);
    // The Public role now holds findOne on Writer profile (the first journey), not find, and not /users/me.
    const after = RECORDED.roleDeleted.restWithUserJwt['GET /api/users/me'];
    expect(await readerStatuses()).to.deep.equal({ list: 403, one: 200, me: after.status, create: 403 });
    expect((await app.get('/api/users/me', { token: reader.jwt })).body).to.deep.equal(after.body);
  });

  it("Providers: GitHub enabled from its edit dialog with a client id and secret is stored; /api/connect/github answers Strapi's redirect to GitHub's authorize URL", async function () {
    this.timeout(180_000);
    const before = (await admin.get('/users-permissions/providers')).body as Record<string, Record<string, unknown>>;
    expect(before.github.enabled).to.equal(false);
    await page.goto(`${app.url}/admin/settings/users-permissions/providers`);
    await page.getByRole('gridcell', { name: 'github', exact: true }).click();
    await page.waitForSelector('input[name="key"]', WAIT);
    await page.getByRole('checkbox', { name: 'Enable' }).click();
    await page.fill('input[name="key"]', 'Iv1.panel-client');
    await page.fill('input[name="secret"]', 'panel-secret');
    await page.fill('input[name="callback"]', 'http://localhost:3000/connect/github/redirect');
    await answered('PUT', /^\/users-permissions\/providers$/, () => page.getByRole('button', { name: 'Save' }).click());
    const after = (await admin.get('/users-permissions/providers')).body as Record<string, Record<string, unknown>>;
    // What the dialog changed, over what was stored; the same as Strapi stores from the same dialog (recorded), but for
    // the redirect URI, which names the server.
    expect(after.github).to.deep.equal({ ...before.github, enabled: true, key: 'Iv1.panel-client', secret: 'panel-secret', callback: 'http://localhost:3000/connect/github/redirect' });
    expect({ ...after.github, redirectUri: undefined }).to.deep.equal({ ...RECORDED.githubEnabled.storedGithub, redirectUri: undefined });
    expect(after.github.redirectUri).to.equal(`${app.url}/api/connect/github/callback`);
    expect(Object.fromEntries(Object.entries(after).filter(([name]) => name !== 'github'))).to.deep.equal(Object.fromEntries(Object.entries(before).filter(([name]) => name !== 'github')));
    // Strapi answers 302 to GitHub's authorize URL with this client id (RECORDED.connectGithub); the redirect_uri names
    // the server, so the peer's address is this app's here. The rest of the sign-in: providers.test.ts.
    const connect = await fetch(`${app.url}/api/connect/github`, { redirect: 'manual' });
    const location = RECORDED.connectGithub.location.replace(encodeURIComponent('http://localhost:1340'), encodeURIComponent(app.url));
    expect([connect.status, connect.headers.get('location')]).to.deep.equal([302, location]);
  });

  it("Email templates: the reset-password template's subject and message edited; the next forgot-password mail carries them", async function () {
    this.timeout(180_000);
    const user = await app.post('/api/auth/local/register', { username: 'forgetful', email: 'forgetful@example.com', password: 'Passw0rd!' });
    expect(user.status).to.equal(200);
    await page.goto(`${app.url}/admin/settings/users-permissions/email-templates`);
    await page.getByRole('gridcell', { name: 'Reset password', exact: true }).first().click();
    const message = page.locator('textarea[id="options.message"]');
    await message.waitFor(WAIT);
    await page.fill('input[name="options.object"]', 'Blog: a new password for <%= USER.username %>');
    await message.fill('<p>Dear <%= USER.username %>, choose a new password at <%= URL %>?code=<%= TOKEN %></p>');
    await answered('PUT', /^\/users-permissions\/email-templates$/, () => page.getByRole('button', { name: 'Finish' }).click());
    const stored = (await admin.get('/users-permissions/email-templates')).body.reset_password.options;
    expect([stored.object, stored.message]).to.deep.equal([
      'Blog: a new password for <%= USER.username %>',
      '<p>Dear <%= USER.username %>, choose a new password at <%= URL %>?code=<%= TOKEN %></p>',
    ]);
    const sentBefore = smtp.mails.length;
    expect((await app.post('/api/auth/forgot-password', { email: 'forgetful@example.com' })).body).to.deep.equal({ ok: true });
    const mail = await smtp.next('forgetful@example.com', sentBefore);
    expect(mail.raw).to.match(/^Subject: Blog: a new password for forgetful\r?$/m);
    expect(mail.text).to.match(/Dear forgetful, choose a new password at http:\/\/localhost:3000\/reset-password\?code=[0-9]+\.[0-9a-f]{64}/);
  });

  it('Advanced settings: "Enable sign-ups" off and saved, register is refused with Strapi\'s 400; on again, register succeeds', async function () {
    this.timeout(180_000);
    const toggleSignUps = async (expected: boolean) => {
      await page.goto(`${app.url}/admin/settings/users-permissions/advanced-settings`);
      const toggle = page.getByRole('checkbox', { name: 'Enable sign-ups' });
      await toggle.waitFor(WAIT);
      expect(await toggle.isChecked()).to.equal(!expected);
      await toggle.click();
      await answered('PUT', /^\/users-permissions\/advanced$/, () => page.getByRole('button', { name: 'Save' }).click());
      expect((await admin.get('/users-permissions/advanced')).body.settings.allow_register).to.equal(expected);
    };
    const newcomer = { username: 'newcomer', email: 'newcomer@example.com', password: 'Passw0rd!' };
    await toggleSignUps(false);
    const refused = await app.post('/api/auth/local/register', newcomer);
    expect([refused.status, refused.body]).to.deep.equal([RECORDED.registerDisabled.answer.status, RECORDED.registerDisabled.answer.body]);
    await toggleSignUps(true);
    const accepted = await app.post('/api/auth/local/register', newcomer);
    expect([accepted.status, accepted.body.user?.username]).to.deep.equal([RECORDED.registerDisabled.registerAfterReenabled, 'newcomer']);
  });

  it('ran without a page error or a failed request, and asked nothing of another host', () => {
    expect(pageErrors).to.deep.equal([]);
    expect(failed).to.deep.equal([]);
    expect(blocked).to.deep.equal([]);
  });
});
