/**
 * A namespaced registry (`api::blog.post`, `plugin::x.y`, `global::z`). It
 * throws on a duplicate key, so two things can never silently claim one name.
 */
import { ConfigurationError } from '@tessera/errors';

export class Registry<T> {
  private readonly items = new Map<string, T>();

  constructor(readonly kind: string) {}

  add(key: string, value: T): void {
    if (this.items.has(key)) throw new ConfigurationError(`${this.kind} "${key}" is registered twice`);
    this.items.set(key, value);
  }

  /** Replaces an entry (app extensions overriding a default). */
  set(key: string, value: T): void {
    this.items.set(key, value);
  }

  get(key: string): T {
    const value = this.items.get(key);
    if (value === undefined) throw new ConfigurationError(`no ${this.kind} "${key}"`);
    return value;
  }

  find(key: string): T | undefined {
    return this.items.get(key);
  }

  has(key: string): boolean {
    return this.items.has(key);
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  values(): T[] {
    return [...this.items.values()];
  }

  entries(): Array<[string, T]> {
    return [...this.items.entries()];
  }
}
