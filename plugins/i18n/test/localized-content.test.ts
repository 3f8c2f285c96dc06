/**
 * Localized collection types over REST: the table layout, create with and
 * without a locale, POST /:id/localizations, the locale parameter with
 * filters, sort, pagination, populate and publication state, shared fields
 * kept identical, uid uniqueness across locales.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { errorBody, startI18nApp } from './fixture';

eachDatabase('i18n localized collection type', (dialect) => {
  let app: TestApp;
  let token: string;
  let category: number;
  const create = async (data: Record<string, unknown>) => {
    const response = await app.post('/api/pages', { data }, { token });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body.data as { id: number; attributes: Record<string, unknown> };
  };
  const localize = (id: number, body: Record<string, unknown>, options = { token }) => app.post(`/api/pages/${id}/localizations`, body, options);
  const titles = (body: { data: Array<{ attributes: { title: string } }> }) => body.data.map((entry) => entry.attributes.title);

  before(async () => {
    ({ app, token } = await startI18nApp(dialect));
    category = (await app.post('/api/categories', { data: { name: 'News' } }, { token })).body.data.id;
  });
  after(() => app?.stop());

  it('keeps Strapi v4 layout: pages.locale and pages_localizations_links(page_id, inv_page_id, page_order)', async () => {
    const connection = app.app.db.sql;
    const columns = async (table: string) => {
      const sql =
        connection.dialect === 'sqlite'
          ? 'SELECT name AS column_name FROM pragma_table_info(?)'
          : `SELECT column_name AS column_name FROM information_schema.columns WHERE table_schema = ${connection.dialect === 'mysql' ? 'DATABASE()' : 'current_schema()'} AND table_name = ?`;
      return (await connection.raw(sql, [table])).map((row) => String(row.column_name)).sort();
    };
    expect(await columns('pages')).to.include('locale');
    expect(await columns('pages_localizations_links')).to.deep.equal(['id', 'inv_page_id', 'page_id', 'page_order']);
  });

  it('create without a locale takes the default; with one takes it; an unknown one is a 400 and writes nothing', async () => {
    expect((await create({ title: 'Default', slug: 'default' })).attributes.locale).to.equal('en');
    expect((await create({ title: 'Deutsch', slug: 'deutsch', locale: 'de' })).attributes.locale).to.equal('de');
    const unknown = await app.post('/api/pages', { data: { title: 'X', slug: 'x', locale: 'it' } }, { token });
    expect(unknown.status).to.equal(400);
    expect(unknown.body).to.deep.equal(errorBody(400, 'ApplicationError', "This locale doesn't exist"));
    const all = await app.get('/api/pages?locale=all&filters[slug][$eq]=x', { token });
    expect(all.body.data).to.deep.equal([]);
  });

  it('a localization copies the shared fields, not the relations; a draft unless publishedAt is sent; linked with every sibling', async () => {
    const source = await create({ title: 'Home', slug: 'home', body: 'EN', order: 4, category });
    const fr = await localize(source.id, { locale: 'fr', title: 'Accueil', slug: 'accueil' });
    expect(fr.status).to.equal(200);
    expect(fr.body).to.deep.include({ title: 'Accueil', slug: 'accueil', body: null, order: 4, publishedAt: null, locale: 'fr' });
    expect(fr.body.localizations.map((entry: { id: number }) => entry.id)).to.deep.equal([source.id]);
    const frEntry = await app.get(`/api/pages/${fr.body.id}?populate=category&publicationState=preview`, { token });
    expect(frEntry.body.data.attributes.category).to.deep.equal({ data: null });

    const de = await localize(source.id, { locale: 'de', title: 'Startseite', slug: 'startseite', publishedAt: '2024-01-02T03:04:05.000Z' });
    expect(de.status).to.equal(200);
    expect(de.body).to.deep.include({ order: 4, publishedAt: '2024-01-02T03:04:05.000Z', locale: 'de' });
    // Every entry of the group is linked with every other one.
    const group = await app.get(`/api/pages?locale=all&publicationState=preview&filters[slug][$in][0]=home&filters[slug][$in][1]=accueil&filters[slug][$in][2]=startseite&populate[localizations][fields][0]=locale&fields[0]=locale&sort=id`, { token });
    const links = group.body.data.map((entry: any) => [entry.attributes.locale, entry.attributes.localizations.data.map((other: any) => other.attributes.locale).sort()]);
    expect(links).to.deep.equal([
      ['en', ['de', 'fr']],
      ['fr', ['de', 'en']],
      ['de', ['en', 'fr']],
    ]);
  });

  it('a localization with a used, missing or unknown locale is a 400; an unknown entry a 404; it needs createLocalization', async () => {
    const source = await create({ title: 'About', slug: 'about', order: 1 });
    expect((await localize(source.id, { locale: 'en', title: 'Again', slug: 'again' })).body).to.deep.equal(errorBody(400, 'ApplicationError', 'locale is already used'));
    expect((await localize(source.id, { title: 'No locale', slug: 'no-locale' })).body).to.deep.equal(errorBody(400, 'ApplicationError', 'locale is missing'));
    expect((await localize(source.id, { locale: 'it', title: 'Chi', slug: 'chi' })).body).to.deep.equal(errorBody(400, 'ApplicationError', 'locale is invalid'));
    const missing = await localize(999999, { locale: 'fr', title: 'Nope', slug: 'nope' });
    expect(missing.status).to.equal(404);
    expect((await localize(source.id, { locale: 'fr', title: 'Anon', slug: 'anon' }, { token: undefined as unknown as string })).status).to.equal(403);
    const { accessKey } = await app.app.apiTokens.create({ name: 'create-only', type: 'custom', permissions: ['api::page.page.create', 'api::page.page.find'] });
    expect((await localize(source.id, { locale: 'fr', title: 'Custom', slug: 'custom' }, { token: accessKey })).status).to.equal(403);
    const { accessKey: allowed } = await app.app.apiTokens.create({ name: 'localizer', type: 'custom', permissions: ['api::page.page.createLocalization', 'api::page.page.find'] }); // linking localizations needs read access (relation writes obey read permissions)
    const created = await localize(source.id, { locale: 'fr', title: 'À propos', slug: 'a-propos' }, { token: allowed });
    expect(created.status).to.equal(200);
    expect(created.body).to.have.property('localizations');
    const count = await app.get('/api/pages?locale=all&publicationState=preview&filters[slug][$in][0]=again&filters[slug][$in][1]=no-locale&filters[slug][$in][2]=chi&filters[slug][$in][3]=nope&filters[slug][$in][4]=anon&filters[slug][$in][5]=custom', { token });
    expect(count.body.data).to.deep.equal([]);
  });

  it('find: default locale, one locale, all, an unknown locale (no entries), combined with filters, sort, pagination and publication state', async () => {
    await create({ title: 'Zeta', slug: 'zeta', order: 9 });
    const fr = await app.get('/api/pages?locale=fr&publicationState=preview&sort=title&fields[0]=title', { token });
    expect(titles(fr.body)).to.deep.equal(['Accueil', 'À propos']);
    const frLive = await app.get('/api/pages?locale=fr&fields[0]=title');
    expect(titles(frLive.body)).to.deep.equal([]);
    const en = await app.get('/api/pages?sort=title&fields[0]=title&pagination[pageSize]=2&pagination[page]=2');
    expect(titles(en.body)).to.deep.equal(['Home', 'Zeta']);
    expect(en.body.meta.pagination).to.deep.equal({ page: 2, pageSize: 2, pageCount: 2, total: 4 });
    const all = await app.get('/api/pages?locale=all&sort[0]=locale&sort[1]=title&fields[0]=title&fields[1]=locale&filters[order][$gte]=4');
    expect(all.body.data.map((entry: any) => `${entry.attributes.locale}:${entry.attributes.title}`)).to.deep.equal(['de:Startseite', 'en:Home', 'en:Zeta']);
    const unknown = await app.get('/api/pages?locale=it');
    expect(unknown.status).to.equal(200);
    expect(unknown.body).to.deep.equal({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
    const bad = await app.get('/api/pages?locale[0]=fr');
    expect(bad.body).to.deep.equal(errorBody(400, 'ValidationError', 'Invalid parameter locale'));
  });

  it('findOne answers whatever the locale; locale= on a type that is not localized changes nothing', async () => {
    const [de] = (await app.get('/api/pages?locale=de&filters[slug][$eq]=startseite')).body.data;
    const one = await app.get(`/api/pages/${de.id}`);
    expect(one.status).to.equal(200);
    expect(one.body.data.attributes.locale).to.equal('de');
    expect((await app.get(`/api/pages/${de.id}?locale=fr`)).status).to.equal(200);
    const categories = await app.get('/api/categories?locale=fr');
    expect(categories.body.data.map((entry: any) => entry.attributes.name)).to.deep.equal(['News']);
  });

  it('filters through localizations; populated localizations leave drafts out under live', async () => {
    const hasFrench = await app.get('/api/pages?filters[localizations][locale][$eq]=fr&fields[0]=title&sort=title', { token });
    expect(titles(hasFrench.body)).to.deep.equal([]);
    const preview = await app.get('/api/pages?publicationState=preview&filters[localizations][locale][$eq]=fr&fields[0]=title&sort=title', { token });
    expect(titles(preview.body)).to.deep.equal(['About', 'Home']);
    const populated = await app.get('/api/pages?filters[slug][$eq]=home&populate[localizations][fields][0]=locale&fields[0]=title');
    expect(populated.body.data[0].attributes.localizations.data.map((entry: any) => entry.attributes.locale)).to.deep.equal(['de']);
  });

  it('a shared field written on any localization is written on all of them; locale cannot change', async () => {
    const [fr] = (await app.get('/api/pages?locale=fr&publicationState=preview&filters[slug][$eq]=accueil', { token })).body.data;
    const updated = await app.put(`/api/pages/${fr.id}`, { data: { order: 11, title: 'Accueil 2', locale: 'de' } }, { token });
    expect(updated.status).to.equal(200);
    expect(updated.body.data.attributes).to.deep.include({ order: 11, title: 'Accueil 2', locale: 'fr' });
    const group = await app.get('/api/pages?locale=all&publicationState=preview&filters[slug][$in][0]=home&filters[slug][$in][1]=accueil&filters[slug][$in][2]=startseite&fields[0]=title&fields[1]=order&sort=id', { token });
    expect(group.body.data.map((entry: any) => [entry.attributes.title, entry.attributes.order])).to.deep.equal([
      ['Home', 11],
      ['Accueil 2', 11],
      ['Startseite', 11],
    ]);
  });

  it('a localized field stays per locale, and localizations sent on update are ignored', async () => {
    const [en] = (await app.get('/api/pages?filters[slug][$eq]=home')).body.data;
    const updated = await app.put(`/api/pages/${en.id}?populate[localizations][fields][0]=locale&publicationState=preview`, { data: { body: 'EN 2', localizations: [] } }, { token });
    expect(updated.status).to.equal(200);
    expect(updated.body.data.attributes.localizations.data.map((entry: any) => entry.attributes.locale).sort()).to.deep.equal(['de', 'fr']);
    const fr = await app.get('/api/pages?locale=fr&publicationState=preview&filters[slug][$eq]=accueil&fields[0]=body', { token });
    expect(fr.body.data[0].attributes.body).to.equal(null);
  });

  it('uid values are unique across all locales', async () => {
    const taken = await app.post('/api/pages', { data: { title: 'Home FR', slug: 'home', locale: 'fr' } }, { token });
    expect(taken.status).to.equal(400);
    expect(taken.body.error.name).to.equal('ValidationError');
    const [about] = (await app.get('/api/pages?filters[slug][$eq]=about')).body.data;
    const localized = await localize(about.id, { locale: 'de', title: 'x', slug: 'home' });
    expect(localized.status).to.equal(400);
    expect(localized.body.error.name).to.equal('ValidationError');
  });

  it('a localization created with its own shared value spreads it to the group, in the same write', async () => {
    const [about] = (await app.get('/api/pages?filters[slug][$eq]=about')).body.data;
    const de = await localize(about.id, { locale: 'de', title: 'Über', slug: 'ueber', order: 5 });
    expect(de.status).to.equal(200);
    const group = await app.get('/api/pages?locale=all&publicationState=preview&filters[slug][$in][0]=about&filters[slug][$in][1]=a-propos&filters[slug][$in][2]=ueber&fields[0]=order&sort=id', { token });
    expect(group.body.data.map((entry: any) => entry.attributes.order)).to.deep.equal([5, 5, 5]);
  });
});
