/**
 * The extension service as a Strapi v4 app uses it: `src/index.js` written
 * the Strapi way (CommonJS, `register({ strapi })`, `bootstrap({ strapi })`,
 * `strapi.plugin('graphql').service('extension')`), with SDL typeDefs and
 * resolvers, nexus types, resolversConfig (auth, policies, middlewares, on
 * generated, custom and nested resolvers) and every shadowCRUD switch.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, bootError, eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { exampleFiles, gql, gqlData, startBlog } from './helpers';

const INDEX_JS = `
'use strict';

module.exports = {
  register({ strapi }) {
    const extensionService = strapi.plugin('graphql').service('extension');

    extensionService.shadowCRUD('api::writer-profile.writer-profile').disable();
    extensionService.shadowCRUD('api::tag.tag').disableMutations();
    extensionService.shadowCRUD('api::page.page').disableQueries();
    extensionService.shadowCRUD('api::article.article').disableAction('delete');
    extensionService.shadowCRUD('api::writer.writer').disableActions(['create', 'update']);
    extensionService.shadowCRUD('api::article.article').field('summary').disable();
    extensionService.shadowCRUD('api::article.article').field('body').disableOutput();
    extensionService.shadowCRUD('api::article.article').field('slug').disableInput();
    extensionService.shadowCRUD('api::article.article').field('views').disableFilters();

    extensionService.use(({ nexus, strapi, typeRegistry }) => ({
      types: [
        nexus.extendType({
          type: 'Article',
          definition(t) {
            t.string('shout', { resolve: (parent) => String(parent.title).toUpperCase() + ' (' + parent.views + ')' });
          },
        }),
        nexus.extendType({
          type: 'Query',
          definition(t) {
            t.int('articleCount', { resolve: () => strapi.entityService.count('api::article.article') });
            t.boolean('registryKnowsArticle', { resolve: () => typeRegistry.has('Article') && typeRegistry.has('ArticleFiltersInput') });
          },
        }),
      ],
      typeDefs: \`
        type Stats { categories: Int!, caller: String }
        type Orphan { unused: Int }
        extend type Query {
          featured(limit: Int): ArticleEntityResponseCollection
          stats: Stats
          broken: String
        }
      \`,
      resolvers: {
        Query: {
          featured: {
            async resolve(parent, args) {
              const nodes = await strapi.entityService.findMany('api::article.article', { filters: { featured: true }, sort: 'id', limit: args.limit || 3 });
              return strapi.plugin('graphql').service('format').returnTypes.toEntityResponseCollection(nodes, { args, resourceUID: 'api::article.article' });
            },
          },
          async stats(parent, args, context) {
            return { categories: await strapi.service('api::category.category').find({}).then((page) => page.pagination.total), caller: context.state.auth.strategy.name };
          },
          broken() {
            throw new Error('secret stack details');
          },
        },
      },
      resolversConfig: {
        'Query.featured': {
          auth: false,
          middlewares: [async (next, parent, args, context, info) => {
            const result = await next(parent, args, context, info);
            context.koaContext.set('x-featured-count', String(result.data.length));
            return result;
          }],
        },
        'Query.stats': { auth: false },
        'Query.broken': { auth: false },
        'Query.writers': { auth: { scope: ['api::tag.tag.create'] } },
        'Query.categories': {
          middlewares: [
            async (next, parent, args, context, info) => {
              globalThis.__graphqlOrder.push('middleware 1');
              return next(parent, args, context, info);
            },
            'global::order-mark',
          ],
          policies: [
            (policyContext) => {
              globalThis.__graphqlOrder.push('policy');
              return policyContext.http.get('x-deny') !== 'yes' && policyContext.state.auth !== undefined && policyContext.args.sort !== undefined;
            },
            { name: 'global::header-is', config: { header: 'x-team', value: 'blue' } },
          ],
        },
      },
    }));
  },

  bootstrap({ strapi }) {
    const extensionService = strapi.plugin('graphql').service('extension');
    extensionService.use({
      resolversConfig: {
        'Article.category': {
          middlewares: [async (next, parent, args, context, info) => {
            const result = await next(parent, args, context, info);
            if (result.data) result.data = { ...result.data, name: result.data.name + ' (via middleware)' };
            return result;
          }],
        },
        'Category.articles': { policies: [(policyContext) => policyContext.http.get('x-hide-articles') !== 'yes'] },
      },
    });
    const article = extensionService.shadowCRUD('api::article.article');
    const tag = extensionService.shadowCRUD('api::tag.tag');
    const profile = extensionService.shadowCRUD('api::writer-profile.writer-profile');
    globalThis.__graphqlGetters = {
      profile: { isEnabled: profile.isEnabled(), isDisabled: profile.isDisabled() },
      tag: {
        areQueriesEnabled: tag.areQueriesEnabled(), areQueriesDisabled: tag.areQueriesDisabled(),
        areMutationsEnabled: tag.areMutationsEnabled(), areMutationsDisabled: tag.areMutationsDisabled(),
      },
      article: {
        isActionEnabledFind: article.isActionEnabled('find'), isActionDisabledDelete: article.isActionDisabled('delete'),
        summary: { isEnabled: article.field('summary').isEnabled(), isDisabled: article.field('summary').isDisabled() },
        body: { hasOutputEnabled: article.field('body').hasOutputEnabled(), hasInputEnabled: article.field('body').hasInputEnabled(), hasFiltersEnabled: article.field('body').hasFiltersEnabled() },
        views: { hasFiltersEnabled: article.field('views').hasFiltersEnabled(), hasOutputEnabled: article.field('views').hasOutputEnabled() },
      },
    };
  },
};
`;

/** The example app's files with this app's entry, the `src/index.js` above. */
const FILES = {
  ...exampleFiles(),
  'src/index.js': INDEX_JS,
  'src/policies/header-is.js': `module.exports = (policyContext, config) => policyContext.http.get(config.header) === config.value;\n`,
  'src/middlewares/order-mark.js': `module.exports = () => async (next, parent, args, context, info) => { globalThis.__graphqlOrder.push('middleware 2'); return next(parent, args, context, info); };\n`,
};

