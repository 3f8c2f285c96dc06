/**
 * Services and controllers are registered as providers (an object, or a factory given `{ strapi, app }`) and
 * instantiated once, on first use: `strapi.service(uid)` always returns the same instance.
 */
import type { KernelContext, Provider } from '../types';
import type { Registry } from './registry';

export class Instances {
  private readonly made = new Map<string, object>();

  constructor(private readonly context: () => KernelContext) {}

  of(kind: string, uid: string, registry: Registry<Provider<object>>): object {
    const key = `${kind}:${uid}`;
    let instance = this.made.get(key);
    if (!instance) {
      const provider = registry.get(uid);
      instance = typeof provider === 'function' ? (provider as (context: KernelContext) => object)(this.context()) : provider;
      this.made.set(key, instance);
    }
    return instance;
  }
}
