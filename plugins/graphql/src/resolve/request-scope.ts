/**
 * What one HTTP request's resolvers share: the caller (authenticated once
 * per request), the batch loaders for links that were not populated, and the
 * entry budget every read of the document draws on (`maxPopulatedEntries`
 * for the whole answer, not per top-level field), and the comparisons all
 * their filters may hold.
 */
import { Caller, type App, type AuthState, type EntryBudget } from '@tessera/core';
import type { GraphQLContext } from '../extension';
import { FilterBudget } from './filter-budget';
import { RelationLoader } from './relation-loader';

export class RequestScope {
  /** `preview` once a top-level query of this request asked for drafts (the fallback loader follows it). */
  publicationState: 'live' | 'preview' = 'live';
  private readonly loaders = new Map<string, RelationLoader>();
  /** The caller's `find` on each type a link resolver reached: asked once per request, not once per entry. */
  private readonly readable = new Map<string, boolean>();
  readonly budget: EntryBudget;
  /** The comparisons all reads of the request may hold in their filters (filter-budget.ts). */
  readonly filterBudget = new FilterBudget();

  constructor(
    private readonly app: App,
    readonly caller: Caller,
  ) {
    this.budget = app.contentOperations.requestBudget();
  }

  mayRead(uid: string): boolean {
    let allowed = this.readable.get(uid);
    if (allowed === undefined) {
      allowed = this.caller.mayRead(uid);
      this.readable.set(uid, allowed);
    }
    return allowed;
  }

  loader(): RelationLoader {
    let loader = this.loaders.get(this.publicationState);
    if (!loader) {
      loader = new RelationLoader(this.app, this.caller, this.publicationState, this.budget, this.filterBudget);
      this.loaders.set(this.publicationState, loader);
    }
    return loader;
  }
}

const SCOPE = Symbol.for('tessera.graphql.scope');

export function createContext(app: App, koaContext: import('koa').Context, auth: AuthState): GraphQLContext {
  koaContext.state.auth = auth;
  const context: GraphQLContext = { state: koaContext.state as GraphQLContext['state'], koaContext };
  Object.defineProperty(context, SCOPE, { value: new RequestScope(app, Caller.of(auth)) });
  return context;
}

export function scopeOf(context: GraphQLContext): RequestScope {
  const scope = (context as unknown as Record<symbol, RequestScope | undefined>)[SCOPE];
  if (!scope) throw new Error('graphql: resolver called outside a Tessera request');
  return scope;
}
