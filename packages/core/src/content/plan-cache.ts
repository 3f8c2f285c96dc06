/**
 * Compiled read plans, reused across requests. A plan depends only on the
 * content type, the request's parameters and what the caller may read (which
 * types populate and relation filters may reach), so those make the key.
 * Reusing the plan object also lets the query engine reuse its compiled SQL.
 *
 * Parameters that differ only in the values of single comparisons
 * (`filters[slug][$eq]=…`) share one compiled plan, given their own values
 * (database query/comparison-values.ts): varied traffic compiles a plan per
 * filter shape, not per value.
 *
 * Types with find/count lifecycle hooks are never cached: a hook receives the
 * plan and may change it. The caches are bounded; when full they start over.
 */
import { takeFilterValues, valueSlots, withValues, type Database, type ReadPlan, type ValueSlots } from '@tessera/database';
import type { Caller } from '../auth/caller';
import { ActionSet, allowEverything, readOnly } from '../auth/abilities';

const LIMIT = 500;

export class PlanCache {
  private readonly plans = new Map<string, ReadPlan>();
  /** By filter shape: the first plan compiled for it and where its values went; null where they cannot be swapped. */
  private readonly shapes = new Map<string, { plan: ReadPlan; slots: ValueSlots } | null>();
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
    const scope = this.readScope(caller);
    const key = `${uid}\u0000${scope}\u0000${JSON.stringify(params)}`;
    let plan = this.plans.get(key);
    if (!plan) {
      plan = this.byShape(`${uid}\u0000${scope}`, params, compile);
      remember(this.plans, key, plan);
    }
    return plan;
  }

  /** The plan of the parameters' filter shape with their values, compiled when the shape is new or its values cannot be swapped. */
  private byShape(prefix: string, params: unknown, compile: () => ReadPlan): ReadPlan {
    const filters = typeof params === 'object' && params !== null && !Array.isArray(params) ? (params as { filters?: unknown }).filters : undefined;
    const taken = takeFilterValues(filters);
    if (!taken) return compile();
    const key = `${prefix}\u0000${JSON.stringify({ ...(params as object), filters: taken.shape })}`;
    const known = this.shapes.get(key);
    if (known === undefined) {
      const plan = compile();
      const slots = valueSlots(plan, taken.values);
      remember(this.shapes, key, slots ? { plan, slots } : null);
      return plan;
    }
    return (known && withValues(known.plan, known.slots, taken.values)) ?? compile();
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

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= LIMIT) cache.clear();
  cache.set(key, value);
}
