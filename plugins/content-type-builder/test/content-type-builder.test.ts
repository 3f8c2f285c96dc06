/**
 * The content-type-builder's content API as Strapi 4.26.2 answers it (the
 * expected bodies are the peer's, on the same schemas): what build-time
 * sources such as gatsby-source-strapi read to learn the model. The listing
 * reads no table, so one database is enough.
 */
import { expect } from 'chai';
import { startApp, type TestApp } from '@tessera/testing';

const schema = (value: unknown): string => JSON.stringify(value);

const FILES = {
  'src/components/shared/quote.json': schema({ collectionName: 'components_shared_quotes', info: { displayName: 'Quote', icon: 'indent' }, attributes: { title: { type: 'string' }, body: { type: 'text' } } }),
  'src/api/author/content-types/author/schema.json': schema({
    kind: 'collectionType', collectionName: 'authors', info: { singularName: 'author', pluralName: 'authors', displayName: 'Author' }, options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' } },
  }),
  'src/api/article/content-types/article/schema.json': schema({
    kind: 'collectionType', collectionName: 'articles', info: { singularName: 'article', pluralName: 'articles', displayName: 'Article', description: 'Posts' }, options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      title: { type: 'string', required: true, pluginOptions: { i18n: { localized: true } } },
      cover: { type: 'media', allowedTypes: ['images'] },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' },
      blocks: { type: 'dynamiczone', components: ['shared.quote'] },
    },
  }),
  'src/api/about/content-types/about/schema.json': schema({
    kind: 'singleType', collectionName: 'abouts', info: { singularName: 'about', pluralName: 'abouts', displayName: 'About' },
    attributes: { quote: { type: 'component', repeatable: false, component: 'shared.quote' } },
  }),
};

const PLUGINS = {
  'users-permissions': { enabled: true, config: { jwtSecret: 'content-type-builder-test' } },
  i18n: { enabled: true },
  'content-type-builder': { enabled: true },
};

