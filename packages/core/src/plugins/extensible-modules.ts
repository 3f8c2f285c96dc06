/**
 * What a plugin extension (`src/extensions/<plugin>/strapi-server.js`) edits: in Strapi v4, `plugin.controllers.<name>`
 * and `plugin.services.<name>` are plain objects the extension adds actions to, replaces or wraps
 * (`plugin.controllers.auth.logout = async (ctx) => …`, `const me = plugin.controllers.user.me; plugin.controllers.user.me
 * = async (ctx) => { await me(ctx); … }`). A plugin's controller or service here may be a factory (Tessera's own plugins'
 * are: they need the app), so the extension is shown each module as such an object:
 *
 * - a member it assigns is kept and becomes part of the module, over the plugin's own member of that name;
 * - a member it reads before assigning is the plugin's own, called on the plugin's instance when the request comes
 *   (the factory runs once, when the module is first needed, not while the extension runs);
 * - listing the members (`Object.keys`, a spread) makes the instance then.
 *
 * After the extension, a module it did not touch is the plugin's own provider again; a touched one is a provider
 * answering a copy of the instance (same prototype, own properties) with the extension's members over it.
 *
 * Strapi's own plugins export some modules as factories (upload's services: `({ strapi }) => ({ … })`), and
 * extensions written for them wrap the factory (`const original = plugin.services.x; plugin.services.x = (context)
 * => ({ ...original(context), … })`). So each module shown is also callable: called with the app's context, it
 * answers the module's instance, as the plugin's factory would.
 */
import type { KernelContext, Provider } from '../types';

type Members = Record<PropertyKey, unknown>;

/** What the extension was shown for one module, to turn back into a provider after it ran. */
interface Shown {
  provider: Provider<object>;
  assigned: Members;
  instance: () => object;
}

export class ExtensibleModules {
  private readonly shown = new WeakMap<object, Shown>();

  constructor(private readonly context: () => KernelContext) {}

  /**
   * A map of modules as the extension should see them: each one an object it may add to, replace or wrap. For
   * controllers (`actions`), an action of the plugin's own called from the extension leaves its answer in `ctx.body`,
   * as Strapi's actions do (`ctx.send`): Tessera's answer by returning it, which a wrapper written for Strapi
   * (`await me(ctx); ctx.body.extra = …`) would not see.
   */
  show(map: Record<string, Provider<object>> | undefined, actions = false): Record<string, Provider<object>> | undefined {
    if (!map) return map;
    return Object.fromEntries(Object.entries(map).map(([name, provider]) => [name, this.module(provider, actions)]));
  }

  /** The map after the extension ran, as providers the kernel registers. */
  settle(map: Record<string, Provider<object>> | undefined): Record<string, Provider<object>> | undefined {
    if (!map || typeof map !== 'object') return map;
    return Object.fromEntries(Object.entries(map).map(([name, value]) => [name, this.provider(value)]));
  }

  private module(provider: Provider<object>, actions: boolean): object {
    if (provider === null || (typeof provider !== 'object' && typeof provider !== 'function')) return provider;
    let made: object | undefined;
    const instance = (): object => {
      made ??= typeof provider === 'function' ? (provider as (context: KernelContext) => object)(this.context()) : provider;
      return made;
    };
    const assigned: Members = {};
    // An arrow function as the target: callable (Strapi's factory form), with no non-configurable own keys to keep.
    const target = (() => undefined) as unknown as Members;
    const view = new Proxy(target, {
      apply: () => compose(instance(), assigned),
      get: (_target, key) => {
        if (Object.prototype.hasOwnProperty.call(assigned, key)) return assigned[key];
        // A function member is read to be wrapped or re-used: it runs on the plugin's instance when called.
        if (typeof provider === 'function') {
          return function ownMember(...args: unknown[]): unknown {
            const own = instance() as Members;
            const member = own[key];
            if (typeof member !== 'function') throw new TypeError(`${String(key)} is not a function of the plugin's module`);
            const result = (member as (...values: unknown[]) => unknown).apply(own, args);
            return actions ? answeredInBody(result, args[0]) : result;
          };
        }
        return (instance() as Members)[key];
      },
      set: (_target, key, value) => {
        assigned[key] = value;
        return true;
      },
      has: (_target, key) => key in assigned || key in instance(),
      ownKeys: () => [...new Set([...Reflect.ownKeys(instance()), ...Reflect.ownKeys(assigned)])],
      getOwnPropertyDescriptor: (_target, key) => {
        if (Object.prototype.hasOwnProperty.call(assigned, key)) return { value: assigned[key], writable: true, enumerable: true, configurable: true };
        const own = Reflect.getOwnPropertyDescriptor(instance(), key);
        return own ? { value: (instance() as Members)[key], writable: true, enumerable: own.enumerable, configurable: true } : undefined;
      },
      defineProperty: (_target, key, descriptor) => {
        assigned[key] = descriptor.value;
        return true;
      },
      deleteProperty: (_target, key) => {
        // Strapi's extension may delete an action; the copy made later leaves it out.
        assigned[key] = undefined;
        return true;
      },
    });
    this.shown.set(view, { provider, assigned, instance });
    return view;
  }

  private provider(value: Provider<object>): Provider<object> {
    const shown = (typeof value === 'object' || typeof value === 'function') && value !== null ? this.shown.get(value) : undefined;
    if (!shown) return value;
    if (Reflect.ownKeys(shown.assigned).length === 0) return shown.provider;
    return () => compose(shown.instance(), shown.assigned);
  }
}

/** A copy of `own` (same prototype, own properties) with `assigned` over it; an `undefined` member is left out. */
function compose(own: object, assigned: Members): object {
  if (Reflect.ownKeys(assigned).length === 0) return own;
  const copy = Object.create(Object.getPrototypeOf(own) as object | null) as Members;
  Object.defineProperties(copy, Object.getOwnPropertyDescriptors(own));
  for (const key of Reflect.ownKeys(assigned)) {
    if (assigned[key] === undefined) delete copy[key];
    else copy[key] = assigned[key];
  }
  return copy;
}

/** The action's returned answer also set as the context's body when the action left none there. */
async function answeredInBody(result: unknown, ctx: unknown): Promise<unknown> {
  const answer = await result;
  const context = ctx as { body?: unknown } | undefined;
  if (answer !== undefined && typeof context === 'object' && context !== null && 'request' in context && context.body === undefined) context.body = answer;
  return answer;
}
