/**
 * Cached list totals. `meta.pagination.total` costs a `count(*)` over every
 * matching row on each list request — the bottleneck of a PostgreSQL list.
 * A total is kept per read plan (plans are cached per type, parameters and
 * caller scope, so the plan object is the key) and stamped with the write
 * versions of every type the plan's filters touch. A committed write to one
 * of those types changes the stamp, so the next request counts again.
 *
 * Other processes learn of writes through `invalidations` (PostgreSQL
 * LISTEN/NOTIFY, see write-notifications.ts; MySQL by polling, see
 * mysql-write-versions.ts); while that channel is down the cache is bypassed,
 * so no stale total outlives a missed notification. Both are heard some time
 * after the commit, so a total is reused only after `heardUpToNow`
 * (heard-barrier.ts): a request never gets a total counted before a write
 * that was answered before it arrived. On SQLite, `PRAGMA data_version`
 * tells of commits by any other connection.
 * Counts inside a transaction are never cached: they may see uncommitted rows.
 */
import type { Condition, ReadPlan } from '../query/plan';

export interface CountCacheHooks {
  /** True when the type has count lifecycles (they must run: no caching). */
  hasCountHooks(uid: string): boolean;
  /** True inside a transaction. */
  inTransaction(): boolean;
  /** SQLite: has another connection committed since the last call? */
  changedElsewhere?(): boolean;
  /** PostgreSQL, MySQL: resolves once every write committed (by any process) before the call has been heard. */
  heardUpToNow?(): Promise<void>;
}

/**
 * How `pageWithTotal` reads: the page alone, the page with its total in one statement, the total alone. `page` is given
 * the total when one is held: how many rows match can choose how the page is found (reader.ts `findMany`).
 */
export interface PageReads<T> {
  page(matching?: number): Promise<T>;
  counted(): Promise<{ page: T; total: number }>;
  count(): Promise<number>;
}

export class CountCache {
  private readonly versions = new Map<string, number>();
  private generation = 0;
  /** False while cross-process invalidations may be missed (listener down). */
  private coherent = true;
  private readonly totals = new WeakMap<ReadPlan, { stamp: string; total: number }>();
  /** Counts being computed: concurrent misses share one (a cold or just-invalidated total is counted once, not per request). */
  private readonly pending = new WeakMap<ReadPlan, { stamp: string; total: Promise<number> }>();
  private readonly involved = new WeakMap<ReadPlan, string[]>();

  constructor(private readonly hooks: CountCacheHooks) {}

  async count(query: ReadPlan, compute: () => Promise<number>): Promise<number> {
    if (!this.coherent || this.hooks.inTransaction() || this.hooks.hasCountHooks(query.entity.uid)) return compute();
    if (this.hooks.changedElsewhere?.()) this.dropAll();
    // Only a total that looks reusable waits for the check (which may show it is not): one this process already
    // knows to be stale, or none, is counted at once.
    if (this.hooks.heardUpToNow && this.reusable(query)) {
      await this.hooks.heardUpToNow();
      if (!this.coherent) return compute();
    }
    const stamp = this.stamp(query);
    const cached = this.totals.get(query);
    if (cached && cached.stamp === stamp) return cached.total;
    const inFlight = this.pending.get(query);
    if (inFlight && inFlight.stamp === stamp) return inFlight.total;
    // Stamped with the versions seen before counting: a write committing meanwhile bumps them, so this total is never reused after it.
    const counting = compute();
    this.pending.set(query, { stamp, total: counting });
    try {
      const total = await counting;
      this.totals.set(query, { stamp, total });
      return total;
    } finally {
      if (this.pending.get(query)?.total === counting) this.pending.delete(query);
    }
  }

