/**
 * Shadow CRUD over real HTTP on both databases: every query and mutation,
 * the same ids as REST for the same filters, sort, pagination and
 * publication state, relations with their own arguments, components,
 * dynamic zones and media, and errors in Strapi's format.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { create, gql, gqlData, ids, startBlog, type Blog } from './helpers';

const LIST = `query ($filters: ArticleFiltersInput, $sort: [String], $pagination: PaginationArg, $state: PublicationState) {
  articles(filters: $filters, sort: $sort, pagination: $pagination, publicationState: $state) {
    data { id }
    meta { pagination { page pageSize pageCount total } }
  }
}`;

/** The same question to both transports: [GraphQL variables, REST query string]. */
const PARITY: Array<[string, Record<string, unknown>, string]> = [
  ['no parameters', {}, ''],
  ['a filter, a sort and a page', { filters: { views: { gt: 30 } }, sort: ['views:desc'], pagination: { page: 2, pageSize: 3 } }, 'filters[views][$gt]=30&sort=views:desc&pagination[page]=2&pagination[pageSize]=3'],
  ['or / and / not', { filters: { or: [{ views: { lt: 30 } }, { and: [{ featured: { eq: true } }, { not: { views: { gte: 100 } } }] }] } }, 'filters[$or][0][views][$lt]=30&filters[$or][1][$and][0][featured][$eq]=true&filters[$or][1][$and][1][$not][views][$gte]=100'],
  ['through a relation', { filters: { category: { name: { eq: 'Beta' } } }, sort: ['title:asc'] }, 'filters[category][name][$eq]=Beta&sort=title:asc'],
  ['in / between / containsi', { filters: { id: { in: ['1', '2', '4', '5', '7'] }, views: { between: [15, 75] }, title: { containsi: 'ARTICLE' } } }, 'filters[id][$in][0]=1&filters[id][$in][1]=2&filters[id][$in][2]=4&filters[id][$in][3]=5&filters[id][$in][4]=7&filters[views][$between][0]=15&filters[views][$between][1]=75&filters[title][$containsi]=ARTICLE'],
  ['an enum, a date and null', { filters: { status: { eq: 'approved' }, publishDate: { gte: '2024-01-04' }, summary: { null: true } } }, 'filters[status][$eq]=approved&filters[publishDate][$gte]=2024-01-04&filters[summary][$null]=true'],
  ['a component', { filters: { seo: { metaTitle: { startsWith: 'SEO 1' } } } }, 'filters[seo][metaTitle][$startsWith]=SEO%201'],
  ['offset pagination and two sorts', { sort: ['featured:desc', 'views:asc'], pagination: { start: 2, limit: 4 } }, 'sort[0]=featured:desc&sort[1]=views:asc&pagination[start]=2&pagination[limit]=4'],
  ['preview', { state: 'PREVIEW', sort: ['id:desc'], pagination: { pageSize: 5 } }, 'publicationState=preview&sort=id:desc&pagination[pageSize]=5'],
  ['drafts only', { state: 'PREVIEW', filters: { publishedAt: { null: true } } }, 'publicationState=preview&filters[publishedAt][$null]=true'],
];

