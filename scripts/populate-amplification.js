#!/usr/bin/env node
/**
 * Measures the populate-amplification request of issue 23 (finding 2) against a
 * production `tessera start` of the example app on SQLite: one anonymous
 * 166-byte URL, tags → articles → tags … six levels deep, 100 per page.
 *
 *   node scripts/populate-amplification.js [--four-tags] [--limit N] [--timeout S]
 *
 * --four-tags gives every article four tags first (the review's set-up; the
 * seed gives one to three). --limit sets api.rest.maxPopulatedEntries through a
 * config file written into the scratch app. Prints the status, the time to the
 * last byte, the response size and the server's peak RSS (VmHWM), or how the
 * server died. Run `npm run build` first.
 */
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const Database = require('better-sqlite3');

const ROOT = path.resolve(__dirname, '..');
const URL_PATH =
  '/api/articles?populate[tags][populate][articles][populate][tags][populate][articles][populate][tags][populate][articles]=true&pagination[pageSize]=100';

const args = process.argv.slice(2);
const fourTags = args.includes('--four-tags');
const limitIndex = args.indexOf('--limit');
const limit = limitIndex >= 0 ? Number(args[limitIndex + 1]) : undefined;
const timeoutIndex = args.indexOf('--timeout');
const timeoutMs = (timeoutIndex >= 0 ? Number(args[timeoutIndex + 1]) : 120) * 1000;

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function kib(pid, key) {
  try {
    const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((entry) => entry.startsWith(key));
    return line ? Number(line.split(/\s+/)[1]) : undefined;
  } catch {
    return undefined;
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-amplification-'));
  for (const part of ['config', 'src']) fs.cpSync(path.join(ROOT, 'apps/example', part), path.join(dir, part), { recursive: true });
  if (limit !== undefined) {
    const api = fs.readFileSync(path.join(dir, 'config/api.ts'), 'utf8').replace('rest: {', `rest: {\n    maxPopulatedEntries: ${limit},`);
    fs.writeFileSync(path.join(dir, 'config/api.ts'), api);
  }
  const port = await freePort();
  const file = path.join(dir, 'data.db');
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_FILENAME: file, API_TOKEN_SALT: 'measure', JWT_SECRET: 'measure-jwt-secret' };
  for (const key of Object.keys(env)) if (key.startsWith('DATABASE_') && key !== 'DATABASE_FILENAME') delete env[key];
  const server = spawn(process.execPath, [path.join(ROOT, 'packages/cli/bin/tessera.js'), 'start'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout.on('data', (chunk) => (output += chunk));
  server.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => server.once('exit', (code, signal) => resolve(signal ?? code)));
  while (!output.includes('ready at')) {
    if (server.exitCode !== null) throw new Error(`server exited:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (fourTags) {
    const db = new Database(file);
    const tags = db.prepare('SELECT id FROM tags ORDER BY id').all().map((row) => row.id);
    const articles = db.prepare('SELECT id FROM articles ORDER BY id').all().map((row) => row.id);
    const has = db.prepare('SELECT 1 FROM articles_tags_links WHERE article_id = ? AND tag_id = ?');
    const add = db.prepare('INSERT INTO articles_tags_links (article_id, tag_id, tag_order, article_order) VALUES (?, ?, ?, ?)');
    for (const [index, article] of articles.entries()) {
      let order = db.prepare('SELECT count(*) AS n FROM articles_tags_links WHERE article_id = ?').get(article).n;
      for (let k = 0; order < 4 && k < tags.length; k++) {
        const tag = tags[(index + k) % tags.length];
        if (!has.get(article, tag)) add.run(article, tag, ++order, 1);
      }
    }
    db.close();
  }
  // One plain list first, so the measured request does not pay for the first request's start-up work.
  await (await fetch(`http://127.0.0.1:${port}/api/articles?pagination[pageSize]=100`)).arrayBuffer();
  const baseline = kib(server.pid, 'VmRSS');
  let peak = baseline ?? 0;
  const poll = setInterval(() => (peak = Math.max(peak, kib(server.pid, 'VmRSS') ?? 0)), 20);
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
  let result;
  try {
    const response = await fetch(`http://127.0.0.1:${port}${URL_PATH}`, { signal: AbortSignal.timeout(timeoutMs) });
    let bytes = 0;
    for await (const chunk of response.body) bytes += chunk.length;
    result = { status: response.status, ms: Math.round(elapsed()), bytes };
  } catch (error) {
    result = { error: error.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : String(error.cause?.code ?? error.message), ms: Math.round(elapsed()) };
  }
  clearInterval(poll);
  peak = Math.max(peak, kib(server.pid, 'VmHWM') ?? 0);
  const alive = server.exitCode === null && server.signalCode === null;
  console.log(JSON.stringify({ url: URL_PATH, urlBytes: URL_PATH.length, fourTags, limit: limit ?? 'default', ...result, rssBeforeMiB: Math.round((baseline ?? 0) / 1024), peakRssMiB: Math.round(peak / 1024), serverAlive: alive }));
  if (!alive) console.log(`server exited: ${await exited}\n${output.split('\n').slice(-8).join('\n')}`);
  server.kill('SIGKILL');
  await exited;
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
