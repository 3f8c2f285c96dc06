/**
 * README.md and the docs/ pages it lists (pages.ts), run top to bottom as a newcomer would on a fresh clone: a
 * develop-mode app (a temporary copy of apps/example with a fresh SQLite
 * database, so the first-run sample content is seeded), then every example
 * in order in one bash session started at the repository root (variables
 * such as $TOKEN carry over). Curl commands must answer the status the
 * README promises (200 unless marked `# → <status>`) with a JSON envelope;
 * other commands must exit 0; app-file blocks are written into the app,
 * which must restart cleanly. A README that drifts from the code fails here.
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { EXAMPLE_APP, killGroup, REPO_ROOT, spawnGroup } from '@tessera/testing';
import { countBlocks, extractSteps, type AppFiles, type ReadmeStep, type ShellCommand } from '../extract';
import { documentationPages, unlistedPages } from '../pages';

/** A step and the page it comes from. */
type PageStep = ReadmeStep & { file: string };
const CLI = path.join(REPO_ROOT, 'packages/cli/bin/tessera.js');
const READY = 'ready at';

/** One long-lived bash: each command runs in it (cd and variables persist), its curl results land in files. */
class Shell {
  private readonly bash: ChildProcess;
  private buffer = '';
  private counter = 0;

  constructor(cwd: string, env: NodeJS.ProcessEnv, private readonly scratch: string) {
    // Its own process group: whatever a command starts goes with it (close()).
    this.bash = spawnGroup('bash', ['--noprofile', '--norc'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.bash.stdout!.on('data', (chunk: Buffer) => (this.buffer += chunk.toString()));
    this.bash.stderr!.on('data', (chunk: Buffer) => (this.buffer += chunk.toString()));
    // curl keeps its flags; the body and status of its last request go to the files named by $OUT and $STATUS.
    this.bash.stdin!.write(`curl() { command curl -sS -o "$OUT" -w '%{http_code}' "$@" > "$STATUS"; }\n`);
  }

  async run(text: string): Promise<{ exitCode: number; output: string; status?: number; body?: string }> {
    const id = ++this.counter;
    const out = path.join(this.scratch, `body-${id}`);
    const status = path.join(this.scratch, `status-${id}`);
    const marker = `__readme_done_${id}__`;
    this.buffer = '';
    this.bash.stdin!.write(`OUT='${out}' STATUS='${status}'\n{\n${text}\n}\necho "${marker}$?"\n`);
    // Waits for the command's end marker (or the shell's end); the test's timeout bounds the rest.
    while (!this.buffer.includes(marker)) {
      if (this.bash.exitCode !== null) throw new Error(`the shell exited; output so far:\n${this.buffer}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const [output, rest] = this.buffer.split(marker) as [string, string];
    const result: { exitCode: number; output: string; status?: number; body?: string } = { exitCode: Number.parseInt(rest, 10), output };
    if (fs.existsSync(status)) {
      result.status = Number(fs.readFileSync(status, 'utf8'));
      result.body = fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '';
    }
    return result;
  }

  close(): void {
    killGroup(this.bash.pid);
  }
}

/** `tessera develop` on the temporary app, with its output collected. */
class DevelopServer {
  output = '';
  private readonly child: ChildProcess;

  constructor(dir: string, env: NodeJS.ProcessEnv) {
    this.child = spawnGroup(process.execPath, [CLI, 'develop'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  get boots(): number {
    return this.output.split(READY).length - 1;
  }

  async waitForBoot(count: number): Promise<void> {
    // Waits for the ready line (or a boot failure, or the exit); the test's timeout bounds the rest.
    while (this.boots < count) {
      if (/could not start|waiting for a change/.test(this.output)) throw new Error(`the app failed to boot:\n${this.output}`);
      if (this.child.exitCode !== null) throw new Error(`tessera develop exited:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** SIGTERM (a graceful stop), then the whole group killed: nothing it started is left. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      await new Promise<void>((resolve) => {
        this.child.once('exit', () => resolve());
        this.child.kill('SIGTERM');
      });
    }
    killGroup(this.child.pid);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const where = (step: PageStep): string => `${step.file} line ${step.line}`;

function describeCommand(step: ShellCommand & { file: string }): string {
  const first = step.text.split('\n')[0]!;
  return `${where(step)}: ${first.length > 110 ? `${first.slice(0, 110)}…` : first}`;
}

describe('README examples, in order, on a fresh first run', function () {
  const pages = documentationPages(REPO_ROOT);
  const steps: PageStep[] = pages.flatMap((page) => extractSteps(page.text).map((step) => ({ ...step, file: page.file })));
  let root: string;
  let appDir: string;
  let server: DevelopServer;
  let shell: Shell;
  let port: number;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-readme-'));
    appDir = path.join(root, 'app');
    for (const part of ['config', 'src']) fs.cpSync(path.join(EXAMPLE_APP, part), path.join(appDir, part), { recursive: true });
    port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_FILENAME: path.join(root, 'data.db'), TESSERA_LOG_LEVEL: 'info' };
    for (const key of ['SEED', 'NODE_ENV', 'DATABASE_CLIENT', 'DATABASE_URL', 'REST_STRICT_PARAMS']) delete env[key];
    server = new DevelopServer(appDir, env);
    await server.waitForBoot(1);
    // Commands run from the repository root (where the README's set-up leaves you) against the same database.
    shell = new Shell(REPO_ROOT, env, root);
  });
  after(async () => {
    shell?.close();
    await server?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('runs every code block of every page, or says on the page why not', () => {
    expect(unlistedPages(REPO_ROOT), "docs/ pages missing from the README's Documentation table").to.deep.equal([]);
    for (const page of pages) {
      const count = countBlocks(page.text);
      console.log(`      ${page.file}: ${count.run} code blocks run, ${count.notRun.length} not run (each with its reason on the page)`);
      expect(count.unaccounted, `${page.file}: blocks neither run nor marked <!-- not-run: reason -->`).to.deep.equal([]);
    }
  });

  it('finds the examples: the first is a curl, and $TOKEN is created before its first use', () => {
    const commands = steps.filter((step): step is ShellCommand & { file: string } => step.kind === 'command');
    expect(commands.length).to.be.at.least(40);
    expect(commands[0]!.text).to.match(/^curl /);
    const created = commands.findIndex((step) => /^TOKEN=\$\(/.test(step.text));
    const used = commands.findIndex((step) => step.text.includes('$TOKEN') && !/^TOKEN=/.test(step.text));
    expect(created).to.be.at.least(0);
    expect(created).to.be.below(used);
    expect(server.output).to.match(/seed: the database was empty, so it now holds sample content: .*30 articles/);
  });

  for (const step of steps) {
    if (step.kind === 'files') {
      it(`${where(step)}: writes ${Object.keys(step.files).join(', ')} and the app restarts with them`, async () => {
        const boots = server.boots;
        for (const [file, content] of Object.entries((step as AppFiles).files)) {
          fs.mkdirSync(path.dirname(path.join(appDir, file)), { recursive: true });
          fs.writeFileSync(path.join(appDir, file), content);
        }
        await server.waitForBoot(boots + 1);
      });
      continue;
    }
    if (step.kind === 'graphql') {
      it(`${where(step)}: the GraphQL example answers data and no errors`, async () => {
        const token = (await shell.run('printf %s "$TOKEN"')).output.trim();
        const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ query: step.query }),
        });
        const body = (await response.json()) as { data?: Record<string, unknown> | null; errors?: unknown[] };
        const context = `${step.query}\n--- answer:\n${JSON.stringify(body, null, 2)}`;
        expect(body.errors, context).to.equal(undefined);
        expect(response.status, context).to.equal(200);
        expect(Object.values(body.data ?? {}).every((value) => value !== null), context).to.equal(true);
      });
      continue;
    }
    it(describeCommand(step), async () => {
      const text = step.text.replaceAll('localhost:1337', `127.0.0.1:${port}`);
      const result = await shell.run(text);
      const context = `${step.text}\n--- output:\n${result.output}\n--- body:\n${result.body ?? ''}`;
      expect(result.exitCode, context).to.equal(0);
      if (result.status === undefined) return;
      expect(result.status, context).to.equal(step.expectedStatus);
      const body = JSON.parse(result.body!);
      if (step.expectedStatus >= 400) {
        expect(body.error.status, context).to.equal(step.expectedStatus);
        return;
      }
      expect(body, context).to.have.property('data');
      // A GET example that shows nothing teaches nothing: lists and entries must have content.
      if (step.expectsEmpty) {
        expect(body.data, context).to.deep.equal([]);
      } else if (!/-X\s+(POST|PUT|DELETE)/.test(step.text)) {
        expect(body.data, context).not.to.equal(null);
        if (Array.isArray(body.data)) expect(body.data, context).not.to.be.empty;
        else if (Array.isArray(body.data.routes)) expect(body.data.routes, context).not.to.be.empty;
      }
    });
  }
});
