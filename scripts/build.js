#!/usr/bin/env node
/**
 * `npm run build`: tsc -b over every package, printing each package as it is
 * compiled (tsc -b alone prints nothing for the ~20 s a clean build takes)
 * and the time at the end. Errors are tsc's own output, and its exit code.
 */
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const started = Date.now();
const tsc = spawn(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.build.json', '--verbose', ...process.argv.slice(2)], { cwd: root });
let built = 0;
let pending = '';
const relative = (file) => path.relative(root, path.dirname(path.resolve(root, file))) || '.';

tsc.stdout.on('data', (chunk) => {
  pending += chunk.toString();
  const lines = pending.split('\n');
  pending = lines.pop();
  for (const line of lines) {
    const building = /Building project '([^']+)'/.exec(line);
    if (building) {
      built++;
      console.log(`[build] ${relative(building[1])}`);
    } else if (/error TS\d+/.test(line) || /^\s{2,}\S/.test(line) && !/^\s+\*/.test(line)) console.log(line);
  }
});
tsc.stderr.pipe(process.stderr);
tsc.on('close', (code) => {
  if (pending && /error TS\d+/.test(pending)) console.log(pending);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(code === 0 ? `[build] done in ${seconds} s (${built} package${built === 1 ? '' : 's'} compiled, the rest up to date)` : `[build] failed after ${seconds} s`);
  process.exit(code ?? 1);
});
