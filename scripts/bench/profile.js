'use strict';
/**
 * Summarises a V8 CPU profile written by `npm run bench -- --profile`
 * (Tessera runs under `node --cpu-prof`; profiles land in
 * scripts/bench/profiles/, which is not committed).
 *
 *   node scripts/bench/profile.js [file.cpuprofile] [--top 25]
 *
 * Prints self time per function (where the CPU actually is) and inclusive
 * time per source file and per package (which layer costs what). Without a
 * file, the newest profile is used. Profile with BENCH_ONLY=<one scenario>
 * to see that scenario alone.
 */
const fs = require('node:fs');
const path = require('node:path');

const PROFILE_DIR = path.join(__dirname, 'profiles');

function newestProfile() {
  const files = fs.existsSync(PROFILE_DIR) ? fs.readdirSync(PROFILE_DIR).filter((f) => f.endsWith('.cpuprofile')) : [];
  if (files.length === 0) throw new Error(`no .cpuprofile in ${PROFILE_DIR}; run: BENCH_ONLY=list npm run bench -- --profile`);
  return files.map((f) => path.join(PROFILE_DIR, f)).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
}

/** Where a frame's code lives, shortened to what a reader recognises. */
function place(frame) {
  const url = frame.url.replace(/^file:\/\//, '');
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const root = path.resolve(__dirname, '../..') + '/';
  return url.startsWith(root) ? url.slice(root.length) : url;
}

function packageOf(where) {
  if (where.startsWith('node:') || where === '(native)') return where === '(native)' ? '(native/gc/idle)' : 'node core';
  if (where.startsWith('@')) return where.split('/').slice(0, 2).join('/');
  if (/^(packages|plugins|apps)\//.test(where)) return where.split('/').slice(0, 2).join('/');
  return where.split('/')[0];
}

function summarise(profile, top) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  // Self time per node from the sample timeline.
  const selfMicros = new Map();
  profile.samples.forEach((id, i) => selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);
  const idle = [...selfMicros].filter(([id]) => ['(idle)', '(program)'].includes(nodes.get(id).callFrame.functionName)).reduce((a, [, t]) => a + t, 0);
  const busy = total - idle;

  const byFunction = new Map();
  const byFile = new Map();
  const byPackage = new Map();
  for (const [id, micros] of selfMicros) {
    const frame = nodes.get(id).callFrame;
    if (['(idle)', '(program)'].includes(frame.functionName)) continue;
    const where = place(frame);
    const key = `${frame.functionName || '(anonymous)'}  ${where}:${frame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
    // Inclusive per file/package: count each file once per stack.
    const seenFiles = new Set();
    const seenPackages = new Set();
    for (let cursor = id; cursor !== undefined; cursor = parent.get(cursor)) {
      const at = place(nodes.get(cursor).callFrame);
      if (at === '(native)' && cursor !== id) continue;
      seenFiles.add(at);
      seenPackages.add(packageOf(at));
    }
    for (const file of seenFiles) byFile.set(file, (byFile.get(file) ?? 0) + micros);
    for (const pkg of seenPackages) byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
  }

  const pct = (micros) => `${((100 * micros) / busy).toFixed(1).padStart(5)}%`;
  const list = (title, map, count) => {
    console.log(`\n${title}`);
    for (const [key, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`  ${pct(micros)}  ${key}`);
  };
  console.log(`busy ${(busy / 1e6).toFixed(1)} s of ${(total / 1e6).toFixed(1)} s sampled (percentages are of busy time)`);
  list('self time by function', byFunction, top);
  list('inclusive time by package', byPackage, 15);
  list('inclusive time by file', byFile, top);
}

function main() {
  const argv = process.argv.slice(2);
  const topIndex = argv.indexOf('--top');
  const top = topIndex >= 0 ? Number(argv[topIndex + 1]) : 25;
  const file = argv.find((arg, i) => !arg.startsWith('--') && argv[i - 1] !== '--top') ?? newestProfile();
  console.log(`profile: ${path.relative(process.cwd(), file)}`);
  summarise(JSON.parse(fs.readFileSync(file, 'utf8')), top);
}

main();
