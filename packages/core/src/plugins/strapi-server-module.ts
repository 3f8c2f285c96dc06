/**
 * What `require('@strapi/plugin-<name>/strapi-server')` answers for a Strapi
 * plugin Tessera implements (load-module.ts redirects it to the Tessera
 * package's `strapi-server` module): Strapi's export, a function returning the
 * plugin's server definition. Published plugins build on it —
 * strapi-plugin-responsive-image and strapi-plugin-image-optimizer take
 * `services['image-manipulation']` from it and spread what that factory makes
 * into their own service.
 *
 * Each call answers a fresh definition (its own maps: Strapi code mutates what
 * it gets), whose factories and lifecycle functions take Strapi's `{ strapi }`
 * alone: Tessera's own code reads the app from `app`, which is filled from
 * `strapi` here, so no global is read. A service factory called with no
 * argument at all (Strapi's own factories ignore theirs and read
 * `global.strapi`) gets none: only a factory written for that call answers it.
 */
import type { App } from '../app-type';
import type { KernelContext, MiddlewareFactory, Plugin, PluginRoutes, PluginServer, PolicyFunction, Provider, RouteConfig, RouterDefinition } from '../types';

/** The context Strapi code hands over: `{ strapi }`, sometimes nothing. */
type StrapiContext = Partial<KernelContext> | undefined;

export type StrapiServerModule = () => PluginServer;

/**
 * `plugin`: the definition answered. Its factories serve any app: a plugin's per-app state is found from the app
 * they are given (plugin-state.ts), never held by one definition.
 */
export function strapiServerModule(plugin: Plugin): StrapiServerModule {
  return () => strapiFormat(plugin);
}

function strapiFormat(plugin: Plugin): PluginServer {
  return {
    ...(plugin.register ? { register: (context: StrapiContext) => plugin.register!(required(context, plugin.name, 'register')) } : {}),
    ...(plugin.bootstrap ? { bootstrap: (context: StrapiContext) => plugin.bootstrap!(required(context, plugin.name, 'bootstrap')) } : {}),
    ...(plugin.destroy ? { destroy: (context: StrapiContext) => plugin.destroy!(required(context, plugin.name, 'destroy')) } : {}),
    ...(plugin.config ? { config: { ...plugin.config } } : {}),
    ...(plugin.contentTypes ? { contentTypes: { ...plugin.contentTypes } } : {}),
    ...(plugin.components ? { components: { ...plugin.components } } : {}),
    ...(plugin.services ? { services: mapValues(plugin.services, (provider, name) => providerTakingStrapi(provider, `plugin::${plugin.name}.${name}`)) } : {}),
    ...(plugin.controllers ? { controllers: mapValues(plugin.controllers, (provider, name) => providerTakingStrapi(provider, `plugin::${plugin.name}.${name}`)) } : {}),
    ...(plugin.policies ? { policies: mapValues(plugin.policies, (policy) => policyTakingStrapi(policy, plugin.name)) } : {}),
    ...(plugin.middlewares ? { middlewares: mapValues(plugin.middlewares, (factory) => middlewareTakingStrapi(factory, plugin.name)) } : {}),
    ...(plugin.routes ? { routes: ownRoutes(plugin.routes) } : {}),
  };
}

/** `{ strapi }` (or `{ strapi, app }`) as the kernel context Tessera's code reads; `undefined` for no context. */
export function kernelContextOf(context: StrapiContext): KernelContext | undefined {
  const app: App | undefined = context?.app ?? context?.strapi;
  return app ? { strapi: app, app } : undefined;
}

function required(context: StrapiContext, pluginName: string, what: string): KernelContext {
  const kernel = kernelContextOf(context);
  if (!kernel) throw new TypeError(`plugin "${pluginName}": ${what} needs { strapi }`);
  return kernel;
}

/**
 * A service or controller that is a factory gets the kernel context made from `{ strapi }`. Called with none, the
 * factory runs without one (Tessera's image-manipulation answers functions the upload binds to its app); one that
 * needs the app says so instead of failing on a destructured `undefined`.
 */
function providerTakingStrapi(provider: Provider<object>, uid: string): Provider<object> {
  if (typeof provider !== 'function') return provider;
  const factory = provider as (context?: KernelContext) => object;
  return ((context?: StrapiContext) => {
    const kernel = kernelContextOf(context);
    if (kernel) return factory(kernel);
    try {
      return factory(undefined);
    } catch (error) {
      if (error instanceof TypeError) throw new TypeError(`${uid} needs { strapi }: call its factory as factory({ strapi }) (${error.message})`);
      throw error;
    }
  }) as Provider<object>;
}

function policyTakingStrapi(policy: PolicyFunction, pluginName: string): PolicyFunction {
  return (policyContext, config, context) => policy(policyContext, config, required(context, pluginName, 'a policy'));
}

function middlewareTakingStrapi(factory: MiddlewareFactory, pluginName: string): MiddlewareFactory {
  return (config, context) => factory(config, required(context, pluginName, 'a middleware'));
}

/** Routes with their own arrays and routers: Strapi code pushes to `routes['content-api'].routes`. */
function ownRoutes(routes: PluginRoutes): PluginRoutes {
  if (Array.isArray(routes)) return [...routes];
  const copy = (router: RouterDefinition | RouteConfig[]) =>
    Array.isArray(router) ? [...router] : { ...router, routes: Array.isArray(router.routes) ? [...router.routes] : router.routes };
  return mapValues(routes, copy);
}

function mapValues<T, U>(map: Record<string, T>, transform: (value: T, key: string) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, transform(value, key)]));
}
