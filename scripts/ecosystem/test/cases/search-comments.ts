/**
 * Plugins that add their own content-API endpoints over the app's entries:
 * - strapi-plugin-fuzzy-search: `GET /api/fuzzy-search/search?query=` ranks the
 *   configured types' entries with fuzzysort, per-type pagination and type filter.
 * - strapi-plugin-comments (v2, the last for Strapi v4): comments on an entry
 *   (`POST/GET /api/comments/<uid>:<id>`), threads and the flat list.
 * - strapi-plugin-ratings: a signed-in user's review of a content id (it reads
 *   the user from `ctx.state.user`, as users-permissions' JWT strategy sets it), stats.
 */
import { expect } from 'chai';
import type { TestApp } from '@tessera/testing';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

async function createArticles(app: TestApp, titles: string[]): Promise<number[]> {
  const token = await app.fullAccessToken();
  const ids: number[] = [];
  for (const title of titles) {
    const response = await app.post('/api/articles', { data: { title } }, { token });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    ids.push(response.body.data.id);
  }
  return ids;
}

export const FUZZY_SEARCH: EcosystemSuite = {
  title: 'strapi-plugin-fuzzy-search@2.2.1',
  packages: { 'strapi-plugin-fuzzy-search': '2.2.1' },
  files: {
    ...ARTICLE_APP,
    'config/permissions.js': `module.exports = { public: ['api::article.article.find', 'api::category.category.find', 'plugin::fuzzy-search.searchController.search'] };`,
    // Its README's "Full Example config", on the article app's types.
    'config/plugins.js': `module.exports = ({ env }) => ({
  'fuzzy-search': {
    enabled: true,
    config: {
      contentTypes: [
        { uid: 'api::article.article', modelName: 'article', fuzzysortOptions: { characterLimit: 300, threshold: -600, limit: 10, keys: [{ name: 'title', weight: 100 }] } },
        { uid: 'api::category.category', modelName: 'category', fuzzysortOptions: { characterLimit: 500, keys: [{ name: 'name', weight: 200 }] } },
      ],
    },
  },
});
`,
  },
  tests: {
    'ranks matches per configured type, pages and filters them, and refuses a search without a query': async (app) => {
      const [first, , third] = await createArticles(app, ['Dereshkovich on rivers', 'Mountains of Tessera', 'Dereshi lakes']);
      await app.post('/api/categories', { data: { name: 'Deresh news' } }, { token: await app.fullAccessToken() });
      const found = await app.get('/api/fuzzy-search/search?query=deresh');
      expect(found.status, JSON.stringify(found.body)).to.equal(200);
      expect(Object.keys(found.body)).to.deep.equal(['articles', 'categories']);
      expect(found.body.articles.map((entry: { id: number }) => entry.id).sort()).to.deep.equal([first, third].sort());
      expect(found.body.categories.map((entry: { name: string }) => entry.name)).to.deep.equal(['Deresh news']);
      // Strapi's output sanitizer: entries as the entity service reads them, without authorship fields.
      expect(found.body.articles[0]).to.have.all.keys('id', 'title', 'slug', 'createdAt', 'updatedAt');
      const paged = await app.get('/api/fuzzy-search/search?query=deresh&pagination[articles][pageSize]=1');
      expect(paged.body.articles.data).to.have.length(1);
      expect(paged.body.articles.meta.pagination).to.deep.equal({ page: 1, pageSize: 1, total: 2, pageCount: 2 });
      const filtered = await app.get('/api/fuzzy-search/search?query=deresh&filters[contentTypes]=categories');
      expect(Object.keys(filtered.body)).to.deep.equal(['categories']);
      const refused = await app.get('/api/fuzzy-search/search');
      expect(refused.body).to.deep.equal({ data: null, error: { status: 400, name: 'BadRequestError', message: 'Invalid query', details: 'query is a required field' } });
    },
  },
};

