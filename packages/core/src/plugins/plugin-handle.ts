/**
 * `app.plugin(name)`: one plugin's entries, addressed by their short names
 * (`strapi.plugin('users-permissions').service('jwt')`), as in Strapi v4.
 *
 * The app hands out one handle per plugin (the same object on every call), and
 * its methods are bound: published plugins keep state on the handle
 * (`strapi.plugin('x').cache = …`) and pass its methods around detached
 * (`const { config } = strapi.plugin('x')`).
 */
import type { ContentType } from '@tessera/database';
import type { App } from '../app-type';
import { materialized } from '../strapi/apis';
import type { MiddlewareFactory, PolicyFunction, RouteConfig, RouterDefinition } from '../types';
import type { ServiceLookup } from './plugin-services';

export class PluginHandle<P extends string = string> {
  /** Plugins may store their own state on the handle, as on Strapi's plugin object. */
  [state: string]: unknown;

  constructor(
    private readonly app: App,
    readonly name: P,
  ) {}

  /** Typed for the services a plugin declared (plugin-services.ts); Strapi's loose object for any other. */
  readonly service = ((name: string): object | undefined => this.app.service(this.uid(name))) as ServiceLookup<P>;

  readonly controller = <T extends object = Record<string, unknown>>(name: string): T | undefined => this.app.controller<T>(this.uid(name));

  /** `undefined` when the plugin has no such type, as `strapi.contentType`. */
  readonly contentType = (name: string): ContentType | undefined => this.app.contentTypes.find(this.uid(name));

  /** `config('jwt.expiresIn', '30d')`: this plugin's merged config, or the fallback. */
  readonly config = <T = unknown>(path?: string, fallback?: T): T =>
    this.app.config.get<T>(path ? `plugin.${this.name}.${path}` : `plugin.${this.name}`, fallback);

  readonly policy = (name: string): PolicyFunction => this.app.policies.get(this.uid(name));

  readonly middleware = (name: string): MiddlewareFactory => this.app.middlewares.get(this.uid(name));

  /** Every entry of one kind that this plugin declared, by short name. */
  get services(): Record<string, object> {
    return this.byShortName(this.app.services.keys(), (uid) => this.app.service(uid) as object);
  }

  get controllers(): Record<string, object> {
    return this.byShortName(this.app.controllers.keys(), (uid) => this.app.controller(uid) as object);
  }

  get contentTypes(): Record<string, ContentType> {
    return this.byShortName(this.app.contentTypes.keys(), (uid) => this.app.contentTypes.get(uid));
  }

  /**
   * The plugin's routers by name (`content-api`, `admin`, …), as Strapi's `plugin.routes`: the registry's own
   * router objects, so a route pushed before mounting is mounted; `{}` for a plugin without routes.
   */
  get routes(): Record<string, RouterDefinition & { routes: RouteConfig[] }> {
    return this.byShortName(this.app.routes.keys(), (uid) => materialized(this.app, this.app.routes.get(uid)));
  }

  get policies(): Record<string, PolicyFunction> {
    return this.byShortName(this.app.policies.keys(), (uid) => this.app.policies.get(uid));
  }

  get middlewares(): Record<string, MiddlewareFactory> {
    return this.byShortName(this.app.middlewares.keys(), (uid) => this.app.middlewares.get(uid));
  }

  private uid(name: string): string {
    return `plugin::${this.name}.${name}`;
  }

  private byShortName<T>(uids: string[], value: (uid: string) => T): Record<string, T> {
    const prefix = `plugin::${this.name}.`;
    const entries: Record<string, T> = {};
    for (const uid of uids) if (uid.startsWith(prefix)) entries[uid.slice(prefix.length)] = value(uid);
    return entries;
  }
}
