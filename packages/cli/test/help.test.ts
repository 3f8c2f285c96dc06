import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '@tessera/testing';
import { runCli, runProgram, tempDir } from './helpers';

const COMMANDS = ['new', 'develop', 'start', 'api-token', 'webhooks', 'generate', 'ts:generate-types', 'routes', 'openapi'];
const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'packages/cli/package.json'), 'utf8')) as { version: string }).version;

describe('tessera help and usage errors', () => {
  it('prints the commands on --help, -h, help and no command, exit 0', async () => {
    const outputs = await Promise.all([['--help'], ['-h'], ['help'], []].map((args) => runCli(args)));
    for (const result of outputs) {
      expect(result.code).to.equal(0);
      expect(result.stderr).to.equal('');
      expect(result.stdout).to.match(/^Usage: tessera <command> \[options\]/);
      for (const name of COMMANDS) expect(result.stdout).to.match(new RegExp(`^  ${name} +\\S`, 'm'));
      expect(result.stdout).to.equal(outputs[0]!.stdout);
    }
  });

  it('prints a command usage on "help <command>" and "<command> --help"', async () => {
    const [viaHelp, viaFlag] = await Promise.all([runCli(['help', 'api-token']), runCli(['api-token', '--help'])]);
    expect(viaHelp.code).to.equal(0);
    expect(viaHelp.stdout).to.contain('tessera api-token create --name <name> --type read-only|full-access|custom');
    expect(viaHelp.stdout).to.contain('tessera api-token revoke <id|name>');
    expect(viaFlag.stdout).to.equal(viaHelp.stdout);
  });

  it('prints every command\'s usage on "<command> --help", "<command> -h" and "help <command>", exit 0', async () => {
    for (const name of COMMANDS) {
      const results = await Promise.all([[name, '--help'], [name, '-h'], ['help', name]].map((args) => runCli(args)));
      for (const result of results) {
        expect(result.code, name).to.equal(0);
        expect(result.stderr, name).to.equal('');
        expect(result.stdout, name).to.equal(results[0]!.stdout);
      }
      // The usage names the command itself (its first line, or the first of its forms).
      expect(results[0]!.stdout, name).to.match(new RegExp(`^Usage:\\s+tessera ${name}\\b`));
    }
  });

  it('prints the version alone on --version, -v and version, exit 0', async () => {
    for (const args of [['--version'], ['-v'], ['version']]) {
      const result = await runCli(args);
      expect(result, args[0]).to.deep.equal({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });

  describe('through npx, in the forms the README gives', () => {
    let dir: string;
    before(() => {
      // An app folder whose node_modules/.bin/tessera is this checkout's CLI, as after `npm install`.
      dir = tempDir('tessera-help-npx-');
      fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const npx = (args: string[]) => runProgram('npx', ['--no', ...args], { cwd: dir });

    it('npx --no tessera help, npx --no -- tessera --help: the commands', async () => {
      const direct = await runCli(['--help']);
      for (const args of [['tessera', 'help'], ['--', 'tessera', '--help']]) {
        const result = await npx(args);
        expect(result.code, args.join(' ')).to.equal(0);
        expect(result.stdout, args.join(' ')).to.equal(direct.stdout);
      }
    });

    it('npx --no -- tessera --version: the version', async () => {
      const result = await npx(['--', 'tessera', '--version']);
      expect(result.code).to.equal(0);
      expect(result.stdout).to.equal(`${VERSION}\n`);
    });

    it('npx --no tessera <command> --help: the command\'s usage', async () => {
      const direct = await runCli(['start', '--help']);
      const result = await npx(['tessera', 'start', '--help']);
      expect(result.code).to.equal(0);
      expect(result.stdout).to.equal(direct.stdout);
    });
  });

  it('answers an unknown command with the help on stderr and exit 1', async () => {
    const result = await runCli(['frobnicate']);
    expect(result.code).to.equal(1);
    expect(result.stdout).to.equal('');
    expect(result.stderr).to.match(/^Unknown command "frobnicate"\.\n\nUsage: tessera <command>/);
    const unknownHelp = await runCli(['help', 'frobnicate']);
    expect(unknownHelp.code).to.equal(1);
    expect(unknownHelp.stderr).to.contain('Unknown command "frobnicate"');
  });

  it('answers bad arguments with the problem, the usage and exit 2, before loading any app', async () => {
    // An empty folder: were the app loaded, the error would be about the app, not the arguments.
    const cwd = tempDir();
    const cases: Array<[string[], string]> = [
      [['start', '--port', '3'], "Unknown option '--port'"],
      [['develop', 'extra'], 'unexpected argument "extra"'],
      [['new'], 'new needs the folder to create'],
      [['api-token'], 'api-token needs a command: create, list or revoke'],
      [['api-token', 'rotate'], 'unknown api-token command "rotate"'],
      [['api-token', 'create', '--type', 'full-access'], '--name is required'],
      [['api-token', 'create', '--name', 'a'], '--type is required'],
      [['api-token', 'create', '--name', 'a', '--type', 'admin'], '--type must be one of read-only, full-access, custom (got "admin")'],
      [['api-token', 'create', '--name', 'a', '--type', 'read-only', '--duration', '0'], '--duration must be a positive number of days (got "0")'],
      [['api-token', 'create', '--name', 'a', '--type', 'read-only', '--duration', 'week'], '--duration must be a positive number of days (got "week")'],
      [['api-token', 'create', '--name', 'a', '--type', 'custom'], 'a custom token needs --permissions'],
      [['api-token', 'create', '--name', 'a', '--type', 'read-only', '--permissions', 'api::a.a.find'], '--permissions applies only to --type custom'],
      [['api-token', 'create', '--name', 'a', '--type', 'custom', '--permissions', 'find'], '--permissions takes actions like api::article.article.find (got "find")'],
      [['api-token', 'list', '--json=yes'], "Option '--json' does not take an argument"],
      [['api-token', 'revoke'], 'revoke needs the id or the name of a token'],
      [['generate'], 'generate needs what to generate: api or plugin'],
      [['generate', 'model', 'x'], 'unknown generate command "model" (api or plugin)'],
      [['generate', 'plugin'], 'generate plugin needs a name, e.g. tessera generate plugin blog-post'],
      [['generate', 'api', 'post', '--plural', 'post'], '--plural must be kebab-case and differ from the name (got "post")'],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args, { cwd })));
    fs.rmSync(cwd, { recursive: true, force: true });
    results.forEach((result, index) => {
      const [args, message] = cases[index]!;
      expect(result.code, args.join(' ')).to.equal(2);
      expect(result.stdout, args.join(' ')).to.equal('');
      expect(result.stderr, args.join(' ')).to.contain(`tessera ${args[0]}: ${message}`);
      expect(result.stderr, args.join(' ')).to.contain('Usage:');
    });
  });
});
