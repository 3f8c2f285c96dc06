/**
 * The content API's settings from `config/api` (`api.rest.*`, Strapi v4's keys and defaults), read once at boot.
 */
import { ConfigurationError } from '@tessera/errors';
import type { ContentApiConfig } from '../content/content-api';
import { getConfig, type AppConfig } from './load-config';

export function restConfig(config: AppConfig): ContentApiConfig {
  return {
    defaultLimit: Number(getConfig(config, 'api.rest.defaultLimit', 25)),
    maxLimit: optionalNumber(getConfig<unknown>(config, 'api.rest.maxLimit', 100)),
    withCount: getConfig<unknown>(config, 'api.rest.withCount', true) !== false,
    strictParams: getConfig<unknown>(config, 'api.rest.strictParams', false) === true,
    publicPreview: getConfig<unknown>(config, 'api.rest.publicPreview', false) === true,
    maxPopulatedEntries: positiveInteger(getConfig<unknown>(config, 'api.rest.maxPopulatedEntries', 10000), 'api.rest.maxPopulatedEntries'),
  };
}

function optionalNumber(value: unknown): number | undefined {
  return value === undefined || value === null ? undefined : Number(value);
}

/** A count limit from the config: a positive integer (or its digits, as an environment variable gives them). */
function positiveInteger(value: unknown, key: string): number {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof number === 'number' && Number.isSafeInteger(number) && number > 0) return number;
  throw new ConfigurationError(`${key} must be a positive integer (got ${JSON.stringify(value)})`, 'config/api.ts');
}
