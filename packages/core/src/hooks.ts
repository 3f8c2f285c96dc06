/**
 * Named kernel hooks: plugins register handlers, the kernel awaits them in
 * registration order (`app.hooks.on('server:listen', fn)`).
 */
export type HookHandler = (...args: unknown[]) => unknown | Promise<unknown>;

export class Hooks {
  private readonly handlers = new Map<string, HookHandler[]>();

  on(name: string, handler: HookHandler): () => void {
    const list = this.handlers.get(name) ?? [];
    list.push(handler);
    this.handlers.set(name, list);
    return () => {
      // Unsubscribing twice must not remove someone else's handler.
      const index = list.indexOf(handler);
      if (index >= 0) list.splice(index, 1);
    };
  }

  async call(name: string, ...args: unknown[]): Promise<void> {
    for (const handler of this.handlers.get(name) ?? []) await handler(...args);
  }
}
