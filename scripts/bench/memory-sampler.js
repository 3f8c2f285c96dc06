'use strict';
/**
 * Preloaded into a server by scripts/bench/versus-strapi.sh (NODE_OPTIONS=--require): every 2 s, one JSON line of
 * the process's memory in MiB to BENCH_MEMORY_FILE — the resident set, V8's heap by space and its compiled code,
 * and memory held outside the heap — so a run reports where each server's memory is, not the total alone. Without
 * BENCH_MEMORY_FILE (or in a process the server starts that is not the server) it does nothing.
 */
const fs = require('node:fs');
const v8 = require('node:v8');

const file = process.env.BENCH_MEMORY_FILE;
// Only the first process of the variable: a worker or tool the server spawns inherits NODE_OPTIONS, not this role.
if (file && !process.env.BENCH_MEMORY_SAMPLING) {
  process.env.BENCH_MEMORY_SAMPLING = String(process.pid);
  const mib = (bytes) => Math.round(bytes / 1048576);
  const timer = setInterval(() => {
    const usage = process.memoryUsage();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((space) => [space.space_name, mib(space.space_size)]));
    const code = v8.getHeapCodeStatistics();
    const line = {
      rss: mib(usage.rss),
      heapTotal: mib(usage.heapTotal),
      heapUsed: mib(usage.heapUsed),
      newSpace: spaces.new_space,
      oldSpace: spaces.old_space,
      largeObjects: (spaces.large_object_space ?? 0) + (spaces.new_large_object_space ?? 0),
      code: mib(code.code_and_metadata_size + code.bytecode_and_metadata_size),
      external: mib(usage.external),
      // Of the resident set, the pages of mapped files (Linux): code of the binary and libraries, and a database
      // file mapped for reads (Tessera's SQLite mmap), which the kernel shares with its page cache and may drop.
      files: mappedFileMib(),
    };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 2000);
  timer.unref();
}

function mappedFileMib() {
  try {
    const match = /^RssFile:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}
