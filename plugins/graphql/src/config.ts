/**
 * `config/plugins.ts` → `graphql.config`. Limits are on by default; options
 * of Strapi's Apollo server that mean nothing here are accepted and named in
 * one warning at boot, so an existing Strapi config file loads unchanged.
 */
import type { App } from '@tessera/core';

export interface GraphqlConfig {
  endpoint: string;
  shadowCRUD: boolean;
  /** Serve the explorer outside development too. */
  playgroundAlways: boolean;
  depthLimit: number;
  /** Largest page size (and relation page) a query may ask for. `maxLimit` is its other name. */
  amountLimit: number;
  maxLimit?: number;
  /** Page size when a query gives none (Strapi v4's GraphQL default: 10). */
  defaultLimit: number;
  maxAliases: number;
  maxFields: number;
  /** Largest query document, in characters. */
  maxDocumentSize: number;
  /** Accept a JSON array of operations in one POST, at most `maxBatchSize`. */
  batchRequests: boolean;
  maxBatchSize: number;
  /** Schema introspection; default: on except when NODE_ENV is production. */
  introspection?: boolean;
  apolloServer?: Record<string, unknown>;
}

export const DEFAULT_CONFIG: GraphqlConfig = {
  endpoint: '/graphql',
  shadowCRUD: true,
  playgroundAlways: false,
  depthLimit: 10,
  amountLimit: 100,
  defaultLimit: 10,
  maxAliases: 30,
  maxFields: 1000,
  maxDocumentSize: 20000,
  batchRequests: false,
  maxBatchSize: 10,
};

const NUMBERS = ['depthLimit', 'amountLimit', 'maxLimit', 'defaultLimit', 'maxAliases', 'maxFields', 'maxDocumentSize', 'maxBatchSize'] as const;
const BOOLEANS = ['shadowCRUD', 'playgroundAlways', 'batchRequests', 'introspection'] as const;

/** Thrown messages name the key; the kernel stops the boot with them. */
export function validateConfig(config: Record<string, unknown>): void {
  if (typeof config.endpoint !== 'string' || !config.endpoint.startsWith('/') || config.endpoint.length < 2) {
    throw new Error('graphql.endpoint must be a path such as "/graphql"');
  }
  for (const key of NUMBERS) {
    const value = config[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) > 0)) throw new Error(`graphql.${key} must be a positive integer`);
  }
  for (const key of BOOLEANS) {
    const value = config[key];
    if (value !== undefined && typeof value !== 'boolean') throw new Error(`graphql.${key} must be true or false`);
  }
}

export function readConfig(app: App): GraphqlConfig {
  const raw = (app.config.get('plugin.graphql', {}) ?? {}) as Partial<GraphqlConfig>;
  return { ...DEFAULT_CONFIG, ...raw };
}

export function isProduction(): boolean {
  return process.env.NODE_ENV === 'production';
}

/** Apollo-only options (tracing, cache, plugins, ...) do nothing here: say so once. */
export function warnIgnoredOptions(app: App, config: GraphqlConfig): void {
  const apollo = Object.keys(config.apolloServer ?? {});
  if (apollo.length > 0) app.log.warn(`graphql: apolloServer options are ignored (Tessera serves GraphQL without Apollo): ${apollo.join(', ')}`);
  const known = new Set([...Object.keys(DEFAULT_CONFIG), 'maxLimit', 'introspection', 'apolloServer']);
  const unknown = Object.keys(config).filter((key) => !known.has(key));
  if (unknown.length > 0) app.log.warn(`graphql: unknown config keys are ignored: ${unknown.join(', ')}`);
}