declare global {
  // eslint-disable-next-line no-var
  var __graphqlOrder: string[];
  // eslint-disable-next-line no-var
  var __graphqlGetters: any;
  // eslint-disable-next-line no-var
  var __secretMiddleware: number;
}

eachDatabase('GraphQL extension service (a Strapi v4 src/index.js)', (dialect) => {
  let app: TestApp;
  let token: string;
  let fields: (type: string) => Promise<string[]>;
  before(async function () {
    globalThis.__graphqlOrder = [];
    ({ app, token } = await startBlog(dialect, { from: undefined, files: FILES }));
    fields = async (type: string) => {
      const data = await gqlData(app, `{ __type(name: "${type}") { fields { name } inputFields { name } } }`);
      if (!data.__type) return [];
      return (data.__type.fields ?? data.__type.inputFields).map((field: { name: string }) => field.name);
    };
  });
  after(() => app?.stop());

  it('typeDefs with resolvers: a custom query returning generated types; nested relations load in a batch', async () => {
    const data = await gqlData(app, '{ featured(limit: 2) { data { id attributes { title featured category { data { attributes { name } } } } } meta { pagination { total pageSize } } } }');
    expect(data.featured.data.map((entry: any) => entry.attributes.title)).to.deep.equal(['Article 2', 'Article 4']);
    expect(data.featured.data.every((entry: any) => entry.attributes.featured === true)).to.equal(true);
    expect(data.featured.data[0].attributes.category.data.attributes.name).to.equal('Gamma (via middleware)');
    expect(data.featured.meta.pagination).to.deep.equal({ total: 2, pageSize: 2 });
    const stats = await gqlData(app, '{ stats { categories caller } }');
    expect(stats.stats).to.deep.equal({ categories: 3, caller: 'public' });
  });

  it('an extension type nothing reaches is pruned, as Strapi prunes its schema; a reachable one stays', async () => {
    const data = await gqlData(app, '{ orphan: __type(name: "Orphan") { name } stats: __type(name: "Stats") { name } }');
    expect(data).to.deep.equal({ orphan: null, stats: { name: 'Stats' } });
  });

  it('nexus types: a field on a generated type (its resolver sees every attribute) and on Query; the type registry', async () => {
    const data = await gqlData(app, `{ article(id: 1) { data { attributes { shout } } } articleCount registryKnowsArticle }`, { token });
    expect(data.article.data.attributes.shout).to.equal('ARTICLE 1 (10)');
    expect(data.articleCount).to.equal(12);
    expect(data.registryKnowsArticle).to.equal(true);
  });

  it('resolversConfig auth: false opens a resolver; no config means any credential; a scope replaces the action', async () => {
    expect((await gql(app, '{ featured { data { id } } }')).status).to.equal(200);
    // Anonymous on a custom resolver without config: Strapi 4.26.2 answers every refusal on a field alike (recorded from it).
    const anonymous = await gql(app, '{ articleCount }');
    expect(anonymous.body).to.deep.equal({ errors: [{ message: 'Forbidden access', extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' } }], data: { articleCount: null } });
    expect((await gqlData(app, '{ articleCount }', { token })).articleCount).to.equal(12);
    const writers = await gql(app, '{ writers { data { id } } }');
    expect(writers.body.errors![0].extensions!.code).to.equal('FORBIDDEN');
    expect((await gqlData(app, '{ writers { data { id } } }', { token })).writers.data).to.have.length(2);
  });

  it('policies: functions and registered policies with config; false is a FORBIDDEN PolicyError; middlewares run first, in order', async () => {
    const query = '{ categories(sort: "name") { data { attributes { name } } } }';
    globalThis.__graphqlOrder = [];
    const allowed = await gql(app, query, { headers: { 'x-team': 'blue' } });
    expect(allowed.body.errors).to.equal(undefined);
    expect(allowed.body.data.categories.data).to.have.length(3);
    expect(globalThis.__graphqlOrder).to.deep.equal(['middleware 1', 'middleware 2', 'policy']);
    const denied = await gql(app, query, { headers: { 'x-team': 'blue', 'x-deny': 'yes' } });
    expect(denied.body).to.deep.equal({
      errors: [{ message: 'Policy Failed', extensions: { error: { name: 'PolicyError', message: 'Policy Failed', details: {} }, code: 'FORBIDDEN' } }],
      data: { categories: null },
    });
    const wrongTeam = await gql(app, query, { headers: { 'x-team': 'red' } });
    expect(wrongTeam.body.errors![0].message).to.equal('Policy Failed');
  });

  it('policies and middlewares on nested (relation) resolvers', async () => {
    const query = '{ categories(sort: "name") { data { attributes { name articles(pagination: { limit: 1 }) { data { id } } } } } }';
    const shown = await gql(app, query, { headers: { 'x-team': 'blue' } });
    expect(shown.body.data.categories.data[1].attributes.articles.data).to.have.length(1);
    const hidden = await gql(app, query, { headers: { 'x-team': 'blue', 'x-hide-articles': 'yes' } });
    expect(hidden.body.data.categories.data[1]).to.deep.equal({ attributes: { name: 'Beta', articles: null } });
    expect(hidden.body.errors!.every((error) => error.extensions!.code === 'FORBIDDEN')).to.equal(true);
    const article = await gqlData(app, '{ article(id: 1) { data { attributes { category { data { attributes { name } } } } } } }');
    expect(article.article.data.attributes.category.data.attributes.name).to.equal('Beta (via middleware)');
  });

  it('a resolver that crashes answers INTERNAL_SERVER_ERROR without its message', async () => {
    const response = await gql(app, '{ broken }');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({ errors: [{ message: 'Internal Server Error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }], data: { broken: null } });
    expect(response.text).to.not.contain('secret');
  });

  it('shadowCRUD disable switches remove types, operations and fields', async () => {
    expect(await fields('WriterProfile')).to.deep.equal([]);
    expect(await fields('Writer')).to.not.include('profile');
    const query = await fields('Query');
    const mutation = await fields('Mutation');
    expect(query).to.include.members(['tags', 'tag', 'articles', 'article', 'writers']);
    expect(query).to.not.include.members(['pages', 'page', 'writerProfiles']);
    expect(mutation).to.include.members(['createPage', 'createArticle', 'updateArticle', 'deleteWriter']);
    expect(mutation).to.not.include.members(['createTag', 'updateTag', 'deleteTag', 'deleteArticle', 'createWriter', 'updateWriter']);
    expect(await fields('Article')).to.not.include.members(['summary', 'body']);
    expect(await fields('ArticleInput')).to.include('body').and.not.include.members(['summary', 'slug']);
    expect(await fields('ArticleFiltersInput')).to.include.members(['body', 'slug']).and.not.include.members(['summary', 'views']);
  });

  it('shadowCRUD getters tell what is enabled', () => {
    expect(globalThis.__graphqlGetters).to.deep.equal({
      profile: { isEnabled: false, isDisabled: true },
      tag: { areQueriesEnabled: true, areQueriesDisabled: false, areMutationsEnabled: false, areMutationsDisabled: true },
      article: {
        isActionEnabledFind: true,
        isActionDisabledDelete: true,
        summary: { isEnabled: false, isDisabled: true },
        body: { hasOutputEnabled: false, hasInputEnabled: true, hasFiltersEnabled: true },
        views: { hasFiltersEnabled: false, hasOutputEnabled: true },
      },
    });
  });
});

eachDatabase('GraphQL without shadow CRUD', (dialect) => {
  it('shadowCRUD: false serves only what extensions declare (no Mutation type without mutations); nothing at all is a boot error', async () => {
    const index = `module.exports = { register({ strapi }) {
      strapi.plugin('graphql').service('extension').use({
        typeDefs: 'extend type Query { hello: String }',
        resolvers: { Query: { hello: () => 'world' } },
        resolversConfig: { 'Query.hello': { auth: false } },
      });
    } };`;
    const plugins = 'module.exports = { graphql: { enabled: true, config: { shadowCRUD: false } } };';
    const app = await startApp({ dialect, files: { 'src/index.js': index, 'config/plugins.js': plugins } });
    try {
      // This app's public role grants nothing: as Strapi 4.26.2, the endpoint asks for credentials before any field, `auth: false` ones too.
      const anonymous = await gql(app, '{ hello }');
      expect([anonymous.status, anonymous.body]).to.deep.equal([401, { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } }]);
      const data = await gqlData(app, '{ hello __schema { mutationType { name } types { name } } }', { token: await app.fullAccessToken() });
      expect(data.hello).to.equal('world');
      expect(data.__schema.mutationType).to.equal(null);
      expect(data.__schema.types.map((type: { name: string }) => type.name)).to.not.include.members(['Article', 'UploadFile', 'Mutation']);
    } finally {
      await app.stop();
    }
    const error = await bootError({ dialect, files: { 'config/plugins.js': plugins } });
    expect(error.message).to.equal('graphql: the schema is not valid: Type Query must define one or more fields.');
  });
});

describe('GraphQL extension typos', () => {
  const boot = (register: string) =>
    bootError({ dialect: 'sqlite', from: EXAMPLE_APP, files: { 'src/index.ts': `export default { register({ strapi }: any) { const ext = strapi.plugin('graphql').service('extension'); ${register} } };` } });

  it('refuses extendType on a type the schema does not have, naming the closest one', async () => {
    const error = await boot("ext.use(({ nexus }) => ({ types: [nexus.extendType({ type: 'Artcle', definition(t) { t.string('x'); } })] }));");
    expect(error.message).to.equal('graphql extension: extendType({ type: "Artcle" }) names no type of the schema (did you mean "Article"?)');
  });

  it('refuses extendInputType on a missing input type', async () => {
    const error = await boot("ext.use(({ nexus }) => ({ types: [nexus.extendInputType({ type: 'ArticleInptu', definition(t) { t.string('x'); } })] }));");
    expect(error.message).to.equal('graphql extension: extendInputType({ type: "ArticleInptu" }) names no type of the schema (did you mean "ArticleInput"?)');
  });

  it('creates the type an extendType names when no type is close to it, as nexus does on Strapi (strapi-plugin-fuzzy-search)', async () => {
    const types = "[nexus.extendType({ type: 'SearchResponse', definition(t) { t.string('query'); } }), nexus.extendType({ type: 'Query', definition(t) { t.field('search', { type: 'SearchResponse', resolve: () => ({ query: 'found' }) }); } })]";
    const app = await startApp({
      dialect: 'sqlite',
      from: EXAMPLE_APP,
      files: { 'src/index.ts': `export default { register({ strapi }: any) { strapi.plugin('graphql').service('extension').use(({ nexus }: any) => ({ types: ${types}, resolversConfig: { 'Query.search': { auth: false } } })); } };` },
    });
    try {
      expect(await gqlData(app, '{ search { query } }')).to.deep.equal({ search: { query: 'found' } });
    } finally {
      await app.stop();
    }
  });

  it('refuses shadowCRUD on a uid that is no content type', async () => {
    const error = await boot("ext.shadowCRUD('api::artcle.article').disable();");
    expect(error.message).to.equal('graphql extension: shadowCRUD("api::artcle.article") names no content type or component (did you mean "api::article.article"?)');
  });
});

eachDatabase('GraphQL resolversConfig names', (dialect) => {
  it('a bare policy name has no API or plugin to belong to: the app does not boot (Strapi 4.26.2: Could not find policy "always-true"); global:: works; auth on a nested field', async () => {
    const index = (policy: string) => `module.exports = { register({ strapi }) {
      strapi.plugin('graphql').service('extension').use({
        typeDefs: 'type Box { label: String secret: String } extend type Query { hello: String box: Box }',
        resolvers: { Query: { hello: () => 'world', box: () => ({ label: 'open', secret: 'kept' }) } },
        resolversConfig: {
          'Query.hello': { auth: false, policies: ['${policy}'] },
          'Query.box': { auth: false },
          'Box.secret': { auth: { scope: ['api::x.x.create'] }, middlewares: [(next, ...rest) => { globalThis.__secretMiddleware += 1; return next(...rest); }] },
        },
      });
    } };`;
    const files = (policy: string) => ({ 'src/index.js': index(policy), 'src/policies/always-true.js': 'module.exports = () => true;\n', 'config/plugins.js': 'module.exports = { graphql: { enabled: true } };' });
    const error = await bootError({ dialect, files: files('always-true') });
    expect(error.message).to.equal(
      'graphql resolversConfig["Query.hello"]: unknown policy "always-true" (a bare name has no API or plugin here: write global::always-true, api::<api>.always-true or plugin::<plugin>.always-true)',
    );
    const app = await startApp({ dialect, files: { ...files('global::always-true'), 'config/permissions.js': "module.exports = { public: ['api::x.x.find'] };" } });
    try {
      expect((await gqlData(app, '{ hello }')).hello).to.equal('world');
      // A field of any type whose config sets auth is authorized too (Strapi's rule), by the same decision,
      // before its middlewares run (Strapi's order).
      globalThis.__secretMiddleware = 0;
      expect((await gql(app, '{ box { label secret } }')).body).to.deep.equal({
        errors: [{ message: 'Forbidden access', extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' } }],
        data: { box: { label: 'open', secret: null } },
      });
      expect(globalThis.__secretMiddleware).to.equal(0);
      expect(await gqlData(app, '{ box { label secret } }', { token: await app.fullAccessToken() })).to.deep.equal({ box: { label: 'open', secret: 'kept' } });
      expect(globalThis.__secretMiddleware).to.equal(1);
    } finally {
      await app.stop();
    }
  });
});

describe('GraphQL extension SDL that defines a type a second time', () => {
  // Strapi's merge joins two definitions of one type: `type Query { … }` without `extend`, a generated type written
  // again with one more field. Such SDL takes the merge (schema/extension-sdl.ts), SDL that only adds does not.
  it('joins them: the new fields are served beside the generated ones', async () => {
    const index = `module.exports = { register({ strapi }) {
      strapi.plugin('graphql').service('extension').use({
        typeDefs: 'type Query { greeting: String } type Category { shout: String }',
        resolvers: { Query: { greeting: () => 'hi' }, Category: { shout: (parent) => parent.name.toUpperCase() } },
      });
    } };`;
    const app = await startApp({ dialect: 'sqlite', files: { ...exampleFiles(), 'src/index.js': index } });
    try {
      const token = await app.fullAccessToken();
      expect((await app.post('/api/categories', { data: { name: 'News' } }, { token })).status).to.equal(200);
      const data = await gqlData(app, '{ greeting categories { data { attributes { name shout } } } }', { token });
      expect(data).to.deep.equal({ greeting: 'hi', categories: { data: [{ attributes: { name: 'News', shout: 'NEWS' } }] } });
    } finally {
      await app.stop();
    }
  });
});