  /**
   * A page of `query` and its total, reading the matching rows once: a total held (or being counted) goes with the
   * page alone (`reads.page`); otherwise the page's own statement counts them (`reads.counted`), and that total is
   * kept, and shared with requests missing it meanwhile, as `count` keeps one. Where `count` would not cache, the
   * page and `reads.count` run side by side (count hooks must run).
   */
  async pageWithTotal<T>(query: ReadPlan, reads: PageReads<T>): Promise<[T, number]> {
    if (!this.coherent || this.hooks.inTransaction() || this.hooks.hasCountHooks(query.entity.uid)) return Promise.all([reads.page(), reads.count()]);
    if (this.hooks.changedElsewhere?.()) this.dropAll();
    if (this.hooks.heardUpToNow && this.reusable(query)) {
      await this.hooks.heardUpToNow();
      if (!this.coherent) return Promise.all([reads.page(), reads.count()]);
    }
    const stamp = this.stamp(query);
    const cached = this.totals.get(query);
    if (cached && cached.stamp === stamp) return [await reads.page(cached.total), cached.total];
    const inFlight = this.pending.get(query);
    if (inFlight && inFlight.stamp === stamp) return Promise.all([reads.page(), inFlight.total]);
    const both = reads.counted();
    // Requests joining this total must not get this request's own failure (its populate may exceed its budget): they count then.
    const counting = both.then(
      ({ total }) => total,
      () => reads.count(),
    );
    counting.catch(() => undefined); // awaited by joiners only, if any
    this.pending.set(query, { stamp, total: counting });
    try {
      const { page, total } = await both;
      this.totals.set(query, { stamp, total });
      return [page, total];
    } finally {
      if (this.pending.get(query)?.total === counting) this.pending.delete(query);
    }
  }

  /**
   * The stamp under which something else derived from `query`'s matching rows (page-marks.ts's marks) may be kept and
   * reused now, as a total is: undefined in a transaction or while invalidations may be missed. `held(stamp)`: is such
   * a thing held under that stamp? Then, on PostgreSQL and MySQL, this first waits to have heard of every write
   * committed before the call, so nothing is reused past a write a client saw succeed.
   */
  async currentStamp(query: ReadPlan, held: (stamp: string) => boolean): Promise<string | undefined> {
    if (!this.coherent || this.hooks.inTransaction()) return undefined;
    if (this.hooks.changedElsewhere?.()) this.dropAll();
    if (this.hooks.heardUpToNow && held(this.stamp(query))) {
      await this.hooks.heardUpToNow();
      if (!this.coherent) return undefined;
    }
    return this.stamp(query);
  }

  /** Is a total of `query` held or being counted under the current stamp? */
  private reusable(query: ReadPlan): boolean {
    const stamp = this.stamp(query);
    return this.totals.get(query)?.stamp === stamp || this.pending.get(query)?.stamp === stamp;
  }

  /** A write to `uid` committed (here or in another process). */
  written(uid: string): void {
    this.versions.set(uid, (this.versions.get(uid) ?? 0) + 1);
  }

  dropAll(): void {
    this.generation++;
  }

  /** Cross-process invalidations are (not) flowing; turning them back on drops everything that may have been missed. */
  setCoherent(coherent: boolean): void {
    if (coherent && !this.coherent) this.dropAll();
    this.coherent = coherent;
  }

  private stamp(query: ReadPlan): string {
    let types = this.involved.get(query);
    if (!types) {
      types = typesOf(query);
      this.involved.set(query, types);
    }
    let stamp = String(this.generation);
    for (const uid of types) stamp += `:${this.versions.get(uid) ?? 0}`;
    return stamp;
  }
}

/** The plan's own type and every type its filters reach. */
function typesOf(query: ReadPlan): string[] {
  const types = new Set<string>([query.entity.uid]);
  const visit = (condition: Condition | null): void => {
    if (!condition) return;
    switch (condition.kind) {
      case 'and':
      case 'or':
        condition.items.forEach(visit);
        return;
      case 'not':
        visit(condition.item);
        return;
      case 'compare':
        return;
      default:
        types.add(condition.target.uid);
        visit(condition.condition);
    }
  };
  visit(query.where);
  return [...types];
}
