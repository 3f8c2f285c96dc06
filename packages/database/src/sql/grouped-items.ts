/**
 * One `and`/`or` list of a condition as SQL, in parenthesised groups (conditions.ts applies each item).
 */
import type { Knex } from 'knex';
import type { Condition } from '../query/plan';

type Builder = Knex.QueryBuilder;

/**
 * Items of one `and`/`or` list per parenthesised group. A parser nests `a OR b OR c …` one level per operator, and
 * SQLite refuses an expression more than 1,000 levels deep (a 500 for a GraphQL `or` of 1,000 items); lists longer than
 * GROUP_SIZE are split into groups of groups, so the depth grows with the logarithm of the length.
 */
const GROUP_SIZE = 32;

export function applyItems(qb: Builder, kind: 'and' | 'or', items: Condition[], apply: (inner: Builder, item: Condition) => void): void {
  if (items.length <= GROUP_SIZE) {
    qb.where((group) => {
      for (const item of items) {
        if (kind === 'and') group.where((inner) => apply(inner, item));
        else group.orWhere((inner) => apply(inner, item));
      }
    });
    return;
  }
  const size = Math.ceil(items.length / GROUP_SIZE);
  qb.where((group) => {
    for (let start = 0; start < items.length; start += size) {
      const chunk = items.slice(start, start + size);
      const nest = (inner: Builder) => applyItems(inner, kind, chunk, apply);
      if (kind === 'and') group.where(nest);
      else group.orWhere(nest);
    }
  });
}
