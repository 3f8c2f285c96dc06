/**
 * What a policy receives: `policyContext.route` is the matched route's own
 * config (method, path, handler, config) with Strapi v4's `info`, for
 * registered and inline policies alike, on app and core routes.
 */
import { expect } from 'chai';
import { startApp, type TestApp } from '@tessera/testing';

const FILES = {
  'src/api/note/content-types/note/schema.json': {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' } },
  },
  'src/policies/remember-route.ts': `
export default (policyContext: any) => {
  policyContext.ctx.state.routes = [...(policyContext.ctx.state.routes ?? []), policyContext.route];
  return true;
};
`,
  'src/api/probe/controllers/probe.ts': `
export default { show(ctx: any) { return { routes: ctx.state.routes }; } };
`,
  'src/api/probe/routes/probe.ts': `
export default {
  routes: [
    {
      method: 'GET',
      path: '/probe/:id',
      handler: 'probe.show',
      config: { auth: false, policies: ['global::remember-route', (policyContext: any) => { policyContext.ctx.state.routes.push(policyContext.route); }] },
    },
  ],
};
`,
  'src/api/note/routes/note.ts': `
import { factories } from '@tessera/plugin-rest';
export default factories.createCoreRouter('api::note.note', {
  only: ['find'],
  config: { find: { auth: false, policies: [(policyContext: any) => policyContext.ctx.get('x-expect') === \`\${policyContext.route.method} \${policyContext.route.path} \${policyContext.route.info.apiName}\`] } },
});
`,
};

describe('policy context: the matched route [sqlite]', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dialect: 'sqlite', files: FILES });
  });
  after(() => app.stop());

  it('gives registered and inline policies the route config with info (not the matched path string)', async () => {
    const response = await app.get('/api/probe/7');
    expect(response.status).to.equal(200);
    const route = {
      method: 'GET',
      path: '/probe/:id',
      handler: 'probe.show',
      config: { auth: false, policies: ['global::remember-route', null] }, // the inline function serialises as null
      info: { type: 'content-api', apiName: 'probe' },
    };
    expect(response.body).to.deep.equal({ routes: [route, route] });
  });

  it('gives core router policies their route too', async () => {
    const allowed = await app.get('/api/notes', { headers: { 'x-expect': 'GET /notes note' } });
    expect(allowed.status).to.equal(200);
    const refused = await app.get('/api/notes', { headers: { 'x-expect': 'GET /api/notes note' } });
    expect(refused.status).to.equal(403);
    expect(refused.body.error).to.deep.equal({ status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} });
  });
});
