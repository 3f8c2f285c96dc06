/**
 * App configuration: every `config/<name>.{ts,js,json}` becomes
 * `config.<name>`; a file may export a value or a function `({ env }) => value`.
 * `config/env/<NODE_ENV>/<name>` files are deep-merged on top. `.env` in the
 * app directory is loaded first and never overrides real environment variables.
 */
import fs from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { ConfigurationError } from '@tessera/errors';
import { createEnv, type Env } from './env';
import { registerCompiledLayout } from '../loader/compiled-layout';
import { loadModule, moduleFiles, moduleName } from '../loader/load-module';

export type ConfigTree = Record<string, unknown>;

export function loadDotEnv(appDir: string): void {
  const file = path.join(appDir, '.env');
  if (fs.existsSync(file)) dotenv.config({ path: file, override: false });
}

export function loadConfig(appDir: string, env: Env = createEnv()): ConfigTree {
  // Before the app's first file runs: a TypeScript Strapi app's files see the paths of Strapi's build.
  registerCompiledLayout(appDir);
  const config = readConfigDir(path.join(appDir, 'config'), env);
  const mode = process.env.NODE_ENV ?? 'development';
  const overrides = readConfigDir(path.join(appDir, 'config', 'env', mode), env);
  return deepMerge(config, overrides);
}

function readConfigDir(dir: string, env: Env): ConfigTree {
  const config: ConfigTree = {};
  for (const file of moduleFiles(dir)) {
    let value: unknown;
    try {
      value = loadModule(file);
      if (typeof value === 'function') value = value({ env });
    } catch (error) {
      throw new ConfigurationError(`cannot load: ${(error as Error).message}`, file);
    }
    config[moduleName(file)] = value ?? {};
  }
  return config;
}

export function deepMerge(base: ConfigTree, extra: ConfigTree): ConfigTree {
  const merged: ConfigTree = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = merged[key];
    merged[key] = isObject(current) && isObject(value) ? deepMerge(current, value) : value;
  }
  return merged;
}

function isObject(value: unknown): value is ConfigTree {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads `a.b.c` from the tree, or the fallback. */
export function getConfig<T>(config: ConfigTree, key: string, fallback: T): T {
  let current: unknown = config;
  for (const part of key.split('.')) {
    if (!isObject(current) || !(part in current)) return fallback;
    current = current[part];
  }
  return (current === undefined ? fallback : current) as T;
}

/** The config tree with Strapi v4's accessors (`strapi.config.get('server.port', 1337)`). */
export type AppConfig = ConfigTree & {
  get<T = unknown>(key: string, fallback?: T): T;
  set(key: string, value: unknown): void;
  has(key: string): boolean;
};

/**
 * Adds `get`/`set`/`has` to a config tree as non-enumerable properties, so
 * `config.permissions` and `Object.keys(config)` still see only the files.
 */
export function withAccessors(tree: ConfigTree): AppConfig {
  const config = tree as AppConfig;
  const missing = Symbol('missing');
  const methods = {
    get: (key: string, fallback?: unknown) => getConfig(config, key, fallback),
    set: (key: string, value: unknown) => setConfig(config, key, value),
    has: (key: string) => getConfig<unknown>(config, key, missing) !== missing,
  };
  for (const [name, value] of Object.entries(methods)) Object.defineProperty(config, name, { value, enumerable: false });
  return config;
}

function setConfig(config: ConfigTree, key: string, value: unknown): void {
  const parts = key.split('.');
  const last = parts.pop()!;
  let current = config;
  for (const part of parts) {
    if (!isObject(current[part])) current[part] = {};
    current = current[part] as ConfigTree;
  }
  current[last] = value;
}
