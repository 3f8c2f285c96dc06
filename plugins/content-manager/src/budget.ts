/**
 * Bounds on what a model route reads from a body before checking it: Strapi stores whatever passes its schema
 * (keys of no attribute included) and echoes refused values in its messages, so a body is bounded in size and
 * nesting first. A view configuration is a few kilobytes and five levels deep (`layouts.edit[row][field].name`).
 */
/** Budget for a saved view (a 40-field type's configuration is under 20 KB). */
export const MAX_CONFIGURATION_BYTES = 256 * 1024;
/** Deepest nesting read from a body: a configuration needs 5 levels, a uid body's `data` an entry's few. */
export const MAX_BODY_DEPTH = 32;

/** Whether `value` nests deeper than `limit` (walked without recursion, so any depth is measured safely). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= limit) return true;
    for (const item of Object.values(current)) stack.push([item, depth + 1]);
  }
  return false;
}

/** The first budget a body goes over, as a message; undefined when within both. */
export function overBudget(body: unknown, maxBytes: number): string | undefined {
  if (nestsDeeperThan(body, MAX_BODY_DEPTH)) return `this must be nested at most ${MAX_BODY_DEPTH} levels deep`;
  if (Buffer.byteLength(JSON.stringify(body) ?? '') > maxBytes) return `this must be at most ${maxBytes} bytes of JSON`;
  return undefined;
}
