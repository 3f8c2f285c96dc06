/**
 * ORDER BY for a read plan's sort: its terms, joining the to-one relations its
 * dotted paths go through, in the order each database must be told to sort as
 * SQLite does (NULLs first ascending, text by code point).
 */
import type { Knex } from 'knex';
import type { ColumnField, Metadata } from '../metadata/metadata';
import type { SortItem } from '../query/plan';
import type { SqlContext } from './conditions';
import type { OrderTerm } from './link-page';

const STRING_TYPES = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration', 'password']);

/**
 * Sorts, joining to-one relations for dotted paths. On Postgres, text sorts by
 * code point and NULLs come first ascending, as they do on SQLite. Under
 * `live` a draft target is joined as no row, as filters and populate see it:
 * the entry sorts as if it had no relation, so a hidden draft's values
 * cannot be probed through the order.
 */
export function applySort(qb: Knex.QueryBuilder, sort: SortItem[], rootAlias: string, ctx: SqlContext, metadata: Metadata): void {
  for (const term of sortTerms(qb, sort, rootAlias, ctx, metadata)) qb.orderByRaw(term.sql, term.bindings);
}

/** The ORDER BY terms of `sort`, after joining what its dotted paths go through onto `qb`. */
export function sortTerms(qb: Knex.QueryBuilder, sort: SortItem[], rootAlias: string, ctx: SqlContext, metadata: Metadata): OrderTerm[] {
  const joined = new Map<string, string>();
  const terms: OrderTerm[] = [];
  for (const item of sort) {
    let alias = rootAlias;
    let key = '';
    for (const hop of item.path) {
      key = `${key}.${hop.name}`;
      let next = joined.get(key);
      if (!next) {
        const joinAlias = ctx.nextAlias();
        next = ctx.nextAlias();
        qb.leftJoin({ [joinAlias]: hop.joinTable.name }, `${joinAlias}.${hop.joinTable.joinColumn}`, `${alias}.id`);
        const target = next;
        const liveOnly = ctx.publicationState === 'live' && metadata.get(hop.target)?.draftAndPublish === true;
        qb.leftJoin({ [target]: hop.targetTable }, (on) => {
          on.on(`${target}.id`, `${joinAlias}.${hop.joinTable.inverseJoinColumn}`);
          if (liveOnly) on.andOnNotNull(`${target}.published_at`);
        });
        joined.set(key, next);
      }
      alias = next;
    }
    // The entry's own id is never NULL: a plain ORDER BY lets Postgres walk the primary key instead of sorting every row.
    const ownId = item.path.length === 0 && item.field.column === 'id';
    terms.push(orderTerm(`${alias}.${item.field.column}`, item.field, item.direction, ctx.dialect === 'sqlite' || ownId, ctx.dialect === 'mysql'));
  }
  return terms;
}

function orderTerm(column: string, field: ColumnField, direction: 'asc' | 'desc', plain: boolean, mysql: boolean): OrderTerm {
  if (plain) return { sql: `?? ${direction}`, bindings: [column] };
  // MySQL places NULLs as SQLite does (first ascending, last descending); text sorts by its utf8mb4 bytes, i.e. code points.
  if (mysql) return { sql: STRING_TYPES.has(field.type) ? `BINARY ?? ${direction}` : `?? ${direction}`, bindings: [column] };
  const collate = STRING_TYPES.has(field.type) ? ' COLLATE "C"' : '';
  const nulls = direction === 'asc' ? 'NULLS FIRST' : 'NULLS LAST';
  return { sql: `??${collate} ${direction} ${nulls}`, bindings: [column] };
}
