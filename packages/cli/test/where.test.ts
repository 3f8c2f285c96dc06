import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { runCli, tempDir } from './helpers';

const NOT_AN_APP = 'not a Tessera app (no config/ and src/ here): cd into an app, e.g. apps/example\n';

/** Every command that runs an app, with valid arguments. */
const APP_COMMANDS = [
  ['develop'],
  ['start'],
  ['api-token', 'list'],
  ['api-token', 'create', '--name', 'ci', '--type', 'full-access'],
  ['api-token', 'revoke', 'ci'],
  ['generate', 'api', 'product'],
  ['generate', 'plugin', 'hello'],
];

describe('the CLI outside an app', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('tessera-where-');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [what, setUp] of [
    ['an empty folder', () => undefined],
    ['a folder with src/ but no config/', () => fs.mkdirSync(path.join(dir, 'src'))],
    ['a folder whose config is a file', () => (fs.mkdirSync(path.join(dir, 'src')), fs.writeFileSync(path.join(dir, 'config'), ''))],
  ] as const) {
    it(`refuses every app command in ${what}, exit 1, and creates nothing`, async () => {
      setUp();
      const before = fs.readdirSync(dir, { recursive: true }).sort();
      const results = await Promise.all(APP_COMMANDS.map((args) => runCli(args, { cwd: dir })));
      results.forEach((result, index) => {
        const args = APP_COMMANDS[index]!;
        expect(result.code, args.join(' ')).to.equal(1);
        expect(result.stdout, args.join(' ')).to.equal('');
        expect(result.stderr, args.join(' ')).to.equal(`tessera ${args[0]}: ${NOT_AN_APP}`);
      });
      expect(fs.readdirSync(dir, { recursive: true }).sort()).to.deep.equal(before);
    });
  }

  it('still answers usage errors first (exit 2), and new works anywhere', async () => {
    const usage = await runCli(['generate', 'api', 'Bad_Name'], { cwd: dir });
    expect(usage.code).to.equal(2);
    expect(usage.stderr).to.contain('tessera generate: the name must be kebab-case');
    const created = await runCli(['new', 'apps/my-app'], { cwd: dir });
    expect(created.code).to.equal(0);
    expect(fs.existsSync(path.join(dir, 'apps/my-app/config/server.ts'))).to.equal(true);
  });
});