export const COMMENTS: EcosystemSuite = {
  title: 'strapi-plugin-comments@2.3.3',
  packages: { 'strapi-plugin-comments': '2.3.3', '@strapi/plugin-users-permissions': '4.26.2' },
  files: {
    ...ARTICLE_APP,
    'config/permissions.js': `module.exports = { public: ['api::article.article.find'] };`,
    // Its README's config: which types take comments, no moderation, no bad-words filter.
    'config/plugins.js': `module.exports = () => ({ comments: { enabled: true, config: { enabledCollections: ['api::article.article'], badWords: false, approvalFlow: [] } } });`,
    // The actions its README has the public role granted (users-permissions' role service, as the admin panel would).
    'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    const roles = strapi.service('plugin::users-permissions.role');
    const publicRole = (await roles.find()).find((role) => role.type === 'public');
    const role = await roles.findOne(publicRole.id);
    role.permissions['plugin::comments'] = { controllers: { client: { findAllFlat: { enabled: true }, findAllInHierarchy: { enabled: true }, post: { enabled: true } } } };
    await roles.updateRole(publicRole.id, role);
  },
};
`,
  },
  tests: {
    'posts comments and replies on an entry and answers them as a thread and as a flat list': async (app) => {
      const [articleId] = await createArticles(app, ['Commented']);
      const relation = `api::article.article:${articleId}`;
      const author = { id: 'ext-1', name: 'Ada', email: 'ada@example.com' };
      const posted = await app.post(`/api/comments/${relation}`, { content: 'Nice post', author });
      expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
      expect(posted.body).to.deep.include({ content: 'Nice post', related: relation, threadOf: null, blocked: false });
      expect(posted.body.author).to.deep.equal({ ...author, avatar: null });
      const reply = await app.post(`/api/comments/${relation}`, { content: 'Thanks!', threadOf: posted.body.id, author: { id: 'ext-2', name: 'Grace', email: 'grace@example.com' } });
      expect(reply.status, JSON.stringify(reply.body)).to.equal(200);
      const thread = await app.get(`/api/comments/${relation}`);
      expect(thread.status).to.equal(200);
      expect(thread.body.map((comment: { content: string; children: Array<{ content: string }> }) => [comment.content, comment.children.map((child) => child.content)])).to.deep.equal([
        ['Nice post', ['Thanks!']],
      ]);
      const flat = await app.get(`/api/comments/${relation}/flat`);
      expect(flat.body.data.map((comment: { content: string }) => comment.content)).to.have.members(['Nice post', 'Thanks!']);
      expect(flat.body.data.find((comment: { content: string }) => comment.content === 'Nice post').related).to.deep.include({ id: articleId, title: 'Commented', uid: 'api::article.article' });
      const unknown = await app.post('/api/comments/api::article.article:99999', { content: 'Lost', author });
      expect(unknown.status).to.be.within(400, 404);
    },
  },
};

export const RATINGS: EcosystemSuite = {
  title: 'strapi-plugin-ratings@1.1.9',
  packages: { 'strapi-plugin-ratings': '1.1.9', '@strapi/plugin-users-permissions': '4.26.2' },
  files: {
    ...ARTICLE_APP,
    // Its README: reading is public, posting needs a signed-in user.
    'config/permissions.js': `module.exports = {
  public: ['api::article.article.find', 'plugin::ratings.reviews.find', 'plugin::ratings.reviews.getStats', 'plugin::ratings.reviews.count'],
  authenticated: ['plugin::ratings.reviews.find', 'plugin::ratings.reviews.create'],
};
`,
  },
  tests: {
    "takes one review per signed-in user and answers the content's reviews, stats and count": async (app) => {
      const registered = await app.post('/api/auth/local/register', { username: 'rater', email: 'rater@example.com', password: 'Passw0rd!' });
      expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
      const token = registered.body.jwt;
      const anonymous = await app.post('/api/ratings/reviews/article-7', { comment: 'Who am I?', score: 2 });
      expect(anonymous.status).to.equal(403);
      const posted = await app.post('/api/ratings/reviews/article-7', { comment: 'Great read', score: 4 }, { token });
      expect(posted.status, JSON.stringify(posted.body)).to.equal(200);
      expect(posted.body).to.have.all.keys('id');
      const again = await app.post('/api/ratings/reviews/article-7', { comment: 'Again', score: 5 }, { token });
      expect(again.status).to.equal(400);
      expect(again.body.error.message).to.equal('User already posted a review. Review ID:');
      const author = { id: registered.body.user.id, username: 'rater', email: 'rater@example.com' };
      // The signed-in user's own review is answered apart (userReview), the others in the list.
      const own = await app.get('/api/ratings/reviews/article-7', { token });
      expect(own.body).to.deep.include({ reviewsCount: 1, averageScore: 4, reviews: [] });
      expect(own.body.userReview).to.deep.include({ id: posted.body.id, score: 4, comment: 'Great read', author });
      const everyone = await app.get('/api/ratings/reviews/article-7');
      expect(everyone.body).to.deep.include({ reviewsCount: 1, averageScore: 4, userReview: null });
      expect(everyone.body.reviews.map((review: { author: object }) => review.author)).to.deep.equal([author]);
      expect((await app.get('/api/ratings/reviews/article-7/stats')).body).to.deep.equal({ averageScore: 4, reviewsCount: 1 });
      expect((await app.get('/api/ratings/reviews/article-7/count')).body).to.deep.equal({ count: 1 });
      expect((await app.get('/api/ratings/reviews/article-8/count')).body).to.deep.equal({ count: 0 });
    },
  },
};
