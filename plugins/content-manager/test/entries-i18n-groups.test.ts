/**
 * A new locale version's rules beyond what Strapi 4.26.2 checks (entries-i18n-journey.test.ts replays what it
 * answers): a version whose body changes a shared value writes that value on every version, so it needs the right to
 * update every one of them — an admin who may update only what it created is refused (403, nothing written), and
 * may still make a version that keeps the group's shared values; a relatedEntityId that cannot name an entry is
 * Strapi's 400; a Super Admin's new value reaches every version.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { createRole, grant, registerFirstAdmin, signInAdmin, startEntriesApp, type Grant } from './entries-fixture';

const P = '/content-manager/collection-types/api::page.page';
const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
const CANNOT_JOIN = { data: null, error: { status: 400, name: 'ApplicationError', message: "The related entity doesn't exist or the entity already exists in this locale", details: {} } };

/** Create, read and update on pages, every locale and field, on the entries the admin created (`admin::is-creator`). */
const OWN_PAGES: Grant[] = ['create', 'read', 'update'].map((action) => ({
  action: `plugin::content-manager.explorer.${action}`,
  subject: 'api::page.page',
  properties: { fields: ['title', 'slug', 'body', 'order', 'category'], locales: ['en', 'fr', 'de'] },
  conditions: action === 'create' ? [] : ['admin::is-creator'],
}));

eachDatabase('content manager × i18n: who may make a new locale version', (dialect) => {
  let app: TestApp;
  let admin: string;
  let translator: string;
  let hello: number;

  /** Every page as stored: locale, order and the locales of its versions. */
  async function stored(): Promise<Array<[string, number, string[]]>> {
    const rows = await app.app.db.query('api::page.page').findMany({ orderBy: { id: 'asc' }, populate: { localizations: { select: ['locale'] } } });
    return rows.map((row) => [row.locale as string, row.order as number, (row.localizations as Array<{ locale: string }>).map((other) => other.locale).sort()]);
  }

  before(async () => {
    app = await startEntriesApp(dialect, { i18n: true });
    admin = await registerFirstAdmin(app);
    const role = await createRole(app, 'Translator');
    await grant(app, role, OWN_PAGES);
    translator = await signInAdmin(app, { email: 'tom@example.com', firstname: 'Tom', lastname: 'Translator', password: 'Translate123' }, role);
    const created = await app.post(`${P}?locale=en`, { title: 'Hello', slug: 'hello', order: 7 }, { token: admin });
    hello = created.body.id;
  });
  after(() => app?.stop());

  it('refuses a version whose body changes a shared value of versions the admin may not update, writing nothing', async () => {
    const refused = await app.post(`${P}?locale=fr&relatedEntityId=${hello}`, { title: 'Bonjour', slug: 'bonjour', order: 99 }, { token: translator });
    expect([refused.status, refused.body]).to.deep.equal([403, FORBIDDEN]);
    expect(await stored()).to.deep.equal([['en', 7, []]]);
  });

  it('makes the version when it keeps the shared values (sent as the panel sends them, or left out)', async () => {
    const french = await app.post(`${P}?locale=fr&relatedEntityId=${hello}`, { title: 'Bonjour', slug: 'bonjour', order: 7 }, { token: translator });
    const german = await app.post(`${P}?locale=de&relatedEntityId=${hello}`, { title: 'Hallo', slug: 'hallo' }, { token: translator });
    expect([french.status, french.body.order, german.status, german.body.order]).to.deep.equal([200, 7, 200, 7]);
    expect(await stored()).to.deep.equal([['en', 7, ['de', 'fr']], ['fr', 7, ['de', 'en']], ['de', 7, ['en', 'fr']]]);
  });

  it("answers Strapi's 400 for a relatedEntityId that names no entry", async () => {
    const answers = [];
    for (const related of ['abc', '1.5', '-1', '99999']) answers.push((await app.post(`${P}?locale=fr&relatedEntityId=${related}`, { title: 'Nope' }, { token: admin })).body);
    answers.push((await app.post(`${P}?locale=fr&relatedEntityId[]=${hello}`, { title: 'Nope' }, { token: admin })).body);
    expect(answers).to.deep.equal([CANNOT_JOIN, CANNOT_JOIN, CANNOT_JOIN, CANNOT_JOIN, CANNOT_JOIN]);
    expect((await stored()).length).to.equal(3);
  });

  it("writes a Super Admin's new shared value on every version", async () => {
    const other = await app.post(`${P}?locale=en`, { title: 'World', slug: 'world', order: 1 }, { token: admin });
    const french = await app.post(`${P}?locale=fr&relatedEntityId=${other.body.id}`, { title: 'Monde', slug: 'monde', order: 2 }, { token: admin });
    expect([french.status, french.body.order, french.body.localizations.map((entry: { order: number }) => entry.order)]).to.deep.equal([200, 2, [2]]);
    expect((await stored()).slice(3)).to.deep.equal([['en', 2, ['fr']], ['fr', 2, ['en']]]);
  });
});
