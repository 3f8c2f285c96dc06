/**
 * App customisation of the REST layer, written as an app author would: TS
 * modules importing from '@tessera/plugin-rest' in the app's own folder —
 * core router options (only, auth: false, auth scope, policies, middlewares),
 * custom routes files, controller and service overrides reaching the default
 * with `super` — real HTTP, both databases.
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { errorBody, startItemApp } from './fixture';

const FILES: Record<string, string> = {
  'src/policies/allow-header.ts': `
export default (policyContext: any, config: any) => policyContext.ctx.get(config?.header ?? 'x-allow') === 'yes';
`,
  'src/api/item/policies/never.ts': `export default () => false;\n`,
  'src/middlewares/stamp.ts': `
export default (config: any) => async (ctx: any, next: () => Promise<void>) => {
  await next();
  ctx.set('x-stamp', config?.value ?? 'on');
};
`,
  'src/api/item/middlewares/short-circuit.ts': `
export default () => async (ctx: any, next: () => Promise<void>) => {
  if (ctx.query.stop === '1') { ctx.body = { stopped: true }; return; }
  await next();
};
`,
  'src/api/item/routes/item.ts': `
import { factories } from '@tessera/plugin-rest';

export default factories.createCoreRouter('api::item.item', {
  config: {
    find: { middlewares: ['global::stamp', { name: 'api::item.short-circuit' }] },
    findOne: { policies: [{ name: 'global::allow-header', config: { header: 'x-let-me' } }] },
    update: { policies: ['api::item.never'] },
    delete: { policies: [(policyContext: any) => policyContext.ctx.get('x-delete') === 'ok'] },
  },
});
`,
  'src/api/item/routes/custom.ts': `
export default {
  routes: [
    { method: 'GET', path: '/items-count', handler: 'item.count', config: { auth: false } },
    { method: 'GET', path: '/items/:id/summary', handler: 'api::item.item.summary' },
    { method: 'GET', path: '/items-scoped', handler: 'item.count', config: { auth: { scope: ['api::note.note.create'] } } },
    { method: 'GET', path: '/items-blocked', handler: 'item.count', config: { auth: false, policies: ['never'] } },
  ],
};
`,
  'src/api/item/controllers/item.ts': `
import { factories } from '@tessera/plugin-rest';

export default factories.createCoreController('api::item.item', ({ app }) => ({
  async find(ctx: any) {
    const response = await super.find(ctx);
    return { ...response, meta: { ...response.meta, custom: true } };
  },
  async count() {
    return { count: await app.db.query('api::item.item').count({ query: app.db.query('api::item.item').everything }) };
  },
  async summary(ctx: any) {
    // The service answers null for a missing entry, as Strapi's: app code tests it.
    const entry = await app.service('api::item.item').findOne(ctx.params.id, {}, ctx.state.auth);
    if (!entry) return ctx.notFound();
    return { data: { title: entry.title } };
  },
}));
`,
  'src/api/item/services/item.ts': `
import { factories } from '@tessera/plugin-rest';

export default factories.createCoreService('api::item.item', () => ({
  async findOne(id: unknown, params: any, auth: any) {
    const entry = await super.findOne(id, params, auth);
    return entry && { ...entry, title: entry.title + '!' };
  },
}));
`,
  'src/api/note/routes/note.ts': `
import { createCoreRouter } from '@tessera/plugin-rest';

export default createCoreRouter('api::note.note', {
  only: ['find', 'findOne'],
  config: { find: { auth: false } },
});
`,
};

eachDatabase('REST customisation', (dialect) => {
  let app: TestApp;
  let token: string;
  let ids: number[];
  let noteId: number;
  before(async () => {
    ({ app, token, ids } = await startItemApp(dialect, { files: FILES }));
    noteId = (await app.app.entityService.create('api::note.note', { data: { text: 'seeded' } })).id;
  });
  after(() => app?.stop());

  it('a controller override reaches the default with super.find(ctx)', async () => {
    const response = await app.get('/api/items?fields[0]=title&pagination[pageSize]=1');
    expect(response.body).to.deep.equal({
      data: [{ id: ids[0], attributes: { title: 'Apple pie' } }],
      meta: { pagination: { page: 1, pageSize: 1, pageCount: 7, total: 7 }, custom: true },
    });
  });

  it('route middlewares run around the handler (global and api, with config) and may answer themselves', async () => {
    const response = await app.get('/api/items');
    expect(response.headers.get('x-stamp')).to.equal('on');
    const stopped = await app.get('/api/items?stop=1');
    expect(stopped.body).to.deep.equal({ stopped: true });
    expect(stopped.headers.get('x-stamp')).to.equal('on');
  });

  it('a global policy with config guards findOne; a service override shapes the entry', async () => {
    expect((await app.get(`/api/items/${ids[0]}`)).body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
    const allowed = await app.get(`/api/items/${ids[0]}?fields[0]=title`, { headers: { 'x-let-me': 'yes' } });
    expect(allowed.body).to.deep.equal({ data: { id: ids[0], attributes: { title: 'Apple pie!' } }, meta: {} });
  });

  it('api and inline policies returning false are a bare 403 Forbidden (Strapi 4.26.2: the route answers a failed policy as its own refusal), after authorization', async () => {
    expect((await app.put(`/api/items/${ids[0]}`, { data: { title: 'x' } }, { token })).body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
    expect((await app.put(`/api/items/${ids[0]}`, { data: { title: 'x' } })).body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
    expect((await app.delete(`/api/items/${ids[5]}`, { token })).body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
    const deleted = await app.delete(`/api/items/${ids[5]}`, { token, headers: { 'x-delete': 'ok' } });
    expect(deleted.status).to.equal(200);
    expect(deleted.body.data.attributes.title).to.equal('500 off sale');
  });

  it('custom routes files: auth false, auth scope, policies, controller actions using the service', async () => {
    expect((await app.get('/api/items-count')).body).to.deep.equal({ count: 7 });
    // A custom action is its own permission (api::item.item.summary): not public.
    expect((await app.get(`/api/items/${ids[1]}/summary`)).body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
    const summary = await app.get(`/api/items/${ids[1]}/summary`, { token });
    expect(summary.body).to.deep.equal({ data: { title: 'apple TART!' } });
    expect((await app.get(`/api/items/${ids[7]}/summary`, { token })).status).to.equal(404);
    expect((await app.get('/api/items-scoped')).body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
    const creator = await app.app.apiTokens.create({ name: 'creator', type: 'custom', permissions: ['api::note.note.create'] });
    expect((await app.get('/api/items-scoped', { token: creator.accessKey })).status).to.equal(200);
    const reader = await app.app.apiTokens.create({ name: 'reader', type: 'read-only' });
    expect((await app.get('/api/items-scoped', { token: reader.accessKey })).status).to.equal(403);
    expect((await app.get('/api/items-blocked')).body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
  });

  it('createCoreRouter only / auth false: find is open, findOne needs permission, writes do not exist', async () => {
    expect((await app.get('/api/notes')).status).to.equal(200);
    expect((await app.get(`/api/notes/${noteId}`)).body).to.deep.equal(errorBody(403, 'ForbiddenError', 'Forbidden'));
    expect((await app.get(`/api/notes/${noteId}`, { token })).status).to.equal(200);
    const create = await app.post('/api/notes', { data: { text: 'x' } }, { token });
    expect(create.status).to.be.oneOf([404, 405]);
    expect(create.body.data).to.equal(null);
    expect((await app.delete(`/api/notes/${noteId}`, { token })).status).to.be.oneOf([404, 405]);
  });
});
