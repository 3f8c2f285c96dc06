'use strict';
/**
 * The report: one row per scenario (Tessera req/s, p50, p99; baseline req/s,
 * p50, p99; Tessera/baseline), printed to the console and written as
 * markdown to scripts/bench/last-run.md with the machine, versions and mode.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const AIM = 0.8; // issue 42: Tessera ≥ 0.8 × the baseline running the same requests' SQL, on every read scenario

const HEADERS = ['scenario', 'Tessera req/s', 'p50 ms', 'p99 ms', 'baseline req/s', 'p50 ms', 'p99 ms', 'Tessera/baseline'];

function formatRow({ scenario, tessera, baseline, error }) {
  if (error) return [scenario.title, `FAILED: ${error}`.slice(0, 120), '', '', '', '', '', ''];
  const ratio = tessera.rps / baseline.rps;
  const mark = scenario.read ? (ratio >= AIM ? ' ✓' : ' ✗') : '';
  const failed = tessera.failures + baseline.failures;
  const timeouts = tessera.timeouts + baseline.timeouts;
  return [
    scenario.title +
      (failed > 0 ? ` (${tessera.failures}/${baseline.failures} failed requests!)` : '') +
      (timeouts > 0 ? ` (${tessera.timeouts}/${baseline.timeouts} timeouts)` : ''),
    Math.round(tessera.rps).toLocaleString('en-US'),
    String(tessera.p50),
    String(tessera.p99),
    Math.round(baseline.rps).toLocaleString('en-US'),
    String(baseline.p50),
    String(baseline.p99),
    `${ratio.toFixed(2)}${mark}`,
  ];
}

function environment(settings) {
  const cpus = os.cpus();
  return [
    `- date: ${new Date().toISOString()}`,
    `- machine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}`,
    `- node ${process.version}, autocannon ${require('autocannon/package.json').version}, better-sqlite3 ${require('better-sqlite3/package.json').version}, pg ${require('pg/package.json').version}, mysql2 ${require('mysql2/package.json').version}`,
    `- load: ${settings.connections} connections, ${settings.duration} s per scenario after a ${settings.warmup} s warm-up; load generator on the same machine; load average ${os.loadavg().map((load) => load.toFixed(1)).join(' / ')} at the end`,
    `- mode: ${MODE_TITLES[settings.mode]}`,
    `- data: 10,000 articles (every third a draft), 10 categories, 20 tags, 20 writers; SQLite (WAL), PostgreSQL and MySQL/MariaDB on this machine`,
  ].join('\n');
}

function markdownTable(rows) {
  const lines = [`| ${HEADERS.join(' | ')} |`, `|${HEADERS.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const row of rows) lines.push(`| ${formatRow(row).join(' | ')} |`);
  return lines.join('\n');
}

function consoleTable(rows) {
  const cells = [HEADERS, ...rows.map(formatRow)];
  const widths = HEADERS.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  return cells.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')).join('\n');
}

const DATABASE_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MySQL/MariaDB' };
const BASELINES = {
  sqlite: 'bare better-sqlite3, prepared statements',
  postgres: 'bare pg, named prepared statements',
  mysql: 'bare mysql2, statements as Tessera sends them',
};
const MODE_TITLES = {
  varied: 'varied — every request differs (a random page, search term, id, category or slug from a seeded sequence, BENCH_SEED)',
  fixed: 'fixed URL — identical concurrent requests (one URL per scenario; get one walks the ids, create sends new slugs)',
};

/** Prints one table per database and writes last-run.md; returns the markdown. */
function report(results, settings) {
  const sections = [];
  for (const { dialect, rows, notes } of results) {
    console.log(`\n${DATABASE_NAMES[dialect]}, ${settings.mode === 'fixed' ? 'fixed URL (identical concurrent requests)' : 'varied (every request differs)'}\n${consoleTable(rows)}\n`);
    sections.push(
      `## ${DATABASE_NAMES[dialect]}, ${settings.mode === 'fixed' ? 'identical concurrent requests (fixed URL)' : 'every request different (varied)'} (baseline: ${BASELINES[dialect]})`,
      '',
      markdownTable(rows),
      '',
      `Requests (${settings.mode === 'fixed' ? 'the fixed URL' : '`{}` is the varying number'}) and SQL statements per request (first sample):`,
      ...notes,
      '',
    );
  }
  const markdown = [
    '# Tessera benchmark — last run',
    '',
    environment(settings),
    '',
    ...sections,
    `Latencies in ms. ✓/✗: read scenario at/below the aim of ${AIM} × baseline.`,
    '',
  ].join('\n');
  const file = path.join(__dirname, 'last-run.md');
  fs.writeFileSync(file, markdown);
  console.log(`written to ${path.relative(process.cwd(), file)}`);
  return markdown;
}

module.exports = { report, AIM };
