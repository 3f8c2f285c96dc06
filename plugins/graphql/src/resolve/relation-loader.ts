/**
 * The fallback for links the top-level query did not populate — entries a
 * custom resolver returned, or a relation aliased with different arguments.
 * Requests for the same link with the same parameters are gathered while
 * GraphQL walks one level, then answered by one content-API `findByIds`
 * over all their parents (that link populated): one round per level, never
 * one per parent.
 */
import type { App, Caller, EntryBudget } from '@tessera/core';
import type { FilterBudget } from './filter-budget';

interface Batch {
  ids: Set<number>;
  done: Promise<Map<number, unknown>>;
}

export interface LoadRequest {
  uid: string;
  field: string;
  /** The populate entry of that field (fields, filters, sort, nested populate). */
  spec: Record<string, unknown>;
  parentId: number;
}

export class RelationLoader {
  private readonly batches = new Map<string, Batch>();

  constructor(
    private readonly app: App,
    private readonly caller: Caller,
    private readonly publicationState: 'live' | 'preview',
    private readonly budget: EntryBudget,
    private readonly filterBudget: FilterBudget,
  ) {}

  async load(request: LoadRequest): Promise<unknown> {
    const key = `${request.uid}\u0000${request.field}\u0000${JSON.stringify(request.spec)}`;
    let batch = this.batches.get(key);
    if (!batch) {
      const ids = new Set<number>();
      // Resolvers of one level run in the same tick: the query waits for all of them.
      const done = Promise.resolve().then(() => {
        this.batches.delete(key);
        return this.fetch(request, [...ids]);
      });
      batch = { ids, done };
      this.batches.set(key, batch);
    }
    const repeated = batch.ids.has(request.parentId);
    batch.ids.add(request.parentId);
    const values = await batch.done;
    const value = values.get(request.parentId);
    // The read charged the link's entries once per parent id; a parent shown again in the answer shows them again.
    if (repeated) this.budget.charge(entriesIn(value));
    return value;
  }

  /** The parents by id whatever their state or locale (they were answered already); the link in the request's state. */
  private async fetch(request: LoadRequest, ids: number[]): Promise<Map<number, unknown>> {
    const params = { fields: ['id'], populate: { [request.field]: request.spec }, publicationState: this.publicationState };
    this.filterBudget.charge(params);
    const results = await this.app.contentOperations.findByIds(request.uid, ids, { caller: this.caller, params, budget: this.budget });
    return new Map(results.map((entry) => [entry.id, (entry as Record<string, unknown>)[request.field]]));
  }
}

/** Entries in a loaded link (an entry, a list, null or a count) and everything populated under them. */
function entriesIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + entriesIn(item), 0);
  if (typeof value !== 'object' || value === null || !('id' in value)) return 0;
  let count = 1;
  for (const nested of Object.values(value)) if (typeof nested === 'object' && nested !== null) count += entriesIn(nested);
  return count;
}
