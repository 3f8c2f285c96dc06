/**
 * Named kernel hooks, typed: plugins register handlers
 * (`app.hooks.on('server:listening', (app) => …)`), the kernel awaits them in
 * registration order. Lifecycle hooks carry the app; content events
 * (`entry.*`) carry the committed write.
 */
import type { App } from './app-type';
import type { ContentEvent, ContentEventName } from './content/content-events';

export type HookEvents = {
  /** Plugins and the app have registered; the model is complete, the database not yet connected. */
  'app:registered': [app: App];
  /** Plugins and the app have bootstrapped; routes are about to be mounted. */
  'app:bootstrapped': [app: App];
  /**
   * The app is loaded and about to listen: work only a serving app needs (the GraphQL schema) is done here, so its
   * failure stops the start before the port opens, and commands that load an app without serving it skip it.
   */
  'server:starting': [app: App];
  /** The HTTP server is listening (`app.url` is set). */
  'server:listening': [app: App];
  /** The app is stopping: HTTP is closed, the database still open. */
  'app:destroy': [app: App];
} & { [Name in ContentEventName]: [event: ContentEvent] };

export type HookName = keyof HookEvents;

export type HookHandler<Name extends HookName = HookName> = (...args: HookEvents[Name]) => unknown | Promise<unknown>;

export class Hooks {
  private readonly handlers = new Map<HookName, Array<HookHandler<never>>>();

  on<Name extends HookName>(name: Name, handler: HookHandler<Name>): () => void {
    const list = this.handlers.get(name) ?? [];
    list.push(handler as HookHandler<never>);
    this.handlers.set(name, list);
    return () => {
      // Unsubscribing twice must not remove someone else's handler.
      const index = list.indexOf(handler as HookHandler<never>);
      if (index >= 0) list.splice(index, 1);
    };
  }

  has(name: HookName): boolean {
    return (this.handlers.get(name)?.length ?? 0) > 0;
  }

  async call<Name extends HookName>(name: Name, ...args: HookEvents[Name]): Promise<void> {
    for (const handler of this.handlers.get(name) ?? []) await (handler as HookHandler<Name>)(...args);
  }
}
