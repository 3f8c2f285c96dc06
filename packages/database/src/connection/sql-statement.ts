/** One SQL text with its bindings, in the dialect's own placeholder form. Its own module so the statement runners and the SQLite LIMIT inliner both use it without importing each other. */
export interface SqlStatement {
  sql: string;
  bindings: readonly unknown[];
}