eachDatabase('GraphQL queries and mutations', (dialect) => {
  let blog: Blog;
  let app: TestApp;
  let token: string;
  before(async function () {
    blog = await startBlog(dialect);
    ({ app, token } = blog);
  });
  after(() => app?.stop());

  describe('collection queries', () => {
    it('a list without arguments: published entries only, 10 per page, with Strapi meta', async () => {
      const data = await gqlData(app, LIST);
      const published = blog.articles.filter((_, index) => (index + 1) % 3 !== 0);
      expect(ids(data.articles.data)).to.deep.equal(published);
      expect(data.articles.meta.pagination).to.deep.equal({ page: 1, pageSize: 10, pageCount: 1, total: 8 });
    });

    for (const [title, variables, rest] of PARITY) {
      it(`gives the same ids and totals as REST: ${title}`, async () => {
        // REST's default page is 25, GraphQL's 10: ask both for 10 unless the case pages itself.
        const data = await gqlData(app, LIST, { variables: { pagination: { pageSize: 10 }, ...variables }, token });
        const query = rest.includes('pagination') ? rest : `pagination[pageSize]=10&${rest}`;
        const response = await app.get(`/api/articles?${query}`, { token });
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
        expect(ids(data.articles.data), title).to.deep.equal(ids(response.body.data));
        expect(data.articles.meta.pagination.total).to.equal(response.body.meta.pagination.total);
      });
    }

    it('offset pagination is reported as the page it amounts to', async () => {
      const data = await gqlData(app, LIST, { variables: { pagination: { start: 4, limit: 2 } } });
      expect(data.articles.meta.pagination).to.deep.equal({ page: 3, pageSize: 2, pageCount: 4, total: 8 });
    });

    it('reads a type without draft & publish (no publicationState argument)', async () => {
      const data = await gqlData(app, '{ categories(sort: "name:desc") { data { id attributes { name createdAt updatedAt } } } }');
      expect(data.categories.data.map((entry: any) => entry.attributes.name)).to.deep.equal(['Gamma', 'Beta', 'Alpha']);
      expect(Date.parse(data.categories.data[0].attributes.createdAt)).to.be.a('number').and.not.NaN;
      const bad = await gql(app, '{ categories(publicationState: PREVIEW) { data { id } } }');
      expect(bad.status).to.equal(400);
      expect(bad.body.errors![0].extensions!.code).to.equal('GRAPHQL_VALIDATION_FAILED');
    });

    it('a bad filter value is BAD_USER_INPUT with the validation error, and nothing else runs', async () => {
      const response = await gql(app, '{ articles(sort: "nope:asc") { data { id } } }');
      expect(response.status).to.equal(200);
      expect(response.body).to.deep.equal({
        errors: [{ message: 'Invalid parameter nope', extensions: { error: { name: 'ValidationError', message: 'Invalid parameter nope', details: {} }, code: 'BAD_USER_INPUT' } }],
        data: { articles: null },
      });
    });
  });

  describe('single entries and single types', () => {
    it('<type>(id): the entry; a draft, a missing id or a non-numeric id is { data: null }', async () => {
      const query = 'query ($id: ID) { article(id: $id) { data { id attributes { title slug views rating publishDate status meta featured publishedAt } } } }';
      const one = await gqlData(app, query, { variables: { id: String(blog.articles[0]) } });
      expect(one.article.data).to.deep.equal({
        id: String(blog.articles[0]),
        attributes: { title: 'Article 1', slug: 'article-1', views: 10, rating: 0.1, publishDate: '2024-01-01', status: 'approved', meta: { n: 1 }, featured: false, publishedAt: '2024-02-01T00:00:00.000Z' },
      });
      for (const id of [String(blog.articles[2]), '999999', 'abc', null]) {
        expect((await gqlData(app, query, { variables: { id } })).article).to.deep.equal({ data: null });
      }
    });

    it('a single type with a paginated relation, then update and delete', async () => {
      const read = await gqlData(app, '{ homepage { data { id attributes { title hero featuredArticles(pagination: { limit: 2 }) { data { id attributes { title } } } } } } }');
      expect(read.homepage.data.attributes).to.deep.equal({
        title: 'Home',
        hero: 'Hi',
        featuredArticles: { data: [{ id: String(blog.articles[0]), attributes: { title: 'Article 1' } }, { id: String(blog.articles[1]), attributes: { title: 'Article 2' } }] },
      });
      const updated = await gqlData(app, 'mutation { updateHomepage(data: { title: "New home" }) { data { attributes { title hero } } } }', { token });
      expect(updated.updateHomepage.data.attributes).to.deep.equal({ title: 'New home', hero: 'Hi' });
      const deleted = await gqlData(app, 'mutation { deleteHomepage { data { attributes { title } } } }', { token });
      expect(deleted.deleteHomepage.data.attributes.title).to.equal('New home');
      expect((await gqlData(app, '{ homepage { data { id } } }')).homepage).to.deep.equal({ data: null });
      const again = await gqlData(app, 'mutation { updateHomepage(data: { title: "Home", hero: "Hi" }) { data { attributes { title } } } }', { token });
      expect(again.updateHomepage.data.attributes.title).to.equal('Home');
    });
  });

  describe('relations, components, dynamic zones and media', () => {
    it('relations with their own filters, sort and pagination give what REST populate gives', async () => {
      const data = await gqlData(
        app,
        `{ categories(sort: "name:asc") { data { id attributes {
             articles(filters: { views: { gte: 20 } }, sort: "views:desc", pagination: { limit: 2 }) { data { id attributes { views } } }
             all: articles(sort: "id:asc") { data { id } }
           } } } }`,
      );
      const rest = await app.get('/api/categories?sort=name:asc&populate[articles][filters][views][$gte]=20&populate[articles][sort]=views:desc&populate[articles][fields][0]=views');
      const restAll = await app.get('/api/categories?sort=name:asc&populate[articles][sort]=id:asc&populate[articles][fields][0]=id');
      data.categories.data.forEach((category: any, index: number) => {
        expect(category.attributes.articles.data).to.deep.equal(
          rest.body.data[index].attributes.articles.data.slice(0, 2).map((entry: any) => ({ id: String(entry.id), attributes: { views: entry.attributes.views } })),
        );
        expect(ids(category.attributes.all.data)).to.deep.equal(ids(restAll.body.data[index].attributes.articles.data));
      });
      expect(data.categories.data[1].attributes.articles.data.length).to.equal(2);
    });

    it('a relation argument from a variable follows each request (the document is planned once, its variables are not)', async () => {
      const query = `query ($min: Int) { categories(sort: "name:asc") { data { attributes {
        articles(filters: { views: { gte: $min } }, sort: "id:asc") { data { id } } } } } }`;
      for (const min of [0, 50, 0, 1000]) {
        const data = await gqlData(app, query, { variables: { min } });
        const rest = await app.get(`/api/categories?sort=name:asc&populate[articles][filters][views][$gte]=${min}&populate[articles][sort]=id:asc&populate[articles][fields][0]=id`);
        const linked = (categories: any[]) => categories.map((category) => ids(category.attributes.articles.data));
        expect(linked(data.categories.data), `views >= ${min}`).to.deep.equal(linked(rest.body.data));
      }
    });

    it('drafts stay hidden in relations under LIVE and appear under PREVIEW', async () => {
      const query = `query ($state: PublicationState) { articles(publicationState: $state, filters: { id: { eq: ${blog.articles[0]} } }) {
        data { attributes { tags(sort: "id:asc") { data { attributes { articles(sort: "id:asc") { data { id } } } } } } } } }`;
      const live = await gqlData(app, query, { variables: { state: 'LIVE' }, token });
      const preview = await gqlData(app, query, { variables: { state: 'PREVIEW' }, token });
      const liveIds = ids(live.articles.data[0].attributes.tags.data[0].attributes.articles.data);
      const previewIds = ids(preview.articles.data[0].attributes.tags.data[0].attributes.articles.data);
      expect(previewIds.length).to.be.greaterThan(liveIds.length);
      expect(liveIds.every((id) => blog.articles.indexOf(id) % 3 !== 2)).to.equal(true);
    });

    it('components, repeatable components, a dynamic zone (fragments per member) and media', async () => {
      const [writer] = blog.writers;
      const upload = await app.app.db.query('plugin::upload.file').create({
        data: { name: 'a.png', hash: 'a_hash', ext: '.png', mime: 'image/png', size: 1.5, url: '/uploads/a.png', provider: 'local', width: 10, height: 20 },
      });
      const page = await create(app, token, 'pages', {
        title: 'Landing',
        author: writer,
        notes: 'private',
        seo: { metaTitle: 'Landing SEO' },
        links: [{ label: 'One', url: '/1' }, { label: 'Two', url: '/2', newTab: true }],
        content: [
          { __component: 'shared.quote', text: 'To be', author: 'W' },
          { __component: 'shared.rich-text', body: '# Hi' },
          { __component: 'shared.feature', title: 'Feat', link: { label: 'L', url: '/l' }, article: blog.articles[0] },
        ],
        gallery: [upload.id],
      });
      const data = await gqlData(
        app,
        `query ($id: ID) { page(id: $id) { data { id attributes {
            title seo { metaTitle } links(sort: "label:desc") { label url newTab }
            firstLink: links(filters: { or: [{ label: { eqi: "one" } }, { newTab: { eq: true }, url: { startsWith: "/9" } }] }) { label }
            content {
              __typename
              ... on ComponentSharedQuote { text author }
              ... on ComponentSharedRichText { body }
              ... on ComponentSharedFeature { title link { label } article { data { id attributes { title } } } }
            }
            gallery { data { id attributes { name url mime width size } } }
            author { data { attributes { name } } }
        } } } }`,
        { variables: { id: String(page) }, token },
      );
      const attributes = data.page.data.attributes;
      expect(attributes.title).to.equal('Landing');
      expect(attributes.seo).to.deep.equal({ metaTitle: 'Landing SEO' });
      expect(attributes.links).to.deep.equal([{ label: 'Two', url: '/2', newTab: true }, { label: 'One', url: '/1', newTab: false }]);
      expect(attributes.firstLink).to.deep.equal([{ label: 'One' }]);
      expect(attributes.content).to.deep.equal([
        { __typename: 'ComponentSharedQuote', text: 'To be', author: 'W' },
        { __typename: 'ComponentSharedRichText', body: '# Hi' },
        { __typename: 'ComponentSharedFeature', title: 'Feat', link: { label: 'L' }, article: { data: { id: String(blog.articles[0]), attributes: { title: 'Article 1' } } } },
      ]);
      expect(attributes.gallery.data).to.deep.equal([{ id: String(upload.id), attributes: { name: 'a.png', url: '/uploads/a.png', mime: 'image/png', width: 10, size: 1.5 } }]);
      expect(attributes.author.data.attributes.name).to.equal('Ann');
    });
  });

  describe('mutations', () => {
    it('create makes a draft unless publishedAt is given; update and delete answer the entry', async () => {
      const created = await gqlData(
        app,
        'mutation ($data: ArticleInput!) { createArticle(data: $data) { data { id attributes { title views status publishedAt category { data { id } } tags { data { id } } seo { metaTitle } } } } }',
        { variables: { data: { title: 'Made here', views: 7, status: 'archived', category: String(blog.categories[1]), tags: blog.tags.slice(0, 2).map(String), seo: { metaTitle: 'M' } } }, token },
      );
      const entry = created.createArticle.data;
      expect(entry.attributes).to.deep.equal({
        title: 'Made here', views: 7, status: 'archived', publishedAt: null,
        category: { data: { id: String(blog.categories[1]) } },
        tags: { data: blog.tags.slice(0, 2).map((id) => ({ id: String(id) })) },
        seo: { metaTitle: 'M' },
      });
      const rest = await app.get(`/api/articles/${entry.id}?publicationState=preview&populate=category`, { token });
      expect(rest.body.data.attributes.title).to.equal('Made here');

      const published = await gqlData(app, 'mutation { createArticle(data: { title: "Now", publishedAt: "2024-05-01T00:00:00.000Z" }) { data { attributes { publishedAt } } } }', { token });
      expect(published.createArticle.data.attributes.publishedAt).to.equal('2024-05-01T00:00:00.000Z');

      const updated = await gqlData(app, `mutation { updateArticle(id: ${entry.id}, data: { views: 8, category: null, tags: ["${blog.tags[3]}"] }) { data { id attributes { title views category { data { id } } tags { data { id } } } } } }`, { token });
      expect(updated.updateArticle.data).to.deep.equal({ id: entry.id, attributes: { title: 'Made here', views: 8, category: { data: null }, tags: { data: [{ id: String(blog.tags[3]) }] } } });

      const deleted = await gqlData(app, `mutation { deleteArticle(id: ${entry.id}) { data { id attributes { title } } } }`, { token });
      expect(deleted.deleteArticle.data).to.deep.equal({ id: entry.id, attributes: { title: 'Made here' } });
      expect((await app.get(`/api/articles/${entry.id}?publicationState=preview`, { token })).status).to.equal(404);
    });

    it('validation problems are BAD_USER_INPUT with the field errors, and nothing is written', async () => {
      const before = (await app.get('/api/categories', { token })).body.meta.pagination.total;
      const response = await gql(app, 'mutation { createCategory(data: { name: "Alpha" }) { data { id } } }', { token });
      expect(response.status).to.equal(200);
      expect(response.body.data).to.deep.equal({ createCategory: null });
      const [error] = response.body.errors!;
      expect(error.extensions!.code).to.equal('BAD_USER_INPUT');
      expect(error.extensions!.error!.name).to.equal('ValidationError');
      expect(error.message).to.equal('This attribute must be unique');
      expect((error.extensions!.error!.details as any).errors[0].path).to.deep.equal(['name']);
      const missing = await gql(app, 'mutation { createArticle(data: { views: 1, publishedAt: "2024-01-01T00:00:00.000Z" }) { data { id } } }', { token });
      expect(missing.body.errors![0].extensions!.code).to.equal('BAD_USER_INPUT');
      expect((await app.get('/api/categories', { token })).body.meta.pagination.total).to.equal(before);
    });

    it('update or delete of an absent entry answers data null, no error (recorded from Strapi 4.26.2)', async () => {
      expect((await gql(app, 'mutation { deleteTag(id: 99999) { data { id } } }', { token })).body).to.deep.equal({ data: { deleteTag: { data: null } } });
      expect((await gql(app, 'mutation { updateTag(id: 99999, data: { name: "x" }) { data { id } } }', { token })).body).to.deep.equal({ data: { updateTag: { data: null } } });
    });
  });

  describe('permissions and errors', () => {
    it('an anonymous mutation is FORBIDDEN (Strapi sample 55), with data null', async () => {
      const response = await gql(app, 'mutation { createTag(data: { name: "x" }) { data { id } } }');
      expect(response.text).to.equal('{"errors":[{"message":"Forbidden access","extensions":{"error":{"name":"ForbiddenError","message":"Forbidden access","details":{}},"code":"FORBIDDEN"}}],"data":{"createTag":null}}');
    });

    it('plural queries need find, singular ones findOne; one denied field does not hide the others', async () => {
      // writer-profile is not public at all; homepage is find only.
      const response = await gql(app, '{ writerProfiles { data { id } } writerProfile(id: 1) { data { id } } tags { data { id } } }');
      expect(response.status).to.equal(200);
      expect(response.body.errors!.map((error) => error.extensions!.code)).to.deep.equal(['FORBIDDEN', 'FORBIDDEN']);
      expect(response.body.data.writerProfiles).to.equal(null);
      expect(response.body.data.tags.data.length).to.equal(4);
      const readOnly = (await app.app.apiTokens.create({ name: 'ro', type: 'read-only' })).accessKey;
      expect((await gql(app, '{ writerProfiles { data { id } } }', { token: readOnly })).body.errors).to.equal(undefined);
      const write = await gql(app, 'mutation { deleteTag(id: 1) { data { id } } }', { token: readOnly });
      expect(write.body.errors![0].extensions!.code).to.equal('FORBIDDEN');
    });

    it('a relation to a type the caller may not read is FORBIDDEN on that field only', async () => {
      const response = await gql(app, '{ writers(sort: "id:asc") { data { attributes { name profile { data { id } } } } } }');
      expect(response.body.data.writers.data[0].attributes.name).to.equal('Ann');
      expect(response.body.data.writers.data[0].attributes.profile).to.equal(null);
      expect(response.body.errors![0].extensions!.code).to.equal('FORBIDDEN');
    });

    it('an invalid token is a 401 in the REST envelope, before anything GraphQL (as Strapi 4.26.2); anonymous drafts are FORBIDDEN', async () => {
      const bad = await gql(app, '{ tags { data { id } } }', { token: 'not-a-token' });
      expect([bad.status, bad.body]).to.deep.equal([401, { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } }]);
      const preview = await gql(app, '{ articles(publicationState: PREVIEW) { data { id } } }');
      expect(preview.body.errors![0].extensions!.code).to.equal('FORBIDDEN');
    });
  });

  describe('data the schema cannot answer', () => {
    it('a null in a required (non-null) field is INTERNAL_SERVER_ERROR on that entry, logged, the rest answered', async () => {
      // Written around the validation, as an old database may hold it.
      const broken = await app.app.db.query('api::article.article').create({ data: { title: null, views: 1, publishedAt: new Date() } });
      try {
        const response = await gql(app, `{ articles(filters: { id: { in: ["${blog.articles[0]}", "${broken.id}"] } }) { data { id attributes { title } } } }`);
        expect(response.status).to.equal(200);
        expect(response.body.data.articles.data).to.deep.equal([{ id: String(blog.articles[0]), attributes: { title: 'Article 1' } }, { id: String(broken.id), attributes: null }]);
        expect(response.body.errors).to.have.length(1);
        expect(response.body.errors![0]).to.deep.equal({ message: 'Internal Server Error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      } finally {
        await app.app.db.query('api::article.article').delete({ where: { id: broken.id } });
      }
    });
  });

  describe('the HTTP endpoint', () => {
    it('answers GET with a query string, refuses GET mutations with 405, and speaks application/graphql-response+json', async () => {
      const get = await app.get(`/graphql?query=${encodeURIComponent('query ($n: String) { tags(filters: { name: { eq: $n } }) { data { attributes { name } } } }')}&variables=${encodeURIComponent('{"n":"t2"}')}`);
      expect(get.status).to.equal(200);
      expect(get.body).to.deep.equal({ data: { tags: { data: [{ attributes: { name: 't2' } }] } } });
      const mutation = await app.get(`/graphql?query=${encodeURIComponent('mutation { deleteTag(id: 1) { data { id } } }')}`, { token });
      expect(mutation.status).to.equal(405);
      const typed = await gql(app, '{ tags { data { id } } }', { headers: { accept: 'application/graphql-response+json' } });
      expect(typed.headers.get('content-type')).to.match(/^application\/graphql-response\+json/);
      const json = await gql(app, '{ tags { data { id } } }');
      expect(json.headers.get('content-type')).to.match(/^application\/json/);
    });

    it('a request without a query, with bad variables or an unknown operation is a 400', async () => {
      expect((await app.post('/graphql', {})).status).to.equal(400);
      expect((await app.post('/graphql', { query: '{ tags { data { id } } }', variables: '[1]' })).status).to.equal(400);
      const unknown = await app.post('/graphql', { query: 'query A { tags { data { id } } }', operationName: 'B' });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.errors[0].message).to.equal('Unknown operation named "B".');
    });
  });
});
