import { expect } from 'chai';
import net from 'node:net';
import { eachDatabase } from '@tessera/testing';
import { CliProcess, refusesConnections, runCli, tempApp, waitForHttp, type TempApp } from './helpers';

/** The app reports its mode at bootstrap, so the test sees what NODE_ENV the command set. */
const MODE_REPORTING_ENTRY = `export default { bootstrap() { console.log('mode=' + process.env.NODE_ENV); } };\n`;

eachDatabase('tessera start', (dialect) => {
  let app: TempApp;
  let cli: CliProcess | undefined;
  beforeEach(async () => {
    app = await tempApp(dialect);
    app.write('src/index.ts', MODE_REPORTING_ENTRY);
  });
  afterEach(async () => {
    if (cli?.running) await cli.stop('SIGKILL');
    cli = undefined;
    await app.remove();
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`serves the app in production mode and exits 0 on ${signal}`, async () => {
      cli = new CliProcess(['start'], { cwd: app.dir, env: app.env });
      const response = await waitForHttp(`${app.url}/api/articles`, 200, cli);
      expect(await response.json()).to.deep.equal({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
      expect(cli.stdout).to.contain('mode=production');
      expect(cli.stdout).to.contain(`ready at ${app.url}`);
      expect(cli.stdout).to.contain(dialect === 'sqlite' ? `database sqlite ${app.dir}` : `database ${dialect}`);

      expect(await cli.stop(signal)).to.equal(0);
      expect(await refusesConnections(`${app.url}/api/articles`)).to.equal(true);
      expect(cli.stderr).to.equal('');
    });
  }
});

describe('tessera start: the ready line', () => {
  let app: TempApp;
  let cli: CliProcess | undefined;
  before(async () => {
    app = await tempApp('sqlite');
  });
  after(async () => {
    await cli?.stop('SIGKILL').catch(() => undefined);
    await app.remove();
  });

  it('"booted in N ms" counts from the start of loading (bootstrap included), not the listen step alone', async () => {
    // The app's bootstrap takes at least 400 ms of its own clock: the boot cannot have taken less, whatever the load.
    app.write('src/index.ts', 'export default { bootstrap() { const until = Date.now() + 400; while (Date.now() < until); } };\n');
    cli = new CliProcess(['start'], { cwd: app.dir, env: app.env });
    await cli.waitForOutput((output) => output.includes('ready at'));
    const booted = /booted in (\d+) ms/.exec(cli.stdout);
    expect(booted, cli.stdout).to.not.equal(null);
    expect(Number(booted![1])).to.be.at.least(400);
    expect(await cli.stop()).to.equal(0);
  });
});

describe('tessera start: boot errors', () => {
  let app: TempApp;
  beforeEach(async () => {
    app = await tempApp('sqlite');
  });
  afterEach(() => app.remove());

  it('names the file and the problem of a broken schema, without a stack, exit 1', async () => {
    const file = 'src/api/tag/content-types/tag/schema.json';
    app.write(file, { kind: 'collectionType', collectionName: 'tags', info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' }, attributes: { name: { type: 'strang' } } });
    const result = await runCli(['start'], { cwd: app.dir, env: app.env });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(new RegExp(`^Tessera could not start: ${escape(file)}: attribute "name": unknown type "strang"`));
    expect(result.stderr).not.to.match(/^\s+at /m);
    expect(result.stderr.trim().split('\n')).to.have.length(1);
  });

  it('refuses to start in production without API_TOKEN_SALT, naming it (no fallback salt)', async () => {
    const { API_TOKEN_SALT: _salt, ...env } = app.env;
    for (const salt of [undefined, '']) {
      const result = await runCli(['start'], { cwd: app.dir, env: salt === undefined ? env : { ...env, API_TOKEN_SALT: salt } });
      expect(result.code).to.equal(1);
      expect(result.stderr).to.match(/^Tessera could not start: config\/admin\.ts: cannot load: API_TOKEN_SALT must be set when NODE_ENV=production/);
      expect(result.stderr).not.to.match(/^\s+at /m);
    }
  });

  it('names the config file that cannot be loaded', async () => {
    app.write('config/server.ts', 'export default ({ env }) => ({ port: env.int("PORT", 1337), host: ');
    const result = await runCli(['start'], { cwd: app.dir, env: app.env });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(/^Tessera could not start: config\/server\.ts: cannot load: /);
    expect(result.stderr).not.to.match(/^\s+at /m);
  });

  it('prints the message and the stack of an unexpected error', async () => {
    app.write('src/index.ts', `export default { bootstrap() { throw new Error('the bootstrap exploded'); } };\n`);
    const result = await runCli(['start'], { cwd: app.dir, env: app.env });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.match(/^Tessera could not start: the bootstrap exploded\nError: the bootstrap exploded\n\s+at /);
    expect(result.stderr).to.contain('src/index.ts');
  });

  it('points at the line and column of a syntax error in app code, with the line shown and no stack, exit 1', async () => {
    // Sucrase placed this one at 5:44, where the arrow function begins; the mistake is the missing ")" on line 10.
    const entry = [
      'export default {',
      '  register() {},',
      '',
      '  bootstrap({ strapi }) {',
      '    strapi.db.lifecycles.subscribe((event) => {',
      '      const a = 1;',
      '      const b = 2;',
      '      const c = 3;',
      '      console.log(a, b, c, event);',
      '      if (a > 2 {',
      '      }',
      '    });',
      '  },',
      '};',
    ];
    app.write('src/index.ts', `${entry.join('\n')}\n`);
    const result = await runCli(['start'], { cwd: app.dir, env: app.env });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.equal(
      "Tessera could not start: src/index.ts:10:17: syntax error: ')' expected.\n" +
        '   9 |       console.log(a, b, c, event);\n' +
        '> 10 |       if (a > 2 {\n' +
        '     |                 ^\n',
    );
  });

  it('names the imported file that does not parse, and a mistake only V8 sees (await outside async)', async () => {
    app.write('src/index.ts', "import { helper } from './helper';\nexport default { bootstrap() { helper(); } };\n");
    app.write('src/helper.ts', 'export function helper() {\n  const list = [1, 2;\n  return list;\n}\n');
    const imported = await runCli(['start'], { cwd: app.dir, env: app.env });
    expect(imported.code).to.equal(1);
    expect(imported.stderr).to.equal("Tessera could not start: src/helper.ts:2:21: syntax error: ',' expected.\n  1 | export function helper() {\n> 2 |   const list = [1, 2;\n    |                     ^\n");

    app.write('src/helper.ts', 'export function helper() {\n  await Promise.resolve();\n}\n');
    const awaited = await runCli(['start'], { cwd: app.dir, env: app.env });
    expect(awaited.code).to.equal(1);
    expect(awaited.stderr).to.equal(
      'Tessera could not start: src/helper.ts:2:3: syntax error: await is only valid in async functions and the top level bodies of modules\n' +
        '  1 | export function helper() {\n> 2 |   await Promise.resolve();\n    |   ^\n',
    );
  });

  it('says what to do when the port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(app.port, '127.0.0.1', resolve));
    try {
      const result = await runCli(['start'], { cwd: app.dir, env: app.env });
      expect(result.code).to.equal(1);
      expect(result.stderr).to.match(new RegExp(`^Tessera could not start: .*EADDRINUSE.*${app.port}.*\\(another process uses this port: stop it or set PORT\\)\\n$`));
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
