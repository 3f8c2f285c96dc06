/**
 * Server code reading localized types through `strapi.entityService`, as
 * Strapi v4 app code does with i18n installed: `locale` picks the locale,
 * `all` every one, no locale the default; findOne by id answers whatever the
 * entry's locale.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { startI18nApp } from './fixture';

const PAGE = 'api::page.page';

eachDatabase('i18n: entityService reads with locale', (dialect) => {
  let app: TestApp;
  let french: number;
  before(async () => {
    ({ app } = await startI18nApp(dialect));
    const token = await app.fullAccessToken();
    for (const [title, locale] of [['One', 'en'], ['Two', 'en'], ['Un', 'fr'], ['Eins', 'de']]) {
      const response = await app.post(`/api/pages?locale=${locale}`, { data: { title, slug: title.toLowerCase() } }, { token });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      if (locale === 'fr') french = response.body.data.id;
    }
  });
  after(() => app?.stop());

  const titles = (entries: unknown) => (entries as Array<{ title: string }>).map((entry) => entry.title).sort();

  it('findMany: the default locale without `locale`, one locale with it, every locale with `all`', async () => {
    const service = app.app.entityService;
    expect(titles(await service.findMany(PAGE, {}))).to.deep.equal(['One', 'Two']);
    expect(titles(await service.findMany(PAGE, { locale: 'fr' }))).to.deep.equal(['Un']);
    expect(titles(await service.findMany(PAGE, { locale: 'all' }))).to.deep.equal(['Eins', 'One', 'Two', 'Un']);
    expect(titles(await service.findMany(PAGE, { locale: 'de', filters: { title: { $startsWith: 'E' } } }))).to.deep.equal(['Eins']);
    expect(await service.count(PAGE, { locale: 'all' })).to.equal(4);
    expect((await service.findPage(PAGE, { locale: 'fr' })).pagination.total).to.equal(1);
  });

  it('findOne by id answers whatever the locale of the entry', async () => {
    expect((await app.app.entityService.findOne(PAGE, french))?.title).to.equal('Un');
  });

  it('writes keep the groups: an update cannot move an entry to another locale, a shared field reaches the whole group', async () => {
    const service = app.app.entityService;
    const [one] = (await service.findMany(PAGE, { filters: { slug: 'one' } })) as Array<{ id: number }>;
    const localization = await app.post(`/api/pages/${one.id}/localizations`, { locale: 'de', title: 'Ein', slug: 'ein' }, { token: await app.fullAccessToken() });
    expect(localization.status, localization.text).to.equal(200);
    const updated = await service.update(PAGE, localization.body.id, { data: { order: 8, locale: 'fr', localizations: [] } });
    expect(updated.locale).to.equal('de');
    const group = (await service.findMany(PAGE, { locale: 'all', filters: { slug: { $in: ['one', 'ein'] } }, populate: { localizations: { fields: ['slug'] } }, sort: 'id' })) as any[];
    expect(group.map((entry) => [entry.slug, entry.order, entry.localizations.map((other: { slug: string }) => other.slug)])).to.deep.equal([
      ['one', 8, ['ein']],
      ['ein', 8, ['one']],
    ]);
  });

  it('a query-engine create without a locale gets the default one (Strapi v4 does the same)', async () => {
    const created = await app.app.db.query(PAGE).create({ data: { title: 'Raw', slug: 'raw' } });
    expect(created.locale).to.equal('en');
    expect(titles(await app.app.entityService.findMany(PAGE, { filters: { slug: 'raw' } }))).to.deep.equal(['Raw']);
  });
});
