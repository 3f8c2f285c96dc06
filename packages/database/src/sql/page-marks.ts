/**
 * Page marks: a deep page of a list in id order starts from a remembered id
 * instead of walking every row before it.
 *
 * `pagination[page]=260` of a list sorted by id (every list a client does not
 * sort) makes the database walk the 6,475 matching rows before the page, on
 * every request: the one cost of a list that grows with the page number, even
 * ids first (deep-page.ts). The ids at every MARK_STRIDE-th row of the order
 * (the 500th, the 1,000th, …) are read once, in one walk of the matching ids,
 * and kept for the plan under the stamp its list total is kept under
 * (count-cache.ts: every type its filters reach, a generation that other
 * connections' commits advance, and on PostgreSQL and MySQL a wait until
 * every write committed before the request has been heard). Then the page at
 * offset 6,475 is the rows after the 6,000th row's id, skipping 475:
 *
 *   … WHERE <filters> AND t0.id > :mark ORDER BY t0.id LIMIT 25 OFFSET 475
 *
 * the same rows, since the order is by id alone, which is unique: the rows
 * after the mark are exactly those after the 6,000th. A write to a type the
 * plan reads changes the stamp, and the marks are read again.
 *
 * Marks are read on the second deep page asked for under one stamp, not the
 * first, so a list that is written to between its deep pages (where marks
 * would be read for every page and used once) costs what it did. A page read
 * with its total (the total not cached) is read as asked and does not count,
 * on every database. Never in a transaction, nor while cross-process
 * invalidations may be missed; only lists sorted by the entry's own id, only
 * from DEEP_OFFSET on.
 */
import type { Page, ReadPlan } from '../query/plan';
import { DEEP_OFFSET } from './deep-page';

/** Rows between two marks: a marked page walks fewer than this many rows before it. */
export const MARK_STRIDE = 500;

/** Where a page starts once marks are known: the rows after `after` (in the list's order), skipping `offset` of them. */
export interface MarkedStart {
  after: number;
  offset: number;
}

/** What keeps stamps: CountCache (count-cache.ts). */
export interface StampSource {
  /**
   * The stamp under which something derived from `query`'s matching rows may be kept and reused now, undefined when
   * nothing may be. `held(stamp)`: is something held under that stamp (then it first waits to have heard of every
   * write committed before the call)?
   */
  currentStamp(query: ReadPlan, held: (stamp: string) => boolean): Promise<string | undefined>;
}

interface Held {
  stamp: string;
  /** Undefined after the first deep page under this stamp: marks are read on the second. */
  marks?: Promise<readonly number[]>;
}

/** Is `query` in the entry's own id order, with nothing else sorted first? */
export function sortedById(query: ReadPlan): boolean {
  const [first, ...rest] = query.sort;
  return first !== undefined && rest.length === 0 && first.path.length === 0 && first.field.column === 'id';
}

/** May marks serve `page` of `query` at all? Checked before anything is awaited, so other pages go on at once. */
export function marksMayServe(query: ReadPlan, page: Page | undefined): page is Page {
  return page !== undefined && page.offset >= DEEP_OFFSET && sortedById(query);
}

export class PageMarks {
  private readonly held = new WeakMap<ReadPlan, Held>();

  constructor(private readonly stamps: StampSource) {}

  /**
   * Where `page` of `query` starts after a mark, or undefined to read it as asked. `read` reads the marks: the ids at
   * every MARK_STRIDE-th matching row, in order.
   */
  async start(query: ReadPlan, page: Page, read: () => Promise<readonly number[]>): Promise<MarkedStart | undefined> {
    if (!marksMayServe(query, page)) return undefined;
    const stamp = await this.stamps.currentStamp(query, (current) => this.held.get(query)?.stamp === current);
    if (stamp === undefined) return undefined;
    const held = this.held.get(query);
    if (!held || held.stamp !== stamp) {
      this.held.set(query, { stamp });
      return undefined;
    }
    if (!held.marks) {
      const marks = read();
      held.marks = marks;
      // A failed read is the request's error; the next deep page reads them again.
      marks.catch(() => {
        if (this.held.get(query) === held) this.held.delete(query);
      });
    }
    const marks = await held.marks;
    const passed = Math.min(Math.floor(page.offset / MARK_STRIDE), marks.length);
    if (passed === 0) return undefined;
    return { after: marks[passed - 1]!, offset: page.offset - passed * MARK_STRIDE };
  }
}
