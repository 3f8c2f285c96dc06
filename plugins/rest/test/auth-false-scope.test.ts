import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { errorBody } from './fixture';

/**
 * A route with `auth: false` skips authentication, but its handler runs as
 * the public caller: it reads only what anonymous callers may read (no
 * populate or filter into other types, no drafts). A request that reaches the
 * core controller without any caller is refused, never treated as trusted;
 * the app's own server code calling a service without a caller stays trusted
 * and reads `live` by default, as in Strapi v4.
 */
const FILES = {
  'src/api/post/content-types/post/schema.json': {
    kind: 'collectionType',
    collectionName: 'posts',
    info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
    options: { draftAndPublish: true },
    attributes: {
      title: { type: 'string' },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::writer.writer', inversedBy: 'posts' },
    },
  },
  'src/api/writer/content-types/writer/schema.json': {
    kind: 'collectionType',
    collectionName: 'writers',
    info: { singularName: 'writer', pluralName: 'writers', displayName: 'Writer' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      posts: { type: 'relation', relation: 'oneToMany', target: 'api::post.post', mappedBy: 'author' },
    },
  },
  'src/api/post/routes/post.ts': `
import { createCoreRouter } from '@tessera/plugin-rest';
export default createCoreRouter('api::post.post', { config: { find: { auth: false } } });
`,
  // Server code that hands a request to the core controller outside any mounted route: no caller is set.
  'src/index.ts': `
export default {
  bootstrap({ app }: any) {
    app.server.koa.use(async (ctx: any, next: () => Promise<void>) => {
      if (ctx.path !== '/unrouted/posts') return next();
      ctx.body = await app.controller('api::post.post').find(ctx);
    });
  },
};
`,
  'config/permissions.ts': `export default { public: [] };\n`,
};

const titles = (body: { data: Array<{ attributes: { title: string } }> }) => body.data.map((entry) => entry.attributes.title);

eachDatabase('routes with auth: false run in the public scope', (dialect) => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect, files: FILES });
    const token = await app.fullAccessToken();
    const writer = await app.post('/api/writers', { data: { name: 'Ada' } }, { token });
    await app.post('/api/posts', { data: { title: 'Published', author: writer.body.data.id } }, { token });
    await app.post('/api/posts', { data: { title: 'Draft', author: writer.body.data.id, publishedAt: null } }, { token });
  });
  after(() => app?.stop());

  it('serves the route without credentials', async () => {
    const response = await app.get('/api/posts?fields[0]=title');
    expect(response.status).to.equal(200);
    expect(titles(response.body)).to.deep.equal(['Published']);
  });

  it('does not populate a type the public may not read', async () => {
    for (const path of ['/api/posts?fields[0]=title&populate=*', '/api/posts?fields[0]=title&populate=author']) {
      const response = await app.get(path);
      expect(response.status).to.equal(200);
      expect(response.body.data[0].attributes).to.deep.equal({ title: 'Published' });
    }
  });

  it('does not filter or sort through a type the public may not read', async () => {
    expect((await app.get('/api/posts?filters[author][name][$eq]=Ada')).body).to.deep.equal(errorBody(400, 'ValidationError', 'Invalid parameter author'));
    expect((await app.get('/api/posts?sort=author.name')).body).to.deep.equal(errorBody(400, 'ValidationError', 'Invalid parameter author'));
  });

  it('does not preview drafts', async () => {
    expect((await app.get('/api/posts?publicationState=preview')).body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
  });

  it('the core controller refuses a request that carries no caller instead of trusting it', async () => {
    const response = await app.get('/unrouted/posts?publicationState=preview&populate=author');
    expect(response.status).to.equal(403);
    expect(response.body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
  });

  it('a service called by server code without a caller is trusted, and reads live unless it asks for preview', async () => {
    const service = app.app.service<{ find(params?: Record<string, unknown>): Promise<{ results: Array<Record<string, any>> }> }>('api::post.post')!;
    const live = await service.find({ populate: ['author'], sort: 'title' });
    expect(live.results.map((entry) => [entry.title, entry.author?.name])).to.deep.equal([['Published', 'Ada']]);
    const preview = await service.find({ publicationState: 'preview', sort: 'title' });
    expect(preview.results.map((entry) => entry.title)).to.deep.equal(['Draft', 'Published']);
  });
});
