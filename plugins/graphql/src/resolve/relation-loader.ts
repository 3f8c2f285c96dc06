/**
 * The fallback for links the top-level query did not populate — entries a
 * custom resolver returned, or a relation aliased with different arguments.
 * Requests for the same link with the same parameters are gathered while
 * GraphQL walks one level, then answered by one content-API `findByIds`
 * over all their parents (that link populated): one round per level, never
 * one per parent.
 */
import type { App, AuthState } from '@tessera/core';

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
    private readonly auth: AuthState,
    private readonly publicationState: 'live' | 'preview',
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
    batch.ids.add(request.parentId);
    const values = await batch.done;
    return values.get(request.parentId);
  }

  /** The parents by id whatever their state or locale (they were answered already); the link in the request's state. */
  private async fetch(request: LoadRequest, ids: number[]): Promise<Map<number, unknown>> {
    const results = await this.app.contentApi.findByIds(request.uid, ids, {
      auth: this.auth,
      params: { fields: ['id'], populate: { [request.field]: request.spec }, publicationState: this.publicationState },
    });
    return new Map(results.map((entry) => [entry.id, (entry as Record<string, unknown>)[request.field]]));
  }
}
