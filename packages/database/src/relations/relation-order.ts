/**
 * The new related list of one entry, computed in memory from the current
 * list and the operation: `set` replaces in the given order; `disconnect`
 * removes; `connect` items apply one by one, each position read against the
 * list as it is at that moment (none given: the end). To-one relations keep only the last id.
 */
import { ValidationError } from '@tessera/errors';
import type { ConnectItem, RelationOps } from './relation-input';
import { issue } from './relation-input';

export function nextList(current: number[], ops: RelationOps, toMany: boolean): number[] {
  if (ops.kind === 'set') return toMany ? [...ops.ids] : ops.ids.slice(-1);
  const disconnected = new Set(ops.disconnect);
  const kept = current.filter((id) => !disconnected.has(id));
  if (!toMany) {
    const last = ops.connect[ops.connect.length - 1];
    return last ? [last.id] : kept.slice(-1);
  }
  const list = new LinkedIds(kept);
  for (const item of ops.connect) connectOne(list, item);
  return list.toArray();
}

function connectOne(list: LinkedIds, item: ConnectItem): void {
  list.remove(item.id);
  // No position is `{ end: true }` (Strapi v4's toAssocs): an id already connected moves to the end.
  const position = item.position ?? { end: true };
  if ('start' in position) return list.insertFirst(item.id);
  if ('end' in position) return list.insertLast(item.id);
  const anchor = 'before' in position ? position.before : position.after;
  if (!list.has(anchor)) {
    const where = 'before' in position ? 'before' : 'after';
    throw ValidationError.fromIssues([
      issue(
        [...item.path, 'position', where],
        `Cannot connect ${item.id} ${where} ${anchor}: ${anchor} is not connected at that point`,
      ),
    ]);
  }
  if ('before' in position) list.insertBefore(anchor, item.id);
  else list.insertAfter(anchor, item.id);
}

/**
 * An ordered list of distinct ids with constant-time look-up, removal and
 * insertion next to any id: applying N connect items to a list of M ids costs
 * O(N + M), where array splicing cost O(N × M).
 */
class LinkedIds {
  private readonly previous = new Map<number, number | null>();
  private readonly following = new Map<number, number | null>();
  private first: number | null = null;
  private last: number | null = null;

  constructor(ids: number[]) {
    for (const id of ids) if (!this.has(id)) this.insertLast(id);
  }

  has(id: number): boolean {
    return this.following.has(id);
  }

  remove(id: number): void {
    if (!this.has(id)) return;
    const before = this.previous.get(id)!;
    const after = this.following.get(id)!;
    if (before === null) this.first = after;
    else this.following.set(before, after);
    if (after === null) this.last = before;
    else this.previous.set(after, before);
    this.previous.delete(id);
    this.following.delete(id);
  }

  insertFirst(id: number): void {
    if (this.first === null) return this.link(id, null, null);
    this.insertBefore(this.first, id);
  }

  insertLast(id: number): void {
    if (this.last === null) return this.link(id, null, null);
    this.insertAfter(this.last, id);
  }

  insertBefore(anchor: number, id: number): void {
    this.link(id, this.previous.get(anchor)!, anchor);
  }

  insertAfter(anchor: number, id: number): void {
    this.link(id, anchor, this.following.get(anchor)!);
  }

  toArray(): number[] {
    const ids: number[] = [];
    for (let id = this.first; id !== null; id = this.following.get(id)!) ids.push(id);
    return ids;
  }

  /** Puts `id` between `before` and `after` (null: the list's end). */
  private link(id: number, before: number | null, after: number | null): void {
    this.previous.set(id, before);
    this.following.set(id, after);
    if (before === null) this.first = id;
    else this.following.set(before, id);
    if (after === null) this.last = id;
    else this.previous.set(after, id);
  }
}

/** Ids the operation links to, which must exist. */
export function referencedIds(ops: RelationOps): number[] {
  return ops.kind === 'set' ? ops.ids : ops.connect.map((item) => item.id);
}
