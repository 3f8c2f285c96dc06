/**
 * Whether a regular expression can backtrack super-linearly (ReDoS), decided
 * by recheck (automata analysis plus fuzzing, offline). One checker for two
 * uses: schema `regex` validators are checked when the app loads (a
 * vulnerable one stops the boot: it runs on request input), and the test
 * suite checks every pattern in Tessera's own source with it
 * (scripts/redos/test).
 *
 * recheck's synchronous entry runs its pure-JavaScript backend here, in
 * process: no worker, no native binary or JVM, the same answer on every
 * machine. It is loaded on first use (a large bundle), so an app without
 * schema patterns never pays for it.
 */
import type { Diagnostics } from 'recheck';

export interface PatternVerdict {
  source: string;
  flags: string;
  /** `safe`, `vulnerable` (can backtrack), or `unknown` (recheck could not decide, e.g. unsupported syntax). */
  status: Diagnostics['status'];
  /** `constant`, `linear`, `polynomial (degree 2)`, `exponential`, or the reason the status is unknown. */
  complexity: string;
  /** For a vulnerable pattern, an input that makes it backtrack (recheck's attack string, shortened). */
  attack?: string;
}

let checker: typeof import('recheck') | undefined;
/** A verdict per pattern for the life of the process: tests and multi-app processes boot the same schemas again. */
const verdicts = new Map<string, PatternVerdict>();

/**
 * recheck's fuzzer measures its trial matches in milliseconds by default (attack 1 s, incubation 250 ms, seeding
 * 100 ms): on a busy machine a safe pattern's trial ran past the limit and was reported vulnerable, a different
 * pattern each run. Here every trial is bounded by the characters its VM reads (recheck's step limits) instead, with
 * a fixed seed, so a pattern gets the same verdict on every machine, busy or not.
 */
const STEP_BUDGETS_ONLY = { attackTimeout: null, incubationTimeout: null, seedingTimeout: null, recallTimeout: -1, randomSeed: 0 } as const;

/**
 * `timeoutMs`: how long recheck may think in all before answering `unknown` (its default: 10 s; `null`: no limit,
 * the step budgets alone bound the work — the verdict then never depends on the machine's speed).
 */
export function checkPattern(source: string, flags = '', timeoutMs?: number | null): PatternVerdict {
  const key = `${flags}/${timeoutMs === undefined ? '' : String(timeoutMs)}/${source}`;
  let verdict = verdicts.get(key);
  if (!verdict) {
    verdict = analyse(source, flags, timeoutMs);
    verdicts.set(key, verdict);
  }
  return verdict;
}

function analyse(source: string, flags: string, timeoutMs: number | null | undefined): PatternVerdict {
  // Read by recheck at each call: the in-process backend instead of a worker thread.
  process.env.RECHECK_SYNC_BACKEND ??= 'pure';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  checker ??= require('recheck') as typeof import('recheck');
  const result = checker.checkSync(source, flags, timeoutMs === undefined ? STEP_BUDGETS_ONLY : { ...STEP_BUDGETS_ONLY, timeout: timeoutMs });
  if (result.status === 'unknown') return { source, flags, status: 'unknown', complexity: result.error.kind };
  const { complexity } = result;
  const described = complexity.type === 'polynomial' ? `polynomial (degree ${complexity.degree})` : complexity.type;
  if (result.status === 'safe') return { source, flags, status: 'safe', complexity: described };
  const attack = result.attack.pattern;
  return { source, flags, status: 'vulnerable', complexity: described, attack: attack.length > 120 ? `${attack.slice(0, 120)}…` : attack };
}
