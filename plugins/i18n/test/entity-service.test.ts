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
});
