/**
 * Database lifecycles: per-content-type hooks around every query, from a
 * `lifecycles.ts` beside a schema or from `subscribe()` (an object of hooks,
 * or a function called with every event, as in Strapi). Subscribers run in
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

const READ_ACTIONS: LifecycleAction[] = ['beforeFindMany', 'afterFindMany', 'beforeFindOne', 'afterFindOne', 'beforeCount', 'afterCount'];
const WRITE_ACTIONS: LifecycleAction[] = ['beforeCreate', 'afterCreate', 'beforeUpdate', 'afterUpdate', 'beforeDelete', 'afterDelete'];

/** `event.model`: the model as Strapi's query engine describes it to hooks. */
export interface LifecycleModel {
  uid: string;
  singularName: string;
  tableName: string;
  kind: 'collectionType' | 'singleType' | 'component';
  /** The schema's attributes, with `id` and the timestamps Strapi adds. */
  attributes: Record<string, unknown>;
}

export interface LifecycleEvent<P = Record<string, unknown>> {
  action: LifecycleAction;
  model: LifecycleModel;
  /**
   * Strapi's query-engine parameters (`where`, `data`, `select`, `populate`, `orderBy`, `limit`, `offset`).
   * Mutable in `before*` hooks: changes reach the query.
   */
  params: P;
  result?: unknown;
  /** Shared between the before and after hook of one operation, per subscriber (as in Strapi). */
  state: Record<string, unknown>;
}

export type LifecycleHandler = (event: LifecycleEvent) => unknown | Promise<unknown>;

export type LifecycleHandlers = Partial<Record<LifecycleAction, LifecycleHandler>>;

export interface SubscriberObject extends LifecycleHandlers {
  /** Content-type uids this subscriber listens to; all when omitted. */
  models?: string[];
}

/** An object of hooks, or Strapi's function form: called with every event of every model. */
export type Subscriber = SubscriberObject | LifecycleHandler;

/** Each subscriber's `state`, kept from an operation's before hook to its after hook. */
export type LifecycleStates = Map<Subscriber, Record<string, unknown>>;

export class Lifecycles {
  private readonly subscribers: Subscriber[] = [];

  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.push(subscriber);
    return () => {
      const index = this.subscribers.indexOf(subscriber);
      if (index >= 0) this.subscribers.splice(index, 1);
    };
  }

  /** True when any subscriber handles a find or count of this model: its reads cannot share cached plans. */
  hasReadHooks(uid: string): boolean {
    return this.handlesAny(uid, READ_ACTIONS);
  }

  /** True when any subscriber handles a create, update or delete of this model. */
  hasWriteHooks(uid: string): boolean {
    return this.handlesAny(uid, WRITE_ACTIONS);
  }

  /** True when any subscriber handles one of these two actions for this model (skip event objects otherwise). */
  has(uid: string, action: LifecycleAction, orAction: LifecycleAction = action): boolean {
    for (const subscriber of this.subscribers) {
      if (typeof subscriber === 'function') return true;
      if (listens(subscriber, uid) && (typeof subscriber[action] === 'function' || typeof subscriber[orAction] === 'function')) return true;
    }
    return false;
  }

  /**
   * Asked several times per read: one pass over the subscribers, each one's `models` read once. Asked anew
   * every time, never remembered — a subscriber object may gain a hook after it subscribed.
   */
  private handlesAny(uid: string, actions: readonly LifecycleAction[]): boolean {
    for (const subscriber of this.subscribers) {
      if (typeof subscriber === 'function') return true;
      if (!listens(subscriber, uid)) continue;
      for (const action of actions) if (typeof subscriber[action] === 'function') return true;
    }
    return false;
  }

  async run(event: Omit<LifecycleEvent, 'state'>, states: LifecycleStates = new Map()): Promise<LifecycleStates> {
    for (const subscriber of this.subscribers) {
      const state = states.get(subscriber) ?? {};
      states.set(subscriber, state);
      if (typeof subscriber === 'function') {
        await subscriber({ ...event, state });
        continue;
      }
      const handler = subscriber[event.action];
      if (typeof handler === 'function' && listens(subscriber, event.model.uid)) await handler.call(subscriber, { ...event, state });
    }
    return states;
  }
}

function listens(subscriber: SubscriberObject, uid: string): boolean {
  return !subscriber.models || subscriber.models.includes(uid);
}
