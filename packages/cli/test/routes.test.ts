import { expect } from 'chai';
import { runCli, tempApp, type TempApp } from './helpers';

describe('tessera routes', () => {
  let app: TempApp;
  before(async () => {
    app = await tempApp('sqlite');
  });
  after(async () => app.remove());

  it('lists every route with its handler, action, auth and policies, plugin routes and /graphql included', async () => {
    app.write('src/api/tag/routes/custom.ts', "export default { routes: [{ method: 'GET', path: '/tags/cloud', handler: 'tag.find', config: { policies: ['global::is-owner'] } }] };\n");
    app.write('src/policies/is-owner.ts', 'export default () => true;\n');
    const result = await runCli(['routes', '--json'], { cwd: app.dir, env: { ...app.env, TESSERA_LOG_LEVEL: 'silent' } });
    expect(result.code, result.stderr).to.equal(0);
    const rows: Array<Record<string, unknown>> = JSON.parse(result.stdout);
    const find = (method: string, path: string) => rows.find((row) => row.method === method && row.path === path);
    expect(find('GET', '/api/articles')).to.deep.equal({ method: 'GET', path: '/api/articles', handler: 'api::article.article.find', action: 'api::article.article.find', auth: 'public', actions: ['api::article.article.find'], policies: [], middlewares: [] });
    expect(find('POST', '/api/articles')).to.include({ auth: 'credentials', action: 'api::article.article.create' });
    expect(find('GET', '/api/tags/cloud')).to.include({ handler: 'tag.find', action: 'api::tag.tag.find' });
    expect(find('GET', '/api/tags/cloud')!.policies).to.deep.equal(['global::is-owner']);
    expect(find('POST', '/api/auth/local')).to.include({ auth: 'none' });
    expect(find('POST', '/graphql')).to.include({ auth: 'none' });
    expect(find('POST', '/api/upload')).to.include({ auth: 'credentials', action: 'plugin::upload.content-api.upload' });

    const table = await runCli(['routes'], { cwd: app.dir, env: { ...app.env, TESSERA_LOG_LEVEL: 'silent' } });
    expect(table.stdout.split('\n')[0]).to.match(/^method\s+path\s+handler\s+action\s+auth\s+policies$/);
    expect(table.stdout).to.match(/^GET\s+\/api\/tags\/cloud\s+tag\.find\s+api::tag\.tag\.find\s+\w+\s+global::is-owner$/m);
  });
});
