/**
 * Reads an app in the Strapi v4 layout:
 *   src/api/<api>/content-types/<ct>/schema.json (+ lifecycles.ts)
 *   src/api/<api>/{routes,controllers,services,policies,middlewares}/*.ts
 *   src/components/<category>/<name>.json
 *   src/{policies,middlewares}/*.ts   (global::<name>)
 *   src/index.ts                      ({ register, bootstrap, destroy })
 * It only reads; the app registers what it found.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigurationError } from '@tessera/errors';
import type { Component, ContentType, LifecycleHandlers } from '@tessera/database';
import type { KernelContext } from '../types';
import { findModule, loadModule, moduleFiles, moduleName } from './load-module';
import { buildComponent, buildContentType } from './content-type';

export interface AppModuleEntry {
  /** Registry key: `api::<api>.<name>` or `global::<name>`. */
  uid: string;
  file: string;
  value: unknown;
}

export interface LoadedApp {
  contentTypes: ContentType[];
  components: Component[];
  lifecycles: Array<{ uid: string; handlers: LifecycleHandlers }>;
  routes: AppModuleEntry[];
  controllers: AppModuleEntry[];
  services: AppModuleEntry[];
  policies: AppModuleEntry[];
  middlewares: AppModuleEntry[];
  entry: AppEntry;
}

/** `src/index.ts`: Strapi v4's `{ register, bootstrap, destroy }`, each given `{ strapi, app }`. */
export interface AppEntry {
  register?(context: KernelContext): unknown;
  bootstrap?(context: KernelContext): unknown;
  destroy?(context: KernelContext): unknown;
}

export function loadApp(appDir: string): LoadedApp {
  const src = path.join(appDir, 'src');
  const loaded: LoadedApp = {
    contentTypes: [],
    components: loadComponents(path.join(src, 'components')),
    lifecycles: [],
    routes: [],
    controllers: [],
    services: [],
    policies: loadFolder(path.join(src, 'policies'), (name) => `global::${name}`),
    middlewares: loadFolder(path.join(src, 'middlewares'), (name) => `global::${name}`),
    entry: loadEntry(src),
  };
  const apiDir = path.join(src, 'api');
  for (const api of subdirectories(apiDir)) {
    const dir = path.join(apiDir, api);
    for (const { contentType, lifecycles } of loadContentTypes(dir, api)) {
      loaded.contentTypes.push(contentType);
      if (lifecycles) loaded.lifecycles.push({ uid: contentType.uid, handlers: lifecycles });
    }
    const uidOf = (name: string) => `api::${api}.${name}`;
    loaded.controllers.push(...loadFolder(path.join(dir, 'controllers'), uidOf));
    loaded.services.push(...loadFolder(path.join(dir, 'services'), uidOf));
    loaded.policies.push(...loadFolder(path.join(dir, 'policies'), uidOf));
    loaded.middlewares.push(...loadFolder(path.join(dir, 'middlewares'), uidOf));
    loaded.routes.push(...loadFolder(path.join(dir, 'routes'), uidOf));
  }
  return loaded;
}

function loadContentTypes(apiDir: string, api: string): Array<{ contentType: ContentType; lifecycles?: LifecycleHandlers }> {
  const dir = path.join(apiDir, 'content-types');
  return subdirectories(dir).map((name) => {
    const file = path.join(dir, name, 'schema.json');
    if (!fs.existsSync(file)) throw new ConfigurationError('schema.json is missing', path.join(dir, name));
    const contentType = buildContentType(readJson(file), `api::${api}.${name}`, 'api', file);
    const lifecyclesFile = findModule(path.join(dir, name, 'lifecycles'));
    const lifecycles = lifecyclesFile ? (loadModule(lifecyclesFile) as LifecycleHandlers) : undefined;
    return { contentType, lifecycles };
  });
}

function loadComponents(dir: string): Component[] {
  const components: Component[] = [];
  for (const category of subdirectories(dir)) {
    for (const file of fs.readdirSync(path.join(dir, category)).filter((name) => name.endsWith('.json')).sort()) {
      const full = path.join(dir, category, file);
      components.push(buildComponent(readJson(full), category, path.basename(file, '.json'), full));
    }
  }
  return components;
}

function loadFolder(dir: string, uidOf: (name: string) => string): AppModuleEntry[] {
  return moduleFiles(dir).map((file) => {
    try {
      return { uid: uidOf(moduleName(file)), file, value: loadModule(file) };
    } catch (error) {
      if (error instanceof ConfigurationError) throw error;
      throw new ConfigurationError(`cannot load: ${(error as Error).message}`, file);
    }
  });
}

function loadEntry(src: string): AppEntry {
  const file = findModule(path.join(src, 'index'));
  if (!file) return {};
  const entry = loadModule(file);
  if (entry && typeof entry !== 'object') throw new ConfigurationError('must export an object with register/bootstrap/destroy', file);
  return (entry ?? {}) as AppEntry;
}

export function readJson(file: string): unknown {
  const text = fs.readFileSync(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError(`invalid JSON: ${jsonProblem(text, (error as Error).message)}`, file);
  }
}

/** V8 says "… in JSON at position 100"; an editor wants a line and a column. */
export function jsonProblem(text: string, message: string): string {
  const match = /at position (\d+)/.exec(message);
  // String cuts, not patterns: V8 quotes the file's text in some messages, which no regex should scan.
  const cut = (at: number) => (at >= 0 ? message.slice(0, at) : message);
  const head = cut(message.indexOf(' in JSON at position ')).split(', "')[0]!;
  if (!match) return head;
  const before = text.slice(0, Number(match[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${head} at line ${line}, column ${column}`;
}

function subdirectories(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}
