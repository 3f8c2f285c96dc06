/**
 * Who may change a group of localizations (issue 23, finding 3). A create
 * is one new entry: the `localizations` a client sends with it are ignored,
 * as on update, so the `create` permission never writes other entries. Only
 * `POST /api/<plural>/:id/localizations` and `create<Type>Localization`
 * link entries, and a group never holds one locale twice, even when such
 * requests race. Each attack is checked by reading every entry it aimed at.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { gql } from '../../graphql/test/helpers';
import { errorBody, HOMEPAGE_SCHEMA, PUBLIC, startI18nApp } from './fixture';

const FILES = {
  'config/plugins.js': 'module.exports = { graphql: { enabled: true } };',
  'src/api/homepage/content-types/homepage/schema.json': HOMEPAGE_SCHEMA,
  'config/permissions.ts': `export default { public: ${JSON.stringify(PUBLIC)} };`,
};

const CREATE_LOCALIZATION = `mutation ($id: ID, $data: PageInput, $locale: I18NLocaleCode) {
  createPageLocalization(id: $id, data: $data, locale: $locale) { data { id attributes { locale } } }
}`;

interface Stored {
  order: number | null;
  locale: string;
  localizations: number[];
}

eachDatabase('i18n: only the localization operations link entries', (dialect) => {
  let app: TestApp;
  let token: string;
  /** `create` and `find` on pages, not `update` nor `createLocalization`. */
  let creator: string;
  const ids: Record<string, number> = {};

  /** An entry as stored, drafts included, with the ids of its group. */
  const stored = async (id: number): Promise<Stored> => {
    const response = await app.get(`/api/pages/${id}?publicationState=preview&fields[0]=order&fields[1]=locale&populate[localizations][fields][0]=id`, { token });
    expect(response.status, response.text).to.equal(200);
    const { order, locale, localizations } = response.body.data.attributes;
    return { order, locale, localizations: localizations.data.map((entry: { id: number }) => entry.id).sort((a: number, b: number) => a - b) };
  };
  const localeCount = async (locale: string, slugPrefix: string) => {
    const response = await app.get(`/api/pages?locale=${locale}&publicationState=preview&filters[slug][$startsWith]=${slugPrefix}`, { token });
    return response.body.data.length as number;
  };
  const created = async (data: Record<string, unknown>) => {
    const response = await app.post('/api/pages', { data }, { token });
    expect(response.status, response.text).to.equal(200);
    return response.body.data.id as number;
  };

  before(async () => {
    ({ app, token } = await startI18nApp(dialect, { files: FILES }));
    ({ accessKey: creator } = await app.app.apiTokens.create({ name: 'creator', type: 'custom', permissions: ['api::page.page.create', 'api::page.page.find'] }));
    ids.en = await created({ title: 'Home', slug: 'home', order: 1 });
    const fr = await app.post(`/api/pages/${ids.en}/localizations`, { locale: 'fr', title: 'Accueil', slug: 'accueil', publishedAt: '2024-01-01T00:00:00.000Z' }, { token });
    expect(fr.status, fr.text).to.equal(200);
    ids.fr = fr.body.id;
    ids.draft = await created({ title: 'Draft', slug: 'draft', order: 2, publishedAt: null });
  });
  after(() => app?.stop());

  it('before any attack: en and fr form one group, the draft is alone', async () => {
    expect(await stored(ids.en)).to.deep.equal({ order: 1, locale: 'en', localizations: [ids.fr] });
    expect(await stored(ids.fr)).to.deep.equal({ order: 1, locale: 'fr', localizations: [ids.en] });
    expect(await stored(ids.draft)).to.deep.equal({ order: 2, locale: 'en', localizations: [] });
  });

  it('REST create naming an existing entry as a localization neither links it nor writes its shared field', async () => {
    const response = await app.post('/api/pages', { data: { title: 'Evil', slug: 'evil-1', order: 99, locale: 'de', localizations: [ids.en] } }, { token: creator });
    expect(response.status, response.text).to.equal(200);
    expect(await stored(response.body.data.id)).to.deep.equal({ order: 99, locale: 'de', localizations: [] });
    expect(await stored(ids.en)).to.deep.equal({ order: 1, locale: 'en', localizations: [ids.fr] });
    expect(await stored(ids.fr)).to.deep.equal({ order: 1, locale: 'fr', localizations: [ids.en] });
  });

  it('REST create naming a draft as a localization leaves the draft as it was', async () => {
    const response = await app.post('/api/pages', { data: { title: 'Evil', slug: 'evil-2', order: 98, locale: 'fr', localizations: [ids.draft] } }, { token: creator });
    expect(response.status, response.text).to.equal(200);
    expect(await stored(ids.draft)).to.deep.equal({ order: 2, locale: 'en', localizations: [] });
  });

  it('REST create in a locale a group already has cannot join it: no group holds two en, no dangling link', async () => {
    const response = await app.post('/api/pages', { data: { title: 'Evil', slug: 'evil-3', locale: 'en', localizations: [ids.fr] } }, { token: creator });
    expect(response.status, response.text).to.equal(200);
    expect((await stored(response.body.data.id)).localizations).to.deep.equal([]);
    expect(await stored(ids.en)).to.deep.equal({ order: 1, locale: 'en', localizations: [ids.fr] });
    expect(await stored(ids.fr)).to.deep.equal({ order: 1, locale: 'fr', localizations: [ids.en] });
  });

  it('server code creating through the entity service cannot link either', async () => {
    const entry = await app.app.entityService.create('api::page.page', { data: { title: 'Server', slug: 'server', locale: 'de', localizations: [ids.en] } });
    expect((await stored(entry.id)).localizations).to.deep.equal([]);
    expect((await stored(ids.en)).localizations).to.deep.equal([ids.fr]);
  });

  it('GraphQL createPage has no localizations input: the request is refused and writes nothing', async () => {
    const response = await gql(app, `mutation ($ids: [ID]) { createPage(data: { title: "Evil", slug: "evil-gql", order: 97, localizations: $ids }, locale: "de") { data { id } } }`, {
      token: creator,
      variables: { ids: [ids.en] },
    });
    expect(response.status).to.equal(400);
    expect(response.body.errors![0].message).to.match(/localizations/);
    expect(await localeCount('de', 'evil-gql')).to.equal(0);
    expect(await stored(ids.en)).to.deep.equal({ order: 1, locale: 'en', localizations: [ids.fr] });
  });

  it('REST: racing localizations of one entry in one locale create one entry; the others are a 400', async () => {
    const source = await created({ title: 'Race', slug: 'race', order: 3 });
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => app.post(`/api/pages/${source}/localizations`, { locale: 'de', title: `Rennen ${n}`, slug: `race-de-${n}` }, { token })),
    );
    expect(answers.map((answer) => answer.status).sort()).to.deep.equal([200, 400, 400, 400, 400]);
    for (const answer of answers.filter((each) => each.status === 400)) expect(answer.body).to.deep.equal(errorBody(400, 'ApplicationError', 'locale is already used'));
    expect(await localeCount('de', 'race-de-')).to.equal(1);
    const winner = answers.find((answer) => answer.status === 200)!.body.id;
    expect((await stored(source)).localizations).to.deep.equal([winner]);
  });

  it('GraphQL: racing createPageLocalization from two members of one group in one locale create one entry', async () => {
    const source = await created({ title: 'Course', slug: 'course', order: 4 });
    const fr = await app.post(`/api/pages/${source}/localizations`, { locale: 'fr', title: 'Course FR', slug: 'course-fr' }, { token });
    expect(fr.status, fr.text).to.equal(200);
    const answers = await Promise.all(
      [1, 2, 3, 4].map((n) => gql(app, CREATE_LOCALIZATION, { token, variables: { id: n % 2 ? source : fr.body.id, locale: 'de', data: { title: `Lauf ${n}`, slug: `course-de-${n}` } } })),
    );
    const errors = answers.filter((answer) => answer.body.errors).map((answer) => answer.body.errors![0].extensions!.error);
    expect(errors).to.deep.equal([1, 2, 3].map(() => ({ name: 'ApplicationError', message: 'locale is already used', details: {} })));
    expect(await localeCount('de', 'course-de-')).to.equal(1);
    const de = Number(answers.find((answer) => !answer.body.errors)!.body.data.createPageLocalization.data.id);
    expect((await stored(source)).localizations).to.deep.equal([fr.body.id, de].sort((a, b) => a - b));
    expect((await stored(de)).localizations).to.deep.equal([source, fr.body.id].sort((a, b) => a - b));
  });

  it('a single type holds one entry per locale: a PUT whose data names a used locale is a 400 and writes nothing', async () => {
    expect((await app.put('/api/homepage', { data: { title: 'Welcome', theme: 'dark' } }, { token })).status).to.equal(200);
    const twice = await app.put('/api/homepage?locale=fr', { data: { title: 'Again', locale: 'en' } }, { token });
    expect(twice.body).to.deep.equal(errorBody(400, 'ApplicationError', 'locale is already used'));
    const entries = await app.app.db.query('api::homepage.homepage').findMany({ select: ['title', 'locale'] });
    expect(entries.map((entry) => `${entry.locale}:${entry.title}`)).to.deep.equal(['en:Welcome']);
  });

  it('server code racing to create a single type\'s entry in one locale creates one', async () => {
    const attempts = await Promise.allSettled([1, 2, 3, 4].map((n) => app.app.entityService.create('api::homepage.homepage', { data: { title: `Hallo ${n}`, locale: 'de' } })));
    expect(attempts.map((attempt) => attempt.status).sort()).to.deep.equal(['fulfilled', 'rejected', 'rejected', 'rejected']);
    for (const attempt of attempts) if (attempt.status === 'rejected') expect((attempt.reason as Error).message).to.equal('locale is already used');
    const entries = await app.app.db.query('api::homepage.homepage').findMany({ select: ['locale'], orderBy: { id: 'asc' } });
    expect(entries.map((entry) => entry.locale)).to.deep.equal(['en', 'de']);
  });
});
