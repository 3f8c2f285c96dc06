/**
 * The one pattern for a plugin's per-app state. A plugin module is shared by
 * every app of the process (tests boot many; Strapi code takes its factories
 * from `strapi-server`), so what belongs to one app — a JWT secret, caches, a
 * built schema — lives in one object per app, not in the module or in a
 * closure of one plugin instance:
 *
 *   const stateOf = pluginState((app) => new GraphqlState(app));
 *   register({ app }) { stateOf(app).… }        // made here, on first use
 *   services: { extension: ({ app }) => stateOf(app).extension }
 *   destroy({ app }) { return stateOf(app).close(); }
 *
 * Lifecycle functions, factories, policies and middlewares all receive the
 * app, so each finds the same object; the object gets the app once, in its
 * constructor, so nothing in it asks "has the plugin registered yet?". The
 * state goes with the app (a WeakMap: a destroyed app is not kept alive).
 */
import type { App } from '../app-type';

export function pluginState<S extends object>(create: (app: App) => S): (app: App) => S {
  const states = new WeakMap<App, S>();
  return (app) => {
    let state = states.get(app);
    if (state === undefined) {
      state = create(app);
      states.set(app, state);
    }
    return state;
  };
}