describe('content-type-builder content API (Strapi 4.26.2 answers)', () => {
  let app: TestApp;
  let token: string;
  before(async () => {
    app = await startApp({ dialect: 'sqlite', files: FILES, config: { plugins: PLUGINS } });
    token = await app.fullAccessToken();
  });
  after(() => app?.stop());

  it("formats an app's type as Strapi: its own visible attributes (no timestamps, publishedAt, createdBy, locale, localizations), media and relations with their defaults", async () => {
    const response = await app.request('GET', '/api/content-type-builder/content-types/api::article.article', { token });
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      data: {
        uid: 'api::article.article',
        apiID: 'article',
        schema: {
          draftAndPublish: true,
          displayName: 'Article',
          singularName: 'article',
          pluralName: 'articles',
          description: 'Posts',
          pluginOptions: { i18n: { localized: true } },
          kind: 'collectionType',
          collectionName: 'articles',
          attributes: {
            title: { type: 'string', required: true, pluginOptions: { i18n: { localized: true } } },
            cover: { type: 'media', multiple: false, required: false, private: false, allowedTypes: ['images'] },
            author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles', targetAttribute: 'articles', private: false },
            blocks: { type: 'dynamiczone', components: ['shared.quote'] },
          },
          visible: true,
          restrictRelationsTo: null,
        },
      },
    });
  });

  it('lists the types, of one kind with ?kind=, and a plugin type names its plugin; a bad kind is 400 with Strapi’s yup error', async () => {
    const all = await app.request('GET', '/api/content-type-builder/content-types', { token });
    const uids = (all.body as { data: Array<{ uid: string }> }).data.map((entry) => entry.uid);
    expect(uids).to.include.members(['api::about.about', 'api::article.article', 'api::author.author', 'plugin::upload.file', 'plugin::i18n.locale']);
    expect(uids.some((uid) => uid.startsWith('strapi::'))).to.equal(false);
    const single = await app.request('GET', '/api/content-type-builder/content-types?kind=singleType', { token });
    expect((single.body as { data: Array<{ uid: string }> }).data.map((entry) => entry.uid)).to.deep.equal(['api::about.about']);
    const locale = (all.body as { data: Array<{ uid: string; plugin?: string; apiID: string }> }).data.find((entry) => entry.uid === 'plugin::i18n.locale');
    expect([locale?.plugin, locale?.apiID]).to.deep.equal(['i18n', 'locale']);
    const bad = await app.request('GET', '/api/content-type-builder/content-types?kind=bogus', { token });
    expect([bad.status, (bad.body as { error: { name: string; message: string } }).error.message]).to.deep.equal([400, 'this must be one of the following values: singleType, collectionType']);
  });

  it('components: listed and by uid, with apiId and category; an unknown uid is 404 { error: "component.notFound" }', async () => {
    const one = await app.request('GET', '/api/content-type-builder/components/shared.quote', { token });
    expect(one.body).to.deep.equal({
      data: { uid: 'shared.quote', category: 'shared', apiId: 'quote', schema: { displayName: 'Quote', description: '', icon: 'indent', collectionName: 'components_shared_quotes', attributes: { title: { type: 'string' }, body: { type: 'text' } } } },
    });
    const list = await app.request('GET', '/api/content-type-builder/components', { token });
    expect((list.body as { data: unknown[] }).data).to.deep.equal([(one.body as { data: unknown }).data]);
    const missing = await app.request('GET', '/api/content-type-builder/components/shared.nope', { token });
    expect([missing.status, missing.body]).to.deep.equal([404, { error: 'component.notFound' }]);
    const missingType = await app.request('GET', '/api/content-type-builder/content-types/api::nope.nope', { token });
    expect([missingType.status, missingType.body]).to.deep.equal([404, { error: 'contentType.notFound' }]);
  });

  it("the users-permissions user type lists Strapi's attributes (Tessera's passwordChangedAt is not visible)", async () => {
    const response = await app.request('GET', '/api/content-type-builder/content-types/plugin::users-permissions.user', { token });
    expect(Object.keys((response.body as { data: { schema: { attributes: object } } }).data.schema.attributes)).to.deep.equal([
      'username', 'email', 'provider', 'password', 'resetPasswordToken', 'confirmationToken', 'confirmed', 'blocked', 'role',
    ]);
  });

  it('is a content-API action: the public role cannot read the model', async () => {
    const anonymous = await app.request('GET', '/api/content-type-builder/content-types');
    expect([anonymous.status, (anonymous.body as { error: { name: string } }).error.name]).to.deep.equal([403, 'ForbiddenError']);
  });
});

/**
 * On Strapi 4.26.2 the content-type builder is a core plugin: every app has its content API, gated by its actions
 * (recorded on the peer: GET /api/content-type-builder/content-types answers 403 ForbiddenError to an anonymous
 * caller and 200 to a full-access token). A Tessera app that names no plugin and depends on nothing gets it too.
 */
describe('content-type-builder content API: on by default, behind its actions', () => {
  let app: TestApp;
  before(async () => {
    // Only users-permissions named (every Strapi app has it: the public role is its), not the content-type builder.
    app = await startApp({
      dialect: 'sqlite',
      files: { 'src/components/shared/quote.json': FILES['src/components/shared/quote.json'] },
      config: { plugins: { 'users-permissions': PLUGINS['users-permissions'] } },
    });
  });
  after(() => app?.stop());

  it('a full-access token reads the model; the public role is refused', async () => {
    const token = await app.fullAccessToken();
    const listed = await app.request('GET', '/api/content-type-builder/components', { token });
    expect([listed.status, (listed.body as { data: Array<{ uid: string }> }).data.map((component) => component.uid)]).to.deep.equal([200, ['shared.quote']]);
    const anonymous = await app.request('GET', '/api/content-type-builder/components');
    expect([anonymous.status, (anonymous.body as { error: { name: string } }).error.name]).to.deep.equal([403, 'ForbiddenError']);
  });

  it('config/plugins may turn it off', async () => {
    const off = await startApp({ dialect: 'sqlite', files: {}, config: { plugins: { 'content-type-builder': { enabled: false } } } });
    try {
      const token = await off.fullAccessToken();
      expect((await off.request('GET', '/api/content-type-builder/components', { token })).status).to.equal(404);
    } finally {
      await off.stop();
    }
  });
});
