/**
 * `app.plugin(name)`: one plugin's entries, addressed by their short names
 * (`strapi.plugin('users-permissions').service('jwt')`), as in Strapi v4.
 */
import type { ContentType } from '@tessera/database';
import type { App } from '../app';
import type { MiddlewareFactory, PolicyFunction } from '../types';

export class PluginHandle {
  constructor(
    private readonly app: App,
    readonly name: string,
  ) {}

  service<T extends object = Record<string, unknown>>(name: string): T {
    return this.app.service<T>(this.uid(name));
  }

  controller<T extends object = Record<string, unknown>>(name: string): T | undefined {
    return this.app.controller<T>(this.uid(name));
  }

  contentType(name: string): ContentType {
    return this.app.contentTypes.get(this.uid(name));
  }

  /** `config('jwt.expiresIn', '30d')`: this plugin's merged config, or the fallback. */
  config<T = unknown>(path?: string, fallback?: T): T {
    return this.app.config.get<T>(path ? `plugin.${this.name}.${path}` : `plugin.${this.name}`, fallback);
  }

  policy(name: string): PolicyFunction {
    return this.app.policies.get(this.uid(name));
  }

  middleware(name: string): MiddlewareFactory {
    return this.app.middlewares.get(this.uid(name));
  }

  /** Every entry of one kind that this plugin declared, by short name. */
  get services(): Record<string, object> {
    return this.byShortName(this.app.services.keys(), (uid) => this.app.service(uid));
  }

  get contentTypes(): Record<string, ContentType> {
    return this.byShortName(this.app.contentTypes.keys(), (uid) => this.app.contentTypes.get(uid));
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
