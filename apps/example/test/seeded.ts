/**
 * What the example-app suites share: booting on the example's seed (the test
 * runner sets SEED=false for every other suite), and counting the entries an
 * answer shows.
 */

/** Runs `boot` with the example's seed on (SEED unset), restoring the runner's value afterwards. */
export async function withSeed<T>(boot: () => Promise<T>): Promise<T> {
  const saved = process.env.SEED;
  delete process.env.SEED;
  try {
    return await boot();
  } finally {
    if (saved === undefined) delete process.env.SEED;
    else process.env.SEED = saved;
  }
}

/**
 * Entries in an answer's JSON as a client sees them: every object with a
 * numeric `id` (a REST `{ id, attributes }` entry, a GraphQL entity, a
 * component or dynamic-zone entry), each appearance counted.
 */
export function entriesIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + entriesIn(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  const own = typeof (value as { id?: unknown }).id === 'number' || typeof (value as { id?: unknown }).id === 'string' ? 1 : 0;
  return own + Object.values(value).reduce((sum: number, item) => sum + entriesIn(item), 0);
}
