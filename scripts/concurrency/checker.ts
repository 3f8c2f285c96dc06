/**
 * The history checker: given the requests of one concurrent round with their
 * answers and times, the state before and the state after, it searches for a
 * serial order of the requests that explains every answer and ends in the
 * observed state (linearizability, in the manner of Wing & Gong's search with
 * Lowe's memoisation). A request that ended before another began must come
 * before it in that order.
 *
 * Three reductions keep the search small: a failed request (4xx) changes
 * nothing, so it is placed as soon as the model agrees with its answer
 * (moving a no-op earlier never invalidates an order); (set of placed
 * requests, state) pairs already explored are not explored again; and a
 * branch ends as soon as a pending request can never be explained any more
 * — its 2xx answer shows an entry that is gone for good (ids are never
 * reused) or a title no pending write will set again (every write's title
 * is unique), or its 404 an entry that exists and no pending delete removes.
 */
import { shownAbsent, shownTitle, shownToExist, step, stateKey, type EntryRef, type Observed, type State } from './model';
import { describeOp, type Op } from './workload';

export interface Recorded {
  op: Op;
  observed: Observed;
  /** Milliseconds: when the request was sent and when its answer arrived. */
  start: number;
  end: number;
}

export type Verdict = { ok: true; order: number[]; steps: number } | { ok: false; report: string };

/** Explained rounds need a few dozen steps; an unexplainable one may need exponentially many, so the search stops. */
const DEFAULT_BUDGET = 20_000;

export function checkHistory(initial: State, history: Recorded[], final: State, budget = DEFAULT_BUDGET): Verdict {
  const early = obviousViolations(history);
  if (early.length > 0) return { ok: false, report: report(history, early, null, initial) };
  const search = new Search(history, stateKey(final), budget);
  const order = search.run(initial);
  if (order) return { ok: true, order, steps: search.steps };
  const problems = search.exhausted
    ? [`no serial order found: the search stopped after ${budget} steps without explaining every answer and the final state`]
    : ['no serial order of these requests explains every answer and the final state'];
  return { ok: false, report: report(history, problems, search.best, initial, final) };
}

/** Violations that need no search: server errors, and one id created twice. */
function obviousViolations(history: Recorded[]): string[] {
  const problems: string[] = [];
  history.forEach((entry, index) => {
    if (entry.observed.status >= 500) problems.push(`#${index} answered ${entry.observed.status}: ${entry.observed.message ?? ''}`);
  });
  for (const kind of ['createArticle', 'createTag'] as const) {
    const ids = history.filter((entry) => entry.op.kind === kind && entry.observed.status === 200).map((entry) => entry.observed.entry!.id);
    const twice = ids.filter((id, index) => ids.indexOf(id) !== index);
    if (twice.length > 0) problems.push(`${kind} returned id ${twice.join(', ')} more than once`);
  }
  return problems;
}

interface Prefix {
  order: number[];
  state: State;
}

class Search {
  steps = 0;
  exhausted = false;
  /** The longest explained prefix met, for the report. */
  best: Prefix | null = null;
  private readonly seen = new Set<string>();
  private readonly mustFollow: bigint[];
  private readonly all: bigint;
  private readonly byEnd: number[];
  /** Per request: the entry its answer created or deleted, what it shows existed (2xx) or was absent (404). */
  private readonly created: Array<EntryRef | null>;
  private readonly deleted: Array<EntryRef | null>;
  private readonly needs: EntryRef[][];
  private readonly absent: Array<EntryRef | null>;
  private readonly titles: Array<{ id: number; title: string } | null>;

  constructor(
    private readonly history: Recorded[],
    private readonly finalKey: string,
    private readonly budget: number,
  ) {
    this.all = (1n << BigInt(history.length)) - 1n;
    // Request i may be placed only once every request that ended before i began is placed.
    this.mustFollow = history.map((entry) => history.reduce((mask, other, j) => (other.end < entry.start ? mask | bit(j) : mask), 0n));
    this.byEnd = history.map((_, index) => index).sort((a, b) => history[a].end - history[b].end);
    const ok = (entry: Recorded) => entry.observed.status < 300;
    this.created = history.map(({ op, observed }) => {
      if (observed.status >= 300 || !observed.entry) return null;
      if (op.kind === 'createArticle') return { type: 'articles', id: observed.entry.id };
      return op.kind === 'createTag' ? { type: 'tags', id: observed.entry.id } : null;
    });
    this.deleted = history.map((entry) => {
      if (!ok(entry)) return null;
      if (entry.op.kind === 'deleteArticle') return { type: 'articles', id: entry.op.id };
      return entry.op.kind === 'deleteTag' ? { type: 'tags', id: entry.op.id } : null;
    });
    this.needs = history.map((entry) => (ok(entry) ? shownToExist(entry.op, entry.observed) : []));
    this.absent = history.map((entry) => (entry.observed.status === 404 ? shownAbsent(entry.op) : null));
    this.titles = history.map((entry) => shownTitle(entry.op, entry.observed));
  }

