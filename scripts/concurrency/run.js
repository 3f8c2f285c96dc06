#!/usr/bin/env node
/**
 * The history checker's long mode: the CI test with more rounds.
 *
 *   npm run test:concurrency -- --rounds 500 [--seed 7]
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 && process.argv[index + 1] !== undefined ? process.argv[index + 1] : fallback;
}

const rounds = option('rounds', '100');
const seed = option('seed', String(Date.now() % 100000));
if (!/^\d+$/.test(rounds) || !/^\d+$/.test(seed)) {
  console.error('usage: npm run test:concurrency -- [--rounds N] [--seed N]');
  process.exit(2);
}
console.log(`history checker: ${rounds} rounds, seed ${seed}`);
const result = spawnSync(process.execPath, [path.join(__dirname, '..', 'test.js'), '--grep', 'concurrent history'], {
  stdio: 'inherit',
  env: { ...process.env, TESSERA_CONCURRENCY_ROUNDS: rounds, TESSERA_CONCURRENCY_SEED: seed },
});
process.exit(result.status === null ? 1 : result.status);
