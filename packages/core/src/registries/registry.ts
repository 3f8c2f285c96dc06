/**
 * A namespaced registry (`api::blog.post`, `plugin::x.y`, `global::z`). It
 * throws on a duplicate key, so two things can never silently claim one name.
 *
 * Entries are also the registry's own enumerable properties: Strapi v4 code
 * reads `strapi.contentTypes['api::article.article']` and iterates
 * `Object.values(strapi.contentTypes)`, and that code must run unchanged. The
 * registry's own state is in private fields, so no other key shows.
 */
import { ConfigurationError } from '@tessera/errors';

export class Registry<T> {
  readonly #items = new Map<string, T>();
  readonly #kind: string;

  constructor(kind: string) {
    this.#kind = kind;
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
    Object.defineProperty(this, key, { value, enumerable: true, configurable: true, writable: false });
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
