/**
 * A namespaced registry (`api::blog.post`, `plugin::x.y`, `global::z`). It
 * throws on a duplicate key, so two things can never silently claim one name.
 *
 * Entries are also the registry's own enumerable properties: Strapi v4 code
 * reads `strapi.contentTypes['api::article.article']` and iterates
 * `Object.values(strapi.contentTypes)`, and that code must run unchanged. The
 * registry's own state is in private fields, so no other key shows.
 *
 * What a property shows may differ from what the registry holds: Strapi's
 * `strapi.plugins.x` is the plugin object (`services` instantiated), and
 * `strapi.services[uid]` the service instance, while the kernel keeps the
 * definitions and factories (`get`, `values`). `shown` maps a key to the
 * value its property answers, read on each access (instances are lazy).
 */
import { ConfigurationError } from '@tessera/errors';

export class Registry<T> {
  readonly #items = new Map<string, T>();
  readonly #kind: string;
  readonly #shown: ((key: string) => unknown) | undefined;

  constructor(kind: string, shown?: (key: string) => unknown) {
    this.#kind = kind;
    this.#shown = shown;
  }

  get kind(): string {
    return this.#kind;
  }

  add(key: string, value: T): void {
    if (this.#items.has(key)) throw new ConfigurationError(`${this.#kind} "${key}" is registered twice`);
    this.set(key, value);
  }

  /** Replaces an entry (app extensions overriding a default). */
  set(key: string, value: T): void {
    this.#items.set(key, value);
    const shown = this.#shown;
    if (shown) Object.defineProperty(this, key, { get: () => shown(key), enumerable: true, configurable: true });
    else Object.defineProperty(this, key, { value, enumerable: true, configurable: true, writable: false });
  }

  get(key: string): T {
    const value = this.#items.get(key);
    if (value === undefined) throw new ConfigurationError(`no ${this.#kind} "${key}"`);
    return value;
  }

  find(key: string): T | undefined {
    return this.#items.get(key);
  }

  has(key: string): boolean {
    return this.#items.has(key);
  }

  keys(): string[] {
    return [...this.#items.keys()];
  }

  values(): T[] {
    return [...this.#items.values()];
  }

  entries(): Array<[string, T]> {
    return [...this.#items.entries()];
  }
}
