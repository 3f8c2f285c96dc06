/**
 * Reading PostgreSQL's `EXPLAIN (ANALYZE, FORMAT JSON)`: the tests that judge a statement by its plan (an index used,
 * no scan) and by the rows it touched, which stays the same on a busy machine where its time would not.
 */
export type PlanNode = Record<string, unknown>;

/** The plan's root node from one `EXPLAIN (…, FORMAT JSON)` answer row. */
export function planOf(row: Record<string, unknown> | undefined): PlanNode {
  const [explained] = (row?.['QUERY PLAN'] ?? []) as Array<{ Plan: PlanNode }>;
  if (!explained) throw new Error('not an EXPLAIN (FORMAT JSON) answer');
  return explained.Plan;
}

/** Every node, depth first, as `<type>[ <index>]`: `Index Scan tessera_webhook_deliveries_due`. */
export function planNodes(node: PlanNode): string[] {
  const children = (node.Plans as PlanNode[] | undefined) ?? [];
  return [`${String(node['Node Type'])}${node['Index Name'] ? ` ${String(node['Index Name'])}` : ''}`, ...children.flatMap(planNodes)];
}

/** Rows each node touched (returned plus filtered out, times its loops), summed over the plan: EXPLAIN ANALYZE only. */
export function planRowsTouched(node: PlanNode): number {
  const own = (Number(node['Actual Rows'] ?? 0) + Number(node['Rows Removed by Filter'] ?? 0)) * Number(node['Actual Loops'] ?? 1);
  return own + ((node.Plans as PlanNode[] | undefined) ?? []).reduce((sum, child) => sum + planRowsTouched(child), 0);
}
