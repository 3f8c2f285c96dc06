/**
 * The new related list of one entry, computed in memory from the current
 * list and the operation: `set` replaces in the given order; `disconnect`
 * removes; `connect` items apply one by one, each position read against the
 * list as it is at that moment. To-one relations keep only the last id.
 */
import { ValidationError } from '@tessera/errors';
import type { ConnectItem, RelationOps } from './relation-input';
import { issue } from './relation-input';

export function nextList(current: number[], ops: RelationOps, toMany: boolean): number[] {
  if (ops.kind === 'set') return toMany ? [...ops.ids] : ops.ids.slice(-1);
  const disconnected = new Set(ops.disconnect);
  let list = current.filter((id) => !disconnected.has(id));
  if (!toMany) {
    const last = ops.connect[ops.connect.length - 1];
    return last ? [last.id] : list.slice(-1);
  }
  for (const item of ops.connect) list = connectOne(list, item);
  return list;
}

function connectOne(list: number[], item: ConnectItem): number[] {
  const present = list.includes(item.id);
  if (present && item.position === null) return list;
  const rest = list.filter((id) => id !== item.id);
  const position = item.position ?? { end: true };
  if ('start' in position) return [item.id, ...rest];
  if ('end' in position) return [...rest, item.id];
  const anchor = 'before' in position ? position.before : position.after;
  const index = rest.indexOf(anchor);
  if (index === -1) {
    const where = 'before' in position ? 'before' : 'after';
    throw ValidationError.fromIssues([
      issue(
        [...item.path, 'position', where],
        `Cannot connect ${item.id} ${where} ${anchor}: ${anchor} is not connected at that point`,
      ),
    ]);
  }
  const at = 'before' in position ? index : index + 1;
  return [...rest.slice(0, at), item.id, ...rest.slice(at)];
}

/** Ids the operation links to, which must exist. */
export function referencedIds(ops: RelationOps): number[] {
  return ops.kind === 'set' ? ops.ids : ops.connect.map((item) => item.id);
}
