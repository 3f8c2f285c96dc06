/**
 * A page of each parent's related list, in the same single query that loads
 * the lists of all parents: the rows are numbered per parent in list order
 * (`row_number() over (partition by <parent column> order by …)`, on SQLite
 * and Postgres alike) and only the page's numbers are kept. So a relation
 * page costs one query per level, whatever the number of parents, and never
 * reads more rows than it answers.
 */
import type { Knex } from 'knex';
import type { Page } from '../query/plan';

const RANK = '__rank';

/** One ORDER BY term as raw SQL: the column (a binding) and what follows it. */
export interface OrderTerm {
  sql: string;
  bindings: string[];
}

export function pagePerParent(knex: Knex, rows: Knex.QueryBuilder, parentColumn: string, order: OrderTerm[], page: Page): Knex.QueryBuilder {
  const orderSql = order.map((term) => term.sql).join(', ');
  rows.select(knex.raw(`row_number() over (partition by ?? order by ${orderSql}) as ??`, [parentColumn, ...order.flatMap((term) => term.bindings), RANK]));
  const ranked = knex.from(rows.as('ranked')).select('*').where(RANK, '>', page.offset);
  if (page.limit !== undefined) ranked.where(RANK, '<=', page.offset + page.limit);
  return ranked.orderBy(RANK, 'asc');
}