  run(initial: State): number[] | null {
    try {
      return this.explore(initial, 0n, []);
    } catch (error) {
      if (error !== BUDGET) throw error;
      this.exhausted = true;
      return null;
    }
  }

  private explore(start: State, startDone: bigint, startOrder: number[]): number[] | null {
    if (++this.steps > this.budget) throw BUDGET;
    const { state, done, order } = this.placeFailures(start, startDone, startOrder);
    if (!this.best || order.length > this.best.order.length) this.best = { order, state };
    if (done === this.all) return stateKey(state) === this.finalKey ? order : null;
    const key = `${done.toString(36)}|${stateKey(state)}`;
    if (this.seen.has(key)) return null;
    this.seen.add(key);
    if (this.someRequestIsDead(state, done)) return null;
    for (const index of this.byEnd) {
      if (!this.placeable(index, done) || this.history[index].observed.status >= 400) continue;
      const result = step(state, this.history[index].op, this.history[index].observed);
      if (!result.ok) continue;
      const found = this.explore(result.next, done | bit(index), [...order, index]);
      if (found) return found;
    }
    return null;
  }

  /** Places every failed request the model agrees with in this state; repeats until none is left. */
  private placeFailures(state: State, done: bigint, order: number[]): { state: State; done: bigint; order: number[] } {
    let placed = true;
    while (placed) {
      placed = false;
      for (const index of this.byEnd) {
        if (!this.placeable(index, done) || this.history[index].observed.status < 400) continue;
        if (!step(state, this.history[index].op, this.history[index].observed).ok) continue;
        done |= bit(index);
        order = [...order, index];
        placed = true;
      }
    }
    return { state, done, order };
  }

  /** True when a pending request can no longer be explained, whatever comes next. */
  private someRequestIsDead(state: State, done: bigint): boolean {
    const pending = (index: number) => (done & bit(index)) === 0n;
    const exists = (ref: EntryRef) => state[ref.type][ref.id] !== undefined;
    const same = (a: EntryRef | null, b: EntryRef) => a !== null && a.type === b.type && a.id === b.id;
    const mayAppear = (ref: EntryRef) => this.created.some((created, index) => pending(index) && same(created, ref));
    const mayGo = (ref: EntryRef) => this.deleted.some((deleted, index) => pending(index) && same(deleted, ref));
    for (let index = 0; index < this.history.length; index++) {
      if (!pending(index)) continue;
      if (this.needs[index].some((ref) => !exists(ref) && !mayAppear(ref))) return true;
      const absent = this.absent[index];
      if (absent && exists(absent) && !mayGo(absent)) return true;
      const shown = this.titles[index];
      if (shown && state.articles[shown.id] && state.articles[shown.id].title !== shown.title && !this.maySetTitle(shown.title, done)) return true;
    }
    return false;
  }

  private maySetTitle(title: string, done: bigint): boolean {
    return this.history.some(({ op, observed }, index) => (done & bit(index)) === 0n && observed.status < 300 && (op.kind === 'updateArticle' || op.kind === 'createArticle') && op.title === title);
  }

  private placeable(index: number, done: bigint): boolean {
    return (done & bit(index)) === 0n && (done & this.mustFollow[index]) === this.mustFollow[index];
  }
}

const BUDGET = Symbol('budget');

function bit(index: number): bigint {
  return 1n << BigInt(index);
}

/** The history, the longest explained prefix and, after it, why each remaining request cannot come next. */
function report(history: Recorded[], problems: string[], best: Prefix | null, initial: State, final?: State): string {
  const lines = [...problems.map((problem) => `violation: ${problem}`), 'history (request → answer, times in ms from the round start):'];
  history.forEach((entry, index) => {
    const answer = entry.observed.entry ? JSON.stringify(entry.observed.entry) : (entry.observed.message ?? '');
    lines.push(`  #${index} ${describeOp(entry.op)} → ${entry.observed.status} ${answer} [${entry.start.toFixed(0)}–${entry.end.toFixed(0)}]`);
  });
  lines.push(`state before: ${stateKey(initial)}`);
  if (final) lines.push(`state after:  ${stateKey(final)}`);
  if (best) {
    lines.push(`longest explained serial prefix: ${best.order.map((index) => `#${index}`).join(' ') || '(none)'}`);
    lines.push(`  state there: ${stateKey(best.state)}`);
    history.forEach((entry, index) => {
      if (best.order.includes(index)) return;
      const result = step(best.state, entry.op, entry.observed);
      lines.push(`  next #${index}? ${result.ok ? 'explained here (but no complete order follows)' : result.why}`);
    });
  }
  return lines.join('\n');
}
