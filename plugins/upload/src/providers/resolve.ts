/**
 * The provider named in the config, resolved as Strapi v4 resolves it: an
 * installed package `@strapi/provider-upload-<name>`, then a package named
 * `<name>` (both from the app's folder), then Tessera's built-ins. So a
 * Strapi app that installs `@strapi/provider-upload-aws-s3` runs that
 * package's own code; `aws-s3` / `s3` without it use the built-in client
 * (over `@aws-sdk/client-s3`). `local` is always the built-in: it serves
 * `/uploads` itself, where Strapi's package relies on Strapi's static server.
 * An object with `init` is used as it is.
 *
 * `actionOptions` (`{ upload, uploadStream, delete }`) reach the provider's
 * methods as their second argument, as Strapi passes them.
 */
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import { providerPackage } from '@tessera/core';
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

/** Built-ins used when no package of that name is installed. */
const BUILT_IN_FALLBACKS: Record<string, (options: Record<string, unknown>) => StorageProvider> = {
  'aws-s3': s3Provider,
  s3: s3Provider,
};

export type ActionOptions = Partial<Record<'upload' | 'uploadStream' | 'delete', Record<string, unknown>>>;

export function resolveProvider(provider: unknown, options: Record<string, unknown>, appDir: string, actionOptions: ActionOptions = {}): ResolvedProvider {
  if (provider === 'local') {
    const uploadsDir = path.join(appDir, 'public', 'uploads');
    return { name: 'local', provider: localProvider(uploadsDir), uploadsDir };
  }
  if (typeof provider === 'object' && provider !== null && typeof (provider as ProviderModule).init === 'function') {
    const name = String((provider as { name?: unknown }).name ?? 'custom');
    return { name, provider: withActionOptions((provider as ProviderModule).init(options), actionOptions), uploadsDir: null };
  }
  const name = String(provider);
  const installed = providerPackage<StorageProvider>('upload', name, appDir);
  if (installed) return { name, provider: withActionOptions(installed.init(options), actionOptions), uploadsDir: null };
  const builtIn = BUILT_IN_FALLBACKS[name];
  if (builtIn) return { name: 'aws-s3', provider: builtIn(options), uploadsDir: null };
  throw new ConfigurationError(`upload provider "${name}" cannot be found (install @strapi/provider-upload-${name} or ${name})`, 'config/plugins');
}

/** Strapi calls `provider[method](file, actionOptions[method])`; the same here. */
function withActionOptions(provider: StorageProvider, actionOptions: ActionOptions): StorageProvider {
  const wrapped: StorageProvider = Object.create(provider) as StorageProvider;
  wrapped.upload = (file) => provider.upload(file, actionOptions.upload);
  wrapped.delete = (file) => provider.delete(file, actionOptions.delete);
  if (provider.uploadStream) wrapped.uploadStream = (file) => provider.uploadStream!(file, actionOptions.uploadStream);
  return wrapped;
}
