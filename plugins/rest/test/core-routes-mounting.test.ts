import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { errorBody } from './fixture';

/**
 * Core routes mount only where Strapi mounts them: an API with routes files
 * gets exactly what they export. A custom-only file guarding `find` with a
 * policy must not leave the unguarded defaults (findOne, writes) beside it;
 * a core router exported under another file name is not mounted twice. An
 * API without routes files gets the core router of its content types.
 */
function collection(name: string, plural: string) {
  return {
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: name, pluralName: plural, displayName: name },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' } },
  };
}

const FILES = {
  'src/api/article/content-types/article/schema.json': collection('article', 'articles'),
  'src/api/article/routes/01-custom.ts': `
export default {
  routes: [{ method: 'GET', path: '/articles', handler: 'article.find', config: { policies: [() => false] } }],
};
`,
  'src/api/page/content-types/page/schema.json': collection('page', 'pages'),
  'src/api/page/routes/core.ts': `
import { createCoreRouter } from '@tessera/plugin-rest';
export default createCoreRouter('api::page.page', { only: ['find'] });
`,
  'src/api/tag/content-types/tag/schema.json': collection('tag', 'tags'),
  'config/permissions.ts': `export default { public: ${JSON.stringify(['article', 'page', 'tag'].flatMap((api) => ['find', 'findOne', 'create', 'update', 'delete'].map((action) => `api::${api}.${api}.${action}`)))} };\n`,
};

const NOT_FOUND = errorBody(404, 'NotFoundError', 'Not Found');

eachDatabase('core routes mount only where Strapi mounts them', (dialect) => {
  let app: TestApp;
  const ids: Record<string, number> = {};
  before(async () => {
    app = await startApp({ dialect, files: FILES });
    for (const uid of ['api::article.article', 'api::page.page', 'api::tag.tag']) ids[uid] = (await app.app.entityService.create(uid, { data: { title: 'seeded' } })).id;
  });
  after(() => app?.stop());

  it('a custom-only routes file serves its own routes and leaves the default ones unmounted', async () => {
    expect((await app.get('/api/articles')).body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
    const id = ids['api::article.article'];
    expect((await app.get(`/api/articles/${id}`)).body.error).to.include({ status: 404, name: 'NotFoundError', message: 'Not Found' });
    expect((await app.put(`/api/articles/${id}`, { data: { title: 'x' } })).body.error).to.include({ status: 404, name: 'NotFoundError', message: 'Not Found' });
    expect((await app.delete(`/api/articles/${id}`)).body.error).to.include({ status: 404, name: 'NotFoundError', message: 'Not Found' });
    // The path exists for GET only.
    expect((await app.post('/api/articles', { data: { title: 'x' } })).status).to.equal(405);
  });

  it('a core router exported from another file name is the only core router of its type', async () => {
    expect((await app.get('/api/pages')).status).to.equal(200);
    expect((await app.get(`/api/pages/${ids['api::page.page']}`)).body.error).to.include({ status: 404, name: 'NotFoundError', message: 'Not Found' });
  });

  it('an API without routes files gets the core routes', async () => {
    const id = ids['api::tag.tag'];
    expect((await app.get('/api/tags')).status).to.equal(200);
    expect((await app.get(`/api/tags/${id}?fields[0]=title`)).body).to.deep.equal({ data: { id, attributes: { title: 'seeded' } }, meta: {} });
    expect((await app.put(`/api/tags/${id}`, { data: { title: 'renamed' } })).status).to.equal(200);
  });
});
