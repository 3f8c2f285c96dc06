/**
 * A Strapi v4 provider package, found as Strapi's plugins find theirs: the
 * config's `provider: '<name>'` is the package `@strapi/provider-<kind>-<name>`
 * when one is installed, else the package `<name>` itself (community
 * providers: `provider: 'strapi-provider-email-resend'`), both resolved from
 * the app's folder. Upload and email resolve their providers here; a provider
 * module is `{ init(options, settings) }` (a `default` export is unwrapped).
 */
import { ConfigurationError } from '@tessera/errors';

export interface ProviderModule<T> {
  init(...args: unknown[]): T;
}

/** The provider module installed for `name`, or undefined when no candidate package is installed. */
export function providerPackage<T>(kind: string, name: string, appDir: string): ProviderModule<T> | undefined {
  for (const candidate of [`@strapi/provider-${kind}-${name}`, name]) {
    let resolved: string;
    try {
      resolved = require.resolve(candidate, { paths: [appDir] });
    } catch {
      continue; // not installed: the next candidate
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded: unknown = require(resolved);
    const module = ((loaded as { default?: unknown }).default ?? loaded) as ProviderModule<T>;
    if (typeof module?.init !== 'function') throw new ConfigurationError(`${kind} provider ${candidate} has no init()`, 'config/plugins');
    return module;
  }
  return undefined;
}
