/**
 * The provider named in the config: `local` (default), `aws-s3` / `s3`
 * (built in, over `@aws-sdk/client-s3`), an object with `init`, or a package
 * (`@strapi/provider-upload-<name>`, then `<name>`), as Strapi resolves them.
 */
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import { localProvider } from './local';
import { s3Provider } from './s3';
import type { ProviderModule, StorageProvider } from './types';

export interface ResolvedProvider {
  /** Stored in each file's `provider` column. */
  name: string;
  provider: StorageProvider;
  /** Set for the local provider: the folder `/uploads` serves. */
  uploadsDir: string | null;
}

export function resolveProvider(provider: unknown, options: Record<string, unknown>, appDir: string): ResolvedProvider {
  if (provider === 'local') {
    const uploadsDir = path.join(appDir, 'public', 'uploads');
    return { name: 'local', provider: localProvider(uploadsDir), uploadsDir };
  }
  if (provider === 'aws-s3' || provider === 's3') return { name: 'aws-s3', provider: s3Provider(options), uploadsDir: null };
  if (typeof provider === 'object' && provider !== null && typeof (provider as ProviderModule).init === 'function') {
    return { name: String((provider as { name?: unknown }).name ?? 'custom'), provider: (provider as ProviderModule).init(options), uploadsDir: null };
  }
  const name = String(provider);
  for (const candidate of [`@strapi/provider-upload-${name}`, name]) {
    let loaded: unknown;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      loaded = require(require.resolve(candidate, { paths: [appDir] }));
    } catch {
      continue;
    }
    const module = ((loaded as { default?: unknown }).default ?? loaded) as ProviderModule;
    if (typeof module.init !== 'function') throw new ConfigurationError(`upload provider ${candidate} has no init()`, 'config/plugins');
    return { name, provider: module.init(options), uploadsDir: null };
  }
  throw new ConfigurationError(`upload provider "${name}" cannot be found (install @strapi/provider-upload-${name} or ${name})`, 'config/plugins');
}
