/**
 * SQLite: the index a list's count reads, when one holds every column the
 * count's filters look at.
 *
 * Without statistics, SQLite's planner takes any index whose first column a
 * filter constrains and reads the table row of every index entry in range:
 * `views >= N AND published_at IS NOT NULL`, with `views` and
 * `(published_at, views)` declared, walks the `views` index and fetches
 * 126,616 rows of 200,000 to test `published_at` (350 ms), where reading the
 * second index alone answers (5 ms). A count needs no column beyond its
 * filters, so an index holding them all answers it without touching the
 * table, and its cost is bounded by the index's size: never more than a scan
 * of the table, at most a walk of one index where a selective range might
 * have done less.
 *
 * Only filters on the entry's own columns qualify. A filter on `id` is better
 * served by the rowid, and filters through relations, components or media
 * (EXISTS over their join tables), or a search table, are left to the planner.
 */
import type { Condition, ReadPlan } from '../query/plan';
import { secondaryIndexes } from '../schema/secondary-indexes';

/** The name of the index the count of `query` should read, or undefined to let the planner choose. */
export function coveringIndex(query: ReadPlan): string | undefined {
  const columns = new Set<string>();
  if (query.entity.draftAndPublish && query.publicationState === 'live') columns.add('published_at');
  if (query.where && !collectColumns(query.where, columns)) return undefined;
  if (columns.size === 0) return undefined;
  const covering = secondaryIndexes(query.entity).filter((index) => [...columns].every((column) => index.columns.includes(column)));
  // An index led by a filtered column can seek to its range; otherwise the smallest index is the cheapest walk.
  const rank = (columnsOf: string[]) => (columns.has(columnsOf[0]) ? 0 : 1000) + columnsOf.length;
  covering.sort((a, b) => rank(a.columns) - rank(b.columns));
  return covering[0]?.name;
}

/** Adds the own columns `condition` reads to `columns`; false when it reads `id` or anything beyond the entry's row. */
function collectColumns(condition: Condition, columns: Set<string>): boolean {
  switch (condition.kind) {
    case 'and':
    case 'or':
      return condition.items.every((item) => collectColumns(item, columns));
    case 'not':
      return collectColumns(condition.item, columns);
    case 'compare':
      if (condition.field.column === 'id' || condition.field.searchTable) return false;
      columns.add(condition.field.column);
      return true;
    default:
      return false;
  }
}
