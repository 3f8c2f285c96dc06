/**
 * Reading MariaDB's `ANALYZE FORMAT=JSON`: every table access of the statement that ran, with its access type, the
 * index it used and the rows it read (r_rows × r_loops). Tests judge a statement by these, which stay the same on a
 * busy machine where its time would not.
 */
export interface MariadbTableAccess {
  table: string;
  /** `ALL` (a scan), `range`, `ref`, `eq_ref`, `index`, … */
  access: string;
  key: string;
  rows: number;
}

/** The table accesses of one `ANALYZE FORMAT=JSON` answer row, in the order the JSON lists them. */
export function mariadbTableAccesses(row: Record<string, unknown> | undefined): MariadbTableAccess[] {
  const text = row ? Object.values(row)[0] : undefined;
  if (typeof text !== 'string') throw new Error('not an ANALYZE FORMAT=JSON answer');
  return collect(JSON.parse(text), []);
}

function collect(value: unknown, found: MariadbTableAccess[]): MariadbTableAccess[] {
  if (Array.isArray(value)) for (const item of value) collect(item, found);
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.table_name === 'string' && 'access_type' in record) {
      found.push({ table: record.table_name, access: String(record.access_type), key: String(record.key ?? ''), rows: Number(record.r_rows ?? 0) * Number(record.r_loops ?? 1) });
    }
    for (const child of Object.values(record)) collect(child, found);
  }
  return found;
}
