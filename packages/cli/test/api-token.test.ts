import { expect } from 'chai';
import { CliProcess, request, runCli, tempApp, waitForHttp, type CliResult, type TempApp } from './helpers';

const TOKEN_LINE = /^[0-9a-f]{256}\n$/;

describe('tessera api-token', () => {
  let app: TempApp;
  let server: CliProcess;
  const cli = (...args: string[]): Promise<CliResult> => runCli(['api-token', ...args], { cwd: app.dir, env: app.env });
  const createTag = (token?: string) => request(`${app.url}/api/tags`, 'POST', { data: { name: `tag-${Math.random()}` } }, token);

  before(async () => {
    app = await tempApp('sqlite');
    server = new CliProcess(['start'], { cwd: app.dir, env: app.env });
    await waitForHttp(`${app.url}/api/tags`, 200, server);
  });
  after(async () => {
    await server.stop();
    await app.remove();
  });

  it('create prints the token alone on stdout; a full-access token may write', async () => {
    const result = await cli('create', '--name', 'deploy', '--type', 'full-access', '--description', 'CI deploys');
    expect(result.code).to.equal(0);
    expect(result.stdout).to.match(TOKEN_LINE);
    expect(result.stderr).to.contain('Created full-access API token "deploy"');
    expect(result.stderr).to.contain('never expires');

    expect((await createTag()).status).to.equal(403);
    const created = await createTag(result.stdout.trim());
    expect(created.status).to.equal(200);
    expect(created.body.data.attributes.name).to.match(/^tag-/);
  });

  it('a read-only token reads but gets 403 on POST', async () => {
    const { stdout } = await cli('create', '--name', 'reader', '--type', 'read-only');
    const token = stdout.trim();
    expect((await request(`${app.url}/api/tags`, 'GET', undefined, token)).status).to.equal(200);
    const denied = await createTag(token);
    expect(denied.status).to.equal(403);
    expect(denied.body.error.name).to.equal('ForbiddenError');
  });

  it('a custom token gets exactly its actions; --duration sets the expiry', async () => {
    const result = await cli('create', '--name', 'tagger', '--type', 'custom', '--permissions', 'api::tag.tag.create, api::tag.tag.find', '--duration', '7');
    expect(result.code).to.equal(0);
    const token = result.stdout.trim();
    expect((await createTag(token)).status).to.equal(200);
    const other = await request(`${app.url}/api/categories`, 'POST', { data: { name: 'no' } }, token);
    expect(other.status).to.equal(403);

    const listed = JSON.parse((await cli('list', '--json')).stdout) as Array<{ name: string; expiresAt: string | null; permissions: string[] }>;
    const tagger = listed.find((token) => token.name === 'tagger')!;
    expect(tagger.permissions).to.deep.equal(['api::tag.tag.create', 'api::tag.tag.find']);
    const days = (Date.parse(tagger.expiresAt!) - Date.now()) / 86_400_000;
    expect(days).to.be.within(6.99, 7);
  });

  it('refuses a duplicate name and an action of an unknown content type, exit 1', async () => {
    const duplicate = await cli('create', '--name', 'deploy', '--type', 'read-only');
    expect(duplicate.code).to.equal(1);
    expect(duplicate.stdout).to.equal('');
    expect(duplicate.stderr).to.equal('Error: an API token named "deploy" exists already\n');
    const unknown = await cli('create', '--name', 'ghost', '--type', 'custom', '--permissions', 'api::ghost.ghost.find');
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.contain('--permissions names "api::ghost.ghost.find", but this app has no content type api::ghost.ghost');
  });

  it('list --json and the table show every token without any secret', async () => {
    const json = await cli('list', '--json');
    expect(json.code).to.equal(0);
    const tokens = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(tokens.map((token) => [token.name, token.type])).to.deep.equal([
      ['deploy', 'full-access'],
      ['reader', 'read-only'],
      ['tagger', 'custom'],
    ]);
    expect(tokens[0]).to.include({ description: 'CI deploys', expiresAt: null });
    expect(Object.keys(tokens[0]!)).not.to.include('accessKey');

    const table = await cli('list');
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).to.match(/^id +name +type +expires +permissions$/);
    expect(lines[2]).to.match(/^1 +deploy +full-access +never +-$/);
    expect(lines[4]).to.match(/^3 +tagger +custom +\d{4}-\d\d-\d\dT\S+ +api::tag\.tag\.create,api::tag\.tag\.find$/);
    expect(table.stdout).not.to.match(/[0-9a-f]{64}/);
  });

  it('revoke by name or id removes the token (then 401); an unknown one exits 1', async () => {
    const { stdout } = await cli('create', '--name', 'temporary', '--type', 'full-access');
    const token = stdout.trim();
    expect((await createTag(token)).status).to.equal(200);

    const revoked = await cli('revoke', 'temporary');
    expect(revoked.code).to.equal(0);
    expect(revoked.stderr).to.contain('Revoked API token "temporary"');
    const rejected = await createTag(token);
    expect(rejected.status).to.equal(401);
    expect(rejected.body.error.name).to.equal('UnauthorizedError');

    const byId = await cli('revoke', '2');
    expect(byId.code).to.equal(0);
    const names = (JSON.parse((await cli('list', '--json')).stdout) as Array<{ name: string }>).map((token) => token.name);
    expect(names).to.deep.equal(['deploy', 'tagger']);

    // A number is always an id: names cannot be all digits, so `revoke 7` can never mean a token named "7".
    const digits = await cli('create', '--name', '3', '--type', 'read-only');
    expect(digits.code).to.equal(1);
    expect(digits.stdout).to.equal('');
    expect(digits.stderr).to.equal('Error: a token name cannot be all digits (got "3"): revoke takes an id or a name\n');
    const stillThere = (JSON.parse((await cli('list', '--json')).stdout) as Array<{ id: number }>).map((token) => token.id);
    expect(stillThere).to.deep.equal([1, 3]);

    const missing = await cli('revoke', 'temporary');
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.equal('No API token with id or name "temporary".\n');
  });

  it('keeps stdout clean even when the app logs at info and its bootstrap prints', async () => {
    app.write('src/index.ts', `export default { bootstrap() { console.log('hello from bootstrap'); } };\n`);
    const result = await runCli(['api-token', 'create', '--name', 'quiet', '--type', 'read-only'], { cwd: app.dir, env: { ...app.env, TESSERA_LOG_LEVEL: 'debug' } });
    expect(result.code).to.equal(0);
    expect(result.stdout).to.match(TOKEN_LINE);
    expect(result.stderr).to.contain('hello from bootstrap');
  });
});
