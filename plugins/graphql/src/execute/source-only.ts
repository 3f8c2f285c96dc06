/**
 * Resolvers that read nothing but their parent value — an entity's `id` and
 * `attributes` — marked where the schema defines them. The plan executor
 * calls such a resolver with the parent alone, building no `info` and no
 * arguments for it (twice per entry of every list). The mark is on the
 * function: a resolver wrapped later (resolversConfig, an extension) is
 * another function, called as any other.
 */
type SourceResolver = (source: never) => unknown;

const marked = new WeakSet<SourceResolver>();

export function sourceOnly<T extends SourceResolver>(resolve: T): T {
  marked.add(resolve);
  return resolve;
}

export function isSourceOnly(resolve: unknown): resolve is (source: unknown) => unknown {
  return typeof resolve === 'function' && marked.has(resolve as SourceResolver);
}
