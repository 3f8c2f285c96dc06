/**
 * Database lifecycles: per-content-type hooks around every query, from a
 * `lifecycles.ts` beside a schema or from `subscribe()`. Subscribers run in
 * registration order and are awaited; a throwing `before*` hook aborts the
 * operation (and, inside a write, rolls its transaction back).
 */
export const LIFECYCLE_ACTIONS = [
  'beforeCreate',
  'afterCreate',
  'beforeUpdate',
  'afterUpdate',
  'beforeDelete',
  'afterDelete',
  'beforeFindMany',
  'afterFindMany',
  'beforeFindOne',
  'afterFindOne',
  'beforeCount',
  'afterCount',
] as const;

export type LifecycleAction = (typeof LIFECYCLE_ACTIONS)[number];

export interface LifecycleEvent<P = Record<string, unknown>> {
  action: LifecycleAction;
  model: { uid: string; tableName: string };
  /** Mutable in `before*` hooks: changes reach the query. */
  params: P;
  result?: unknown;
  /** Shared between the before and after hook of one operation. */
  state: Record<string, unknown>;
}

export type LifecycleHandler = (event: LifecycleEvent) => unknown | Promise<unknown>;

export type LifecycleHandlers = Partial<Record<LifecycleAction, LifecycleHandler>>;

export interface Subscriber extends LifecycleHandlers {
  /** Content-type uids this subscriber listens to; all when omitted. */
  models?: string[];
}

export class Lifecycles {
  private readonly subscribers: Subscriber[] = [];

  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.push(subscriber);
    return () => {
      const index = this.subscribers.indexOf(subscriber);
      if (index >= 0) this.subscribers.splice(index, 1);
    };
  }

  /** True when any subscriber handles this action for this model (skip event objects otherwise). */
  has(uid: string, action: LifecycleAction): boolean {
    return this.subscribers.some((subscriber) => typeof subscriber[action] === 'function' && listens(subscriber, uid));
  }

  async run(event: LifecycleEvent): Promise<void> {
    for (const subscriber of this.subscribers) {
      const handler = subscriber[event.action];
      if (typeof handler === 'function' && listens(subscriber, event.model.uid)) await handler.call(subscriber, event);
    }
  }
}

function listens(subscriber: Subscriber, uid: string): boolean {
  return !subscriber.models || subscriber.models.includes(uid);
}
