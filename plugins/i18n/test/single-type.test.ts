/**
 * A localized single type: one entry per locale, chosen by `locale`
 * (default: the default locale) on GET, PUT (creating that locale's entry,
 * linked with the others and given their shared values) and DELETE; shared
 * fields — a column and a component — kept identical.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { errorBody, HOMEPAGE_SCHEMA, startI18nApp } from './fixture';

/** The fixture's homepage with a shared component. */
const HOMEPAGE = {
  ...HOMEPAGE_SCHEMA,
  attributes: { ...HOMEPAGE_SCHEMA.attributes, seo: { type: 'component', component: 'shared.seo', pluginOptions: { i18n: { localized: false } } } },
};

const SEO = { collectionName: 'components_shared_seos', info: { displayName: 'seo' }, attributes: { metaTitle: { type: 'string' } } };

eachDatabase('i18n localized single type', (dialect) => {
  let app: TestApp;
  let token: string;
  before(async () => {
    ({ app, token } = await startI18nApp(dialect, {
      files: {
        'src/api/homepage/content-types/homepage/schema.json': HOMEPAGE,
        'src/components/shared/seo.json': SEO,
        'config/permissions.ts': `export default { public: ['api::homepage.homepage.find'] };`,
      },
    }));
  });
  after(() => app?.stop());

  const read = async (query = '') => {
    const response = await app.get(`/api/homepage?populate=seo${query}`);
    return response.status === 200 ? response.body.data.attributes : response.status;
  };
  const strip = (attributes: any) => ({ title: attributes.title, theme: attributes.theme, locale: attributes.locale, seo: attributes.seo?.metaTitle });

  it('PUT creates the default locale entry, then PUT ?locale=fr the French one with the shared values', async () => {
    expect(await read()).to.equal(404);
    const en = await app.put('/api/homepage', { data: { title: 'Welcome', theme: 'dark', seo: { metaTitle: 'Meta' } } }, { token });
    expect(en.status).to.equal(200);
    expect(en.body.data.attributes.locale).to.equal('en');
    expect(await read('&locale=fr')).to.equal(404);
    const fr = await app.put('/api/homepage?locale=fr&populate=seo', { data: { title: 'Bienvenue' } }, { token });
    expect(fr.status).to.equal(200);
    expect(strip(fr.body.data.attributes)).to.deep.equal({ title: 'Bienvenue', theme: 'dark', locale: 'fr', seo: 'Meta' });
    expect(fr.body.data.attributes.seo.id).not.to.equal(en.body.data.attributes.seo?.id ?? -1);
    expect(strip(await read())).to.deep.equal({ title: 'Welcome', theme: 'dark', locale: 'en', seo: 'Meta' });
    expect(strip(await read('&locale=fr'))).to.deep.equal({ title: 'Bienvenue', theme: 'dark', locale: 'fr', seo: 'Meta' });
    const linked = await app.get('/api/homepage?locale=fr&populate[localizations][fields][0]=locale');
    expect(linked.body.data.attributes.localizations.data.map((entry: any) => entry.attributes.locale)).to.deep.equal(['en']);
  });

  it('PUT ?locale=fr updates only the French entry; shared fields follow on every locale', async () => {
    const updated = await app.put('/api/homepage?locale=fr', { data: { title: 'Salut', theme: 'light', seo: { metaTitle: 'Méta' } } }, { token });
    expect(updated.status).to.equal(200);
    expect(strip(await read('&locale=fr'))).to.deep.equal({ title: 'Salut', theme: 'light', locale: 'fr', seo: 'Méta' });
    expect(strip(await read())).to.deep.equal({ title: 'Welcome', theme: 'light', locale: 'en', seo: 'Méta' });
  });

  it('an unknown locale: GET is a 404, PUT a 400', async () => {
    expect(await read('&locale=it')).to.equal(404);
    const put = await app.put('/api/homepage?locale=it', { data: { title: 'Ciao' } }, { token });
    expect(put.body).to.deep.equal(errorBody(400, 'ApplicationError', "This locale doesn't exist"));
  });

  it('DELETE ?locale=fr deletes the French entry only', async () => {
    const deleted = await app.delete('/api/homepage?locale=fr', { token });
    expect(deleted.status).to.equal(200);
    expect(deleted.body.data.attributes.locale).to.equal('fr');
    expect(await read('&locale=fr')).to.equal(404);
    expect(strip(await read())).to.deep.equal({ title: 'Welcome', theme: 'light', locale: 'en', seo: 'Méta' });
    expect((await app.delete('/api/homepage?locale=fr', { token })).status).to.equal(404);
  });

  it("POST /api/homepage/localizations adds a locale, as Strapi v4's i18n route for a single type does", async () => {
    const created = await app.post('/api/homepage/localizations', { locale: 'de', title: 'Willkommen' }, { token });
    expect(created.status).to.equal(200);
    expect([created.body.locale, created.body.title, created.body.theme, created.body.localizations.map((entry: { locale: string }) => entry.locale)]).to.deep.equal(['de', 'Willkommen', 'light', ['en']]);
    expect(strip(await read('&locale=de'))).to.deep.equal({ title: 'Willkommen', theme: 'light', locale: 'de', seo: 'Méta' });
    const again = await app.post('/api/homepage/localizations', { locale: 'de', title: 'Nochmal' }, { token });
    expect(again.body).to.deep.equal(errorBody(400, 'ApplicationError', 'locale is already used'));
    const missing = await app.post('/api/homepage/localizations', { title: 'Sans' }, { token });
    expect(missing.body).to.deep.equal(errorBody(400, 'ApplicationError', 'locale is missing'));
    expect((await app.post('/api/homepage/localizations', { locale: 'fr', title: 'Anonyme' })).status).to.equal(403);
  });
});
