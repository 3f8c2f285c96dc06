/**
 * i18n over GraphQL, against REST on the same app: the `locale` argument
 * (default, a code, `all`, an unknown code, an invalid literal or variable),
 * create with a locale, `create<Type>Localization` (the REST operation's
 * copy, errors and permission), `localizations` without drafts under LIVE
 * and loaded in batches, the locale queries, a localized single type, and
 * the generated schema against Strapi 4.26's for the localized page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema } from 'graphql';
import { SHARED_REFERENCE, eachDatabase, type TestApp } from '@tessera/testing';
import { gql, gqlData } from '../../graphql/test/helpers';
import { HOMEPAGE_SCHEMA as HOMEPAGE, PUBLIC, startI18nApp } from './fixture';

const FILES = {
  'config/plugins.js': 'module.exports = { graphql: { enabled: true } };',
  'src/api/homepage/content-types/homepage/schema.json': HOMEPAGE,
  'config/permissions.ts': `export default { public: ${JSON.stringify([...PUBLIC, 'api::homepage.homepage.find'])} };`,
};

const PAGE_IDS = `query ($locale: I18NLocaleCode, $state: PublicationState) {
  pages(locale: $locale, publicationState: $state, sort: "id:asc", pagination: { limit: 100 }) { data { id attributes { locale } } }
}`;

const WITH_LOCALIZATIONS = `query ($locale: I18NLocaleCode, $state: PublicationState, $size: Int) {
  pages(locale: $locale, publicationState: $state, sort: "id:asc", pagination: { pageSize: $size }) {
    data { id attributes { title locale localizations(sort: "locale:asc") { data { id attributes { locale title publishedAt } } } } }
  }
}`;

const CREATE_LOCALIZATION = `mutation ($id: ID, $data: PageInput, $locale: I18NLocaleCode) {
  createPageLocalization(id: $id, data: $data, locale: $locale) {
    data { id attributes { title slug order locale publishedAt category { data { id } } localizations { data { id attributes { locale } } } } }
  }
}`;

eachDatabase('i18n GraphQL', (dialect) => {
  let app: TestApp;
  let token: string;
  let category: number;
  /** en "Home" (fr published, de draft), en "About", fr-only "Seule", en draft "Brouillon". */
  const ids: Record<string, number> = {};

  const rest = async (method: 'POST' | 'GET', url: string, body?: unknown) => {
    const response = await app.request(method, url, { token, body });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body;
  };
  const restIds = async (query: string) => (await rest('GET', `/api/pages?sort=id:asc&pagination[limit]=100${query}`)).data.map((entry: { id: number }) => entry.id);
  const gqlIds = async (variables: Record<string, unknown>, options: { token?: string } = { token }) =>
    (await gqlData(app, PAGE_IDS, { variables, ...options })).pages.data.map((entry: { id: string }) => Number(entry.id));

  before(async () => {
    ({ app, token } = await startI18nApp(dialect, { files: FILES }));
    category = (await rest('POST', '/api/categories', { data: { name: 'News' } })).data.id;
    const create = async (data: Record<string, unknown>) => (await rest('POST', '/api/pages', { data })).data.id as number;
    const localize = async (id: number, body: Record<string, unknown>) => (await rest('POST', `/api/pages/${id}/localizations`, body)).id as number;
    ids.home = await create({ title: 'Home', slug: 'home', order: 1, category });
    ids.accueil = await localize(ids.home, { locale: 'fr', title: 'Accueil', slug: 'accueil', publishedAt: '2024-01-01T00:00:00.000Z' });
    ids.startseite = await localize(ids.home, { locale: 'de', title: 'Startseite', slug: 'startseite' });
    ids.about = await create({ title: 'About', slug: 'about', order: 2 });
    ids.seule = await create({ title: 'Seule', slug: 'seule', locale: 'fr' });
    ids.brouillon = await create({ title: 'Brouillon', slug: 'brouillon', publishedAt: null });
  });
  after(() => app?.stop());

  describe('the locale argument', () => {
    it('reads what REST reads for the same parameters: no locale (the default), a code, all, preview', async () => {
      expect(await gqlIds({})).to.deep.equal([ids.home, ids.about]);
      expect(await gqlIds({})).to.deep.equal(await restIds(''));
      expect(await gqlIds({ locale: 'fr' })).to.deep.equal([ids.accueil, ids.seule]);
      expect(await gqlIds({ locale: 'fr' })).to.deep.equal(await restIds('&locale=fr'));
      expect(await gqlIds({ locale: 'all' })).to.deep.equal(await restIds('&locale=all'));
      expect(await gqlIds({ locale: 'all' })).to.have.members([ids.home, ids.accueil, ids.about, ids.seule]);
      expect(await gqlIds({ locale: 'de', state: 'PREVIEW' })).to.deep.equal([ids.startseite]);
      expect(await gqlIds({ locale: 'all', state: 'PREVIEW' })).to.deep.equal(await restIds('&locale=all&publicationState=preview'));
      // As a literal too, and for the public caller.
      const literal = await gqlData(app, '{ pages(locale: "fr", sort: "id:asc") { data { id } } }', {});
      expect(literal.pages.data.map((entry: { id: string }) => Number(entry.id))).to.deep.equal([ids.accueil, ids.seule]);
    });

    it('a code in the ISO list that no locale has reads nothing; meta counts the same', async () => {
      expect(await gqlIds({ locale: 'it' })).to.deep.equal([]);
      expect(await restIds('&locale=it')).to.deep.equal([]);
      const data = await gqlData(app, '{ pages(locale: "fr") { meta { pagination { total } } } }', { token });
      expect(data.pages.meta.pagination.total).to.equal(2);
    });

    it('a literal outside the ISO list fails validation (400); so does a variable, and a non-string', async () => {
      const literal = await gql(app, '{ pages(locale: "xx-nope") { data { id } } }', { token });
      expect(literal.status).to.equal(400);
      expect(literal.body.errors![0].extensions!.code).to.equal('GRAPHQL_VALIDATION_FAILED');
      expect(literal.body.errors![0].message).to.contain('I18NLocaleCode');
      const number = await gql(app, '{ pages(locale: 3) { data { id } } }', { token });
      expect(number.status).to.equal(400);
      expect(number.body.errors![0].extensions!.code).to.equal('GRAPHQL_VALIDATION_FAILED');
      const variable = await gql(app, PAGE_IDS, { token, variables: { locale: 'xx-nope' } });
      expect(variable.status).to.equal(400);
      expect(variable.body.data).to.equal(undefined);
      expect(variable.body.errors![0].extensions!.code).to.equal('BAD_USER_INPUT');
      expect(variable.body.errors![0].message).to.contain('"xx-nope" is not a locale code');
    });

    it('an entry by id is read whatever its locale, as over REST', async () => {
      const data = await gqlData(app, `{ page(id: ${ids.accueil}, locale: "de") { data { id attributes { title locale } } } }`, { token });
      expect(data.page.data).to.deep.equal({ id: String(ids.accueil), attributes: { title: 'Accueil', locale: 'fr' } });
    });
  });

  describe('localizations', () => {
    it('are populated with drafts left out under LIVE, in every locale', async () => {
      const live = await gqlData(app, WITH_LOCALIZATIONS, { token, variables: { locale: 'all' } });
      const home = live.pages.data.find((entry: { id: string }) => Number(entry.id) === ids.home);
      expect(home.attributes.localizations.data.map((entry: any) => entry.attributes.locale)).to.deep.equal(['fr']);
      const accueil = live.pages.data.find((entry: { id: string }) => Number(entry.id) === ids.accueil);
      expect(accueil.attributes.localizations.data.map((entry: any) => entry.attributes.locale)).to.deep.equal(['en']);
      const preview = await gqlData(app, WITH_LOCALIZATIONS, { token, variables: { locale: 'fr', state: 'PREVIEW' } });
      expect(preview.pages.data[0].attributes.localizations.data.map((entry: any) => entry.attributes.locale)).to.deep.equal(['de', 'en']);
      // REST populates the same.
      const restHome = await rest('GET', `/api/pages/${ids.home}?populate[localizations][fields][0]=locale`);
      expect(restHome.data.attributes.localizations.data.map((entry: any) => entry.id)).to.deep.equal([ids.accueil]);
    });

    it('aliased with different arguments, are loaded for entries outside the default locale too', async () => {
      const data = await gqlData(
        app,
        `{ pages(locale: "fr", sort: "id:asc") { data { id attributes {
          up: localizations(sort: "locale:asc") { data { id } }
          down: localizations(sort: "locale:desc") { data { id } }
        } } } }`,
        { token },
      );
      const accueil = data.pages.data[0].attributes;
      expect(accueil.up.data.map((entry: { id: string }) => Number(entry.id))).to.deep.equal([ids.home]);
      expect(accueil.down.data.map((entry: { id: string }) => Number(entry.id))).to.deep.equal([ids.home]);
      // Under PREVIEW the draft localization comes too, in each alias's order.
      const preview = await gqlData(
        app,
        `{ pages(locale: "fr", sort: "id:asc", publicationState: PREVIEW) { data { id attributes {
          up: localizations(sort: "locale:asc") { data { id } }
          down: localizations(sort: "locale:desc") { data { id } }
        } } } }`,
        { token },
      );
      const draftAware = preview.pages.data[0].attributes;
      expect(draftAware.up.data.map((entry: { id: string }) => Number(entry.id))).to.deep.equal([ids.startseite, ids.home]);
      expect(draftAware.down.data.map((entry: { id: string }) => Number(entry.id))).to.deep.equal([ids.home, ids.startseite]);
    });
  });

  describe('mutations', () => {
    it('create takes a locale (default: the default locale; an unknown one is REST\'s 400 error)', async () => {
      const mutation = `mutation ($locale: I18NLocaleCode) { createPage(data: { title: "Hallo", slug: "hallo-${dialect}" }, locale: $locale) { data { id attributes { locale publishedAt } } } }`;
      const de = await gqlData(app, mutation, { token, variables: { locale: 'de' } });
      expect(de.createPage.data.attributes).to.deep.equal({ locale: 'de', publishedAt: null });
      const en = await gqlData(app, mutation.replace('hallo-', 'hello-'), { token, variables: {} });
      expect(en.createPage.data.attributes.locale).to.equal('en');
      const unknown = await gql(app, mutation.replace('hallo-', 'ciao-'), { token, variables: { locale: 'it' } });
      expect(unknown.body.data).to.deep.equal({ createPage: null });
      expect(unknown.body.errors![0].extensions).to.deep.equal({
        error: { name: 'ApplicationError', message: "This locale doesn't exist", details: {} },
        code: 'STRAPI_APPLICATION_ERROR',
      });
    });

    it('update and delete by id take the locale argument and, as REST, are chosen by the id', async () => {
      const created = await gqlData(app, `mutation { createPage(data: { title: "Temp", slug: "temp-${dialect}" }, locale: "fr") { data { id } } }`, { token });
      const id = created.createPage.data.id;
      const updated = await gqlData(app, `mutation { updatePage(id: ${id}, data: { title: "Temporaire" }, locale: "de") { data { id attributes { title locale } } } }`, { token });
      expect(updated.updatePage.data.attributes).to.deep.equal({ title: 'Temporaire', locale: 'fr' });
      const deleted = await gqlData(app, `mutation { deletePage(id: ${id}, locale: "fr") { data { id attributes { locale } } } }`, { token });
      expect(deleted.deletePage.data.id).to.equal(id);
    });

    it('createPageLocalization copies the shared fields, not the relations, links the group and answers as selected', async () => {
      const source = await rest('POST', '/api/pages', { data: { title: 'Contact', slug: `contact-${dialect}`, order: 7, category } });
      const data = await gqlData(app, CREATE_LOCALIZATION, { token, variables: { id: source.data.id, locale: 'fr', data: { title: 'Contact FR', slug: `contact-fr-${dialect}` } } });
      const created = data.createPageLocalization.data;
      expect(created.attributes).to.deep.include({ title: 'Contact FR', order: 7, locale: 'fr', publishedAt: null, category: { data: null } });
      expect(created.attributes.localizations.data.map((entry: { id: string }) => Number(entry.id))).to.deep.equal([source.data.id]);
      // The same group REST sees, from the source's side (the new one is a draft: preview).
      const group = await rest('GET', `/api/pages/${source.data.id}?populate[localizations][fields][0]=locale&publicationState=preview`);
      expect(group.data.attributes.localizations.data.map((entry: { id: number }) => entry.id)).to.deep.equal([Number(created.id)]);
    });

    it('createPageLocalization has REST\'s errors: a used locale, a missing one, an unknown entry', async () => {
      const used = await gql(app, CREATE_LOCALIZATION, { token, variables: { id: ids.home, locale: 'fr', data: { title: 'Encore', slug: `encore-${dialect}` } } });
      expect(used.status).to.equal(200);
      expect(used.body.data).to.deep.equal({ createPageLocalization: null });
      expect(used.body.errors![0].message).to.equal('locale is already used');
      expect(used.body.errors![0].extensions).to.deep.equal({ error: { name: 'ApplicationError', message: 'locale is already used', details: {} }, code: 'STRAPI_APPLICATION_ERROR' });
      const restUsed = await app.post(`/api/pages/${ids.home}/localizations`, { locale: 'fr', title: 'Encore', slug: 'encore' }, { token });
      expect(restUsed.body.error.message).to.equal(used.body.errors![0].message);
      const missing = await gql(app, CREATE_LOCALIZATION, { token, variables: { id: ids.about, data: { title: 'Sans' } } });
      expect(missing.body.errors![0].extensions!.error!.message).to.equal('locale is missing');
      const unknown = await gql(app, CREATE_LOCALIZATION, { token, variables: { id: 999999, locale: 'de', data: { title: 'Nope' } } });
      // Recorded from Strapi 4.26.2.
      expect(unknown.body).to.deep.equal({
        errors: [{ message: 'Entity not found', extensions: { error: { name: 'NotFoundError', message: 'Entity not found', details: {} }, code: 'STRAPI_NOT_FOUND_ERROR' } }],
        data: { createPageLocalization: null },
      });
    });

    it('createPageLocalization needs the createLocalization permission', async () => {
      const variables = { id: ids.about, locale: 'de', data: { title: 'Über', slug: `ueber-${dialect}` } };
      const anonymous = await gql(app, CREATE_LOCALIZATION, { variables });
      expect(anonymous.body.data).to.deep.equal({ createPageLocalization: null });
      expect(anonymous.body.errors![0].extensions!.code).to.equal('FORBIDDEN');
      const { accessKey } = await app.app.apiTokens.create({ name: `create-only-${dialect}`, type: 'custom', permissions: ['api::page.page.create', 'api::page.page.find'] });
      const createOnly = await gql(app, CREATE_LOCALIZATION, { token: accessKey, variables });
      expect(createOnly.body.errors![0].extensions!.code).to.equal('FORBIDDEN');
      const de = await gqlIds({ locale: 'de', state: 'PREVIEW' });
      expect(de).to.have.length(2); // Startseite and Hallo: nothing written by the refused calls
    });
  });

  describe('locales', () => {
    it('i18NLocales and i18NLocale read the locales; there are no locale mutations', async () => {
      const data = await gqlData(app, '{ i18NLocales(sort: "id:asc") { data { id attributes { code name } } meta { pagination { total } } } }', { token });
      expect(data.i18NLocales.data.map((entry: any) => entry.attributes.code)).to.deep.equal(['en', 'fr', 'de']);
      expect(data.i18NLocales.meta.pagination.total).to.equal(3);
      const filtered = await gqlData(app, '{ i18NLocales(filters: { code: { eq: "fr" } }) { data { id attributes { name } } } }', { token });
      expect(filtered.i18NLocales.data).to.have.length(1);
      expect(filtered.i18NLocales.data[0].attributes.name).to.equal('French (fr)');
      const one = await gqlData(app, `{ i18NLocale(id: ${filtered.i18NLocales.data[0].id}) { data { attributes { code } } } }`, { token });
      expect(one.i18NLocale.data.attributes.code).to.equal('fr');
      const mutation = await gql(app, 'mutation { createI18NLocale(data: { code: "it" }) { data { id } } }', { token });
      expect(mutation.status).to.equal(400);
    });
  });

  describe('a localized single type', () => {
    const read = async (locale?: string) => {
      const args = locale === undefined ? '' : `(locale: "${locale}")`;
      return (await gqlData(app, `{ homepage${args} { data { attributes { title theme locale } } } }`, {})).homepage.data;
    };

    it('updateHomepage(locale) creates that locale\'s entry with the shared values; homepage(locale) reads it', async () => {
      await gqlData(app, 'mutation { updateHomepage(data: { title: "Welcome", theme: "dark" }) { data { id } } }', { token });
      const fr = await gqlData(app, 'mutation { updateHomepage(data: { title: "Bienvenue" }, locale: "fr") { data { attributes { title theme locale } } } }', { token });
      expect(fr.updateHomepage.data.attributes).to.deep.equal({ title: 'Bienvenue', theme: 'dark', locale: 'fr' });
      expect((await read()).attributes).to.deep.equal({ title: 'Welcome', theme: 'dark', locale: 'en' });
      expect((await read('fr')).attributes).to.deep.equal({ title: 'Bienvenue', theme: 'dark', locale: 'fr' });
      expect(await read('de')).to.equal(null);
      // The same entry as REST's ?locale=fr.
      const restFr = await app.get('/api/homepage?locale=fr');
      expect(restFr.body.data.attributes.title).to.equal('Bienvenue');
    });

    it('deleteHomepage(locale) deletes that locale\'s entry only', async () => {
      const deleted = await gqlData(app, 'mutation { deleteHomepage(locale: "fr") { data { attributes { locale } } } }', { token });
      expect(deleted.deleteHomepage.data.attributes.locale).to.equal('fr');
      expect(await read('fr')).to.equal(null);
      expect((await read()).attributes.title).to.equal('Welcome');
    });
  });

  describe('query count', () => {
    before(async function () {
      this.timeout(120000);
      for (let n = 0; n < 20; n++) {
        const id = (await rest('POST', '/api/pages', { data: { title: `Bulk ${n}`, slug: `bulk-${n}`, order: n } })).data.id;
        await rest('POST', `/api/pages/${id}/localizations`, { locale: 'fr', title: `Masse ${n}`, slug: `masse-${n}`, publishedAt: '2024-01-01T00:00:00.000Z' });
      }
    });

    async function count(locale: string, size: number) {
      const queries: string[] = [];
      const stop = app.app.db.sql.onQuery((sql) => queries.push(sql));
      try {
        const data = await gqlData(app, WITH_LOCALIZATIONS, { token, variables: { locale, size } });
        return { queries: queries.filter((sql) => !/strapi_api_token/.test(sql)), data };
      } finally {
        stop();
      }
    }

    it('a list of N entries with their localizations costs a fixed number of SQL queries', async () => {
      const small = await count('fr', 3);
      const large = await count('fr', 22);
      expect(small.data.pages.data).to.have.length(3);
      expect(large.data.pages.data).to.have.length(22);
      const bulk = large.data.pages.data.find((entry: any) => entry.attributes.title === 'Masse 19');
      expect(bulk.attributes.localizations.data.map((entry: any) => entry.attributes.title)).to.deep.equal(['Bulk 19']);
      // The page and the localizations (one query for all entries); no count without meta.
      expect(large.queries.length).to.equal(small.queries.length);
      expect(large.queries.length).to.be.at.most(3);
    });
  });

  describe('the schema, against Strapi 4.26\'s for the localized page', () => {
    let ours: Map<string, string[]>;
    const reference = blocks(fs.readFileSync(path.join(SHARED_REFERENCE, 'strapi4-graphql-schema.graphql'), 'utf8'));
    before(async () => {
      const data = await gqlData(app, getIntrospectionQuery(), { token });
      ours = blocks(printSchema(lexicographicSortSchema(buildClientSchema(data))));
    });

    it('has the I18N types and the Page types Strapi generates, the same', () => {
      const names = [...reference.keys()].filter((name) => /^(I18N|Page)/.test(name));
      expect(names).to.include.members(['I18NLocale', 'I18NLocaleCode', 'I18NLocaleEntityResponseCollection', 'I18NLocaleFiltersInput', 'Page', 'PageInput', 'PageFiltersInput', 'PageRelationResponseCollection']);
      for (const name of names) {
        expect(ours.has(name), `missing ${name}`).to.equal(true);
        let expected = reference.get(name)!;
        // The spec's <Type>Input carries the timestamps too (accepted and ignored, as REST ignores them).
        if (name === 'PageInput') expected = [...expected, 'createdAt: DateTime', 'updatedAt: DateTime'];
        const [header, ...fields] = ours.get(name)!;
        expect(header, name).to.equal(expected[0]);
        expect([...fields].sort(), name).to.deep.equal(expected.slice(1).sort());
      }
    });

    it('has the same localized queries and mutations, with the same arguments', () => {
      for (const root of ['Query', 'Mutation']) {
        const expected = reference.get(root)!.slice(1).filter((line) => /^(i18NLocale|pages?\(|(create|update|delete)Page(Localization)?\()/.test(line));
        expect(expected.length).to.equal(4);
        for (const line of expected) expect(ours.get(root), `${root}: ${line}`).to.include(line);
        const localeMutations = ours.get(root)!.filter((line) => /I18NLocale\(/.test(line) && /^(create|update|delete)/.test(line));
        expect(localeMutations, root).to.deep.equal([]);
      }
      expect(ours.get('Query')).to.include('homepage(locale: I18NLocaleCode): HomepageEntityResponse');
      expect(ours.get('Mutation')).to.include.members(['updateHomepage(data: HomepageInput!, locale: I18NLocaleCode): HomepageEntityResponse', 'deleteHomepage(locale: I18NLocaleCode): HomepageEntityResponse']);
    });
  });
});

/** `type X {...}` blocks of a printed schema, by name: the header, then one line per field (descriptions left out). */
function blocks(sdl: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  const pattern = /^(?:type|input|enum|union|scalar) (\w+)([^\n]*)(?:\n((?: {2}.*\n)*)\})?/gm;
  for (const match of sdl.matchAll(pattern)) {
    const lines = (match[3] ?? '').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('"""') && !line.endsWith('"""'));
    result.set(match[1], [match[2].trim(), ...lines]);
  }
  return result;
}
