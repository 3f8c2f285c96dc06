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
import type { Ability, AuthState } from '../types';
import { canReadType } from '../auth/permissions';
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
  private readonly fixedScopes = new WeakMap<Ability, string>();

  constructor(private readonly db: Database) {
    this.readableTypes = [...db.metadata.values()].filter((entity) => entity.kind !== 'component' && !entity.uid.startsWith('admin::')).map((entity) => entity.uid);
  }

  get(uid: string, params: unknown, auth: AuthState, compile: () => ReadPlan): ReadPlan {
    if (this.db.lifecycles.hasReadHooks(uid)) return compile();
    const key = `${uid}\u0000${this.readScope(auth)}\u0000${JSON.stringify(params)}`;
    let plan = this.plans.get(key);
    if (!plan) {
      plan = compile();
      if (this.plans.size >= LIMIT) this.plans.clear();
      this.plans.set(key, plan);
    }
    return plan;
  }

  /** Which content types this caller may read, as a bit string (the same rule the compiler applies). */
  private readScope(auth: AuthState): string {
    const fixed = auth.ability.constructor === ActionSet || auth.ability === allowEverything || auth.ability === readOnly;
    let scope = fixed ? this.fixedScopes.get(auth.ability) : undefined;
    if (scope !== undefined) return scope;
    scope = this.askScope(auth);
    if (fixed) this.fixedScopes.set(auth.ability, scope);
    return scope;
  }

  private askScope(auth: AuthState): string {
    let scope = '';
    for (const uid of this.readableTypes) scope += canReadType(auth, uid) ? '1' : '0';
    return scope;
  }
}
