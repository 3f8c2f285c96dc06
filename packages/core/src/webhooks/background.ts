/**
 * Background statements — the dispatcher's polls, claims and settlements, and
 * its re-reads of the webhooks table — run on knex directly: the same pool
 * (so they queue behind a request's transaction like anything else), but not
 * through the connection's executor. `connection.onQuery`, which observes a
 * request's queries (query-count budgets, their tests), never sees them: they
 * belong to no request. They are few and not hot, so knex preparing them on
 * each call costs nothing that matters.
 */
import type { Row } from '@tessera/database';

/**
 * The rows a knex query or raw statement answered, on any dialect (pg: `{ rows }`; SQLite: an array or a run
 * result; mysql2's raw statements: `[rows, fields]`, or `[header, …]` for a write).
 */
export async function backgroundRows(query: PromiseLike<unknown>): Promise<Row[]> {
  const result: unknown = await query;
  if (Array.isArray(result) && result.length === 2 && (Array.isArray(result[0]) || isMysqlHeader(result[0]))) {
    return Array.isArray(result[0]) ? (result[0] as Row[]) : [];
  }
  if (Array.isArray(result)) return result as Row[];
  if (typeof result === 'object' && result !== null && Array.isArray((result as { rows?: unknown }).rows)) return (result as { rows: Row[] }).rows;
  return [];
}

function isMysqlHeader(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'affectedRows' in value && 'insertId' in value;
}
