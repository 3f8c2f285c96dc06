/**
 * Strapi v4's event hub (`strapi.eventHub`), with its signatures: `emit`
 * awaits every subscriber, then the listeners of that event in order;
 * `subscribe` receives every event by name. Server code listens here;
 * the webhook runner is one subscriber.
 */
export type EventListener = (...args: unknown[]) => unknown | Promise<unknown>;
export type EventSubscriber = (eventName: string, ...args: unknown[]) => unknown | Promise<unknown>;

export interface EventHub {
  emit(eventName: string, ...args: unknown[]): Promise<void>;
  subscribe(subscriber: EventSubscriber): () => void;
  unsubscribe(subscriber: EventSubscriber): void;
  on(eventName: string, listener: EventListener): () => void;
  off(eventName: string, listener: EventListener): void;
  once(eventName: string, listener: EventListener): () => void;
  destroy(): EventHub;
  removeListener(eventName: string, listener: EventListener): void;
  removeAllListeners(): EventHub;
  addListener(eventName: string, listener: EventListener): () => void;
  /**
   * Tessera's: would emitting `eventName` reach anyone besides `except` (a listener of that event, or another
   * subscriber)? A write need not build an event no one hears.
   */
  reaches(eventName: string, except: EventSubscriber): boolean;
}

export function createEventHub(): EventHub {
  const listeners = new Map<string, EventListener[]>();
  const defaultSubscriber: EventSubscriber = async (eventName, ...args) => {
    for (const listener of [...(listeners.get(eventName) ?? [])]) await listener(...args);
  };
  const subscribers: EventSubscriber[] = [defaultSubscriber];

  const hub: EventHub = {
    async emit(eventName, ...args) {
      for (const subscriber of [...subscribers]) await subscriber(eventName, ...args);
    },
    subscribe(subscriber) {
      subscribers.push(subscriber);
      return () => hub.unsubscribe(subscriber);
    },
    unsubscribe(subscriber) {
      const index = subscribers.indexOf(subscriber);
      if (index >= 0) subscribers.splice(index, 1);
    },
    on(eventName, listener) {
      const list = listeners.get(eventName) ?? [];
      list.push(listener);
      listeners.set(eventName, list);
      return () => hub.off(eventName, listener);
    },
    off(eventName, listener) {
      const list = listeners.get(eventName);
      const index = list ? list.indexOf(listener) : -1;
      // Strapi splices at indexOf(-1) — the last listener — for an unknown one; removing nothing is what was meant.
      if (list && index >= 0) list.splice(index, 1);
    },
    once(eventName, listener) {
      const wrapper: EventListener = async (...args) => {
        hub.off(eventName, wrapper);
        return listener(...args);
      };
      return hub.on(eventName, wrapper);
    },
    destroy() {
      listeners.clear();
      subscribers.length = 0;
      return hub;
    },
    removeListener: (eventName, listener) => hub.off(eventName, listener),
    removeAllListeners: () => hub.destroy(),
    addListener: (eventName, listener) => hub.on(eventName, listener),
    reaches: (eventName, except) =>
      (listeners.get(eventName)?.length ?? 0) > 0 || subscribers.some((subscriber) => subscriber !== defaultSubscriber && subscriber !== except),
  };
  return hub;
}
