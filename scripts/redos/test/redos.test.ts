/**
 * No pattern in Tessera's source can backtrack (ReDoS): every regular
 * expression literal and `RegExp(…)` in packages/ and plugins/ src is
 * checked with recheck (the same checker that refuses a schema's vulnerable
 * `regex` at boot), and the list checked is printed. A vulnerable pattern,
 * or one recheck cannot decide, fails the suite; so does a `RegExp` built
 * from an expression that is not named below with the reason it is safe.
 */
import { expect } from 'chai';
import { checkPattern, type PatternVerdict } from '@tessera/core';
import { patternsIn, sourceFiles, type DynamicPattern, type StaticPattern } from './source-patterns';

/** Patterns built at run time, reviewed: where, what they are built from, and why no request makes them backtrack. */
const REVIEWED_DYNAMIC: Array<{ file: string; expression: string; why: string }> = [
  {
    file: 'packages/core/src/content/validate-entry.ts',
    expression: 'new RegExp(attribute.regex)',
    why: 'a schema `regex`: checked with recheck when the app loads (a vulnerable one stops the boot), and run on at most MAX_PATTERN_INPUT characters',
  },
  {
    file: 'packages/core/src/loader/validate-schema.ts',
    expression: 'new RegExp(attribute.regex as string)',
    why: 'only compiled, to report a syntax error in a schema `regex`; never run',
  },
  {
    file: 'packages/database/src/connection/statements.ts',
    expression: "new RegExp(`\\\\b(${columns.map((column) => column.replace(/[^A-Za-z0-9_]/g, '')).join('|')})\\\\b`)",
    why: 'word-bounded alternatives of column names (letters, digits, underscores): no quantifier, matched against the SQL text of a statement (which the model builds)',
  },
  {
    file: 'packages/cli/src/develop/ignored-files.ts',
    expression: "new RegExp(`^${pattern.replace(/\\/\\(\\?:\\.\\*\\/\\)\\?$|\\/\\.\\*$/, '(?:/.*)?')}$`)",
    why: "`tessera develop`'s watcher: globs from Strapi's fixed ignore list and the app's own admin.watchIgnoreFiles, matched against the paths of files changed in the app folder (filesystem paths, never request input)",
  },
  {
    file: 'packages/database/src/sql/writer.ts',
    expression: 'new RegExp(`\\\\b${candidate.column}\\\\b`)',
    why: 'one word-bounded column name from the model, no quantifier, matched against a driver error message',
  },
];

/**
 * No time limit: recheck's step budgets alone bound each check (core's pattern-safety.ts), so a verdict never
 * depends on how busy the machine is (with time limits, 2 runs in 3 failed on a loaded machine, each naming other
 * patterns whose attack strings ran in about a millisecond).
 */
const NO_TIME_LIMIT = null;

describe('ReDoS: every regular expression in packages/ and plugins/ src', function () {
  this.timeout(600_000);
  const found = sourceFiles().flatMap((file) => patternsIn(file));
  const statics = found.filter((pattern): pattern is StaticPattern => pattern.kind === 'static');
  const dynamics = found.filter((pattern): pattern is DynamicPattern => pattern.kind === 'dynamic');

  it('finds the patterns (the scanner itself works)', () => {
    expect(statics.length).to.be.greaterThan(50);
    expect(statics.some((pattern) => pattern.where.startsWith('plugins/users-permissions/src/services/jwt.ts'))).to.equal(true);
  });

  it('no static pattern can backtrack super-linearly (recheck)', () => {
    const verdicts: Array<{ where: string; verdict: PatternVerdict }> = statics.map((pattern) => ({ where: pattern.where, verdict: checkPattern(pattern.source, pattern.flags, NO_TIME_LIMIT) }));
    // The list CI shows: every pattern checked, with its verdict.
    console.log(`    ReDoS check of ${verdicts.length} patterns:`);
    for (const { where, verdict } of verdicts) console.log(`      ${verdict.status.padEnd(10)} ${verdict.complexity.padEnd(22)} ${where}  /${verdict.source}/${verdict.flags}`);
    const bad = verdicts.filter(({ verdict }) => verdict.status !== 'safe');
    expect(bad.map(({ where, verdict }) => `${where} /${verdict.source}/${verdict.flags}: ${verdict.status} ${verdict.complexity} ${verdict.attack ?? ''}`)).to.deep.equal([]);
  });

  it('every RegExp built at run time is reviewed', () => {
    console.log(`    ${dynamics.length} patterns built at run time:`);
    for (const pattern of dynamics) console.log(`      ${pattern.where}  ${pattern.expression}`);
    const unreviewed = dynamics.filter((pattern) => !REVIEWED_DYNAMIC.some((known) => pattern.where.startsWith(`${known.file}:`) && pattern.expression === known.expression));
    expect(unreviewed.map((pattern) => `${pattern.where} ${pattern.expression}`)).to.deep.equal([]);
  });

  it('the checker catches what it must: the email pattern of issue 23 and a nested quantifier', () => {
    const email = checkPattern('^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', '', NO_TIME_LIMIT);
    expect([email.status, email.complexity]).to.deep.equal(['vulnerable', 'polynomial (degree 2)']);
    expect(checkPattern('^(a+)+$', '', NO_TIME_LIMIT).complexity).to.equal('exponential');
    expect(checkPattern('^[a-z0-9-]+$', '', NO_TIME_LIMIT).status).to.equal('safe');
  });
});
