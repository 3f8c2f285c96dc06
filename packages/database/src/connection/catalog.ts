/** Catalog questions asked at boot, per dialect. */
import type { Dialect } from './config';
import type { SqlStatement } from './statements';

/** Answers a row when table `name` exists in the current schema. */
export function tableExistsSql(dialect: Dialect, name: string): SqlStatement {
  if (dialect === 'sqlite') return { sql: `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`, bindings: [name] };
  if (dialect === 'mysql') return { sql: 'SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?', bindings: [name] };
  return { sql: 'SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1', bindings: [name] };
}
