/**
 * Compiled read plans, reused across requests. A plan depends only on the
 * content type, the request's parameters and what the caller may read (which
 * types populate and relation filters may reach), so those make the key.
 * Reusing the plan object also lets the query engine reuse its compiled SQL.
 *
 * Types with find/count lifecycle hooks are never cached: a hook receives the
 * plan and may change it. The cache is bounded; when full it starts over.
 */
import type { Database, ReadPlan } from '@tessera/database';
import type { Caller } from '../auth/caller';
import { ActionSet, allowEverything, readOnly } from '../auth/abilities';

const LIMIT = 500;

export class PlanCache {
  private readonly plans = new Map<string, ReadPlan>();
  /** Every type another type can be read through: api:: and plugin:: (admin:: never is). */
  private readonly readableTypes: string[];
  /**
   * Read scopes of abilities whose answers never change (an ActionSet's actions are fixed when it is made — not a subclass's; the
   * built-in constant abilities): a request reuses its caller's scope instead of asking about every type again.
   * Other abilities (a plugin's strategy may answer from live state) are asked on every request.
   */
  private readonly fixedScopes = new WeakMap<object, string>();

  constructor(private readonly db: Database) {
    this.readableTypes = [...db.metadata.values()].filter((entity) => entity.kind !== 'component' && !entity.uid.startsWith('admin::')).map((entity) => entity.uid);
  }

  get(uid: string, params: unknown, caller: Caller, compile: () => ReadPlan): ReadPlan {
    if (this.db.lifecycles.hasReadHooks(uid)) return compile();
    const key = `${uid}\u0000${this.readScope(caller)}\u0000${JSON.stringify(params)}`;
    let plan = this.plans.get(key);
    if (!plan) {
      plan = compile();
      if (this.plans.size >= LIMIT) this.plans.clear();
      this.plans.set(key, plan);
    }
    return plan;
  }

  /** Which content types this caller may read, as a bit string (the same rule the compiler applies). */
  private readScope(caller: Caller): string {
    const source = caller.actionSource;
    const fixed = source.constructor === ActionSet || source === allowEverything || source === readOnly;
    let scope = fixed ? this.fixedScopes.get(source) : undefined;
    if (scope !== undefined) return scope;
    scope = this.askScope(caller);
    if (fixed) this.fixedScopes.set(source, scope);
    return scope;
  }

  private askScope(caller: Caller): string {
    let scope = '';
    for (const uid of this.readableTypes) scope += caller.mayRead(uid) ? '1' : '0';
    return scope;
  }
}
