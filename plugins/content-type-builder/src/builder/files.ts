/**
 * The files the content-type builder writes, as Strapi 4.26.2 writes them: a schema is written with `fs-extra`'s
 * `writeJSON(file, value, { spaces: 2 })` (JSON.stringify, two spaces, a final newline) in a fixed key order, and a
 * new API gets the core router, controller and service its generator renders (JavaScript, or TypeScript when the
 * app has a tsconfig.json). Every change goes through a FileChanges, which can put the files back as they were.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A schema as the builder holds it: the file's own keys; the ones it writes come first, in Strapi's order. */
export interface SchemaFile {
  kind?: string;
  collectionName?: string;
  info?: Record<string, unknown>;
  options?: Record<string, unknown>;
  pluginOptions?: Record<string, unknown>;
  attributes: Record<string, Record<string, unknown>>;
  config?: unknown;
}

/** Strapi's flush: only these keys, in this order (a key holding undefined is not written). */
export function schemaFileText(schema: SchemaFile): string {
  const { kind, collectionName, info, options, pluginOptions, attributes, config } = schema;
  return `${JSON.stringify({ kind, collectionName, info, options, pluginOptions, attributes, config }, null, 2)}\n`;
}

/** Reads a schema file the builder is about to rewrite (Strapi's `__schema__`: the file as the app declares it). */
export function readSchemaFile(file: string): SchemaFile {
  const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${file} does not hold a schema object`);
  const schema = parsed as SchemaFile;
  if (typeof schema.attributes !== 'object' || schema.attributes === null) schema.attributes = {};
  return schema;
}

export type ApiLanguage = 'js' | 'ts';

/** Strapi's generator picks TypeScript when the app has a tsconfig.json. */
export function apiLanguage(appDir: string): ApiLanguage {
  return fs.existsSync(path.join(appDir, 'tsconfig.json')) ? 'ts' : 'js';
}

const FACTORIES = { controllers: 'createCoreController', services: 'createCoreService', routes: 'createCoreRouter' } as const;
const NOUNS = { controllers: 'controller', services: 'service', routes: 'router' } as const;
export type ApiFolder = keyof typeof FACTORIES;
export const API_FOLDERS: readonly ApiFolder[] = ['controllers', 'services', 'routes'];

/** The text of Strapi 4.26.2's `core-<noun>` generator templates for one type. */
export function apiFileText(folder: ApiFolder, language: ApiLanguage, name: string, uid: string): string {
  const factory = FACTORIES[folder];
  const header = `/**\n * ${name} ${NOUNS[folder]}\n */\n\n`;
  if (language === 'js') return `'use strict';\n\n${header}const { ${factory} } = require('@strapi/strapi').factories;\n\nmodule.exports = ${factory}('${uid}');\n`;
  // Strapi's controller template has no semicolon after its import; the other two have one.
  const semicolon = folder === 'controllers' ? '' : ';';
  return `${header}import { factories } from '@strapi/strapi'${semicolon}\n\nexport default factories.${factory}('${uid}');\n`;
}

/**
 * Writes and removals that can be undone: each file's first state is remembered, so a failure part-way puts
 * every touched file (and the folders made for them) back, and a failed write changes nothing on disk.
 */
export class FileChanges {
  private readonly before = new Map<string, string | null>();
  private readonly madeDirs: string[] = [];

  private remember(file: string): void {
    if (!this.before.has(file)) this.before.set(file, fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null);
  }

  exists(file: string): boolean {
    return fs.existsSync(file);
  }

  write(file: string, text: string): void {
    this.remember(file);
    this.makeDir(path.dirname(file));
    fs.writeFileSync(file, text);
  }

  /** Removes a file, then its folders up to `stopAt` while they are empty (Strapi removes an emptied type or API folder). */
  remove(file: string, stopAt: string): void {
    this.remember(file);
    fs.rmSync(file, { force: true });
    let dir = path.dirname(file);
    while (dir.startsWith(`${stopAt}${path.sep}`) && fs.existsSync(dir) && fs.readdirSync(dir).length === 0) {
      fs.rmdirSync(dir);
      dir = path.dirname(dir);
    }
  }

  /** Puts every touched file back as it was, and removes the folders this made. */
  rollback(): void {
    for (const [file, text] of this.before) {
      if (text === null) fs.rmSync(file, { force: true });
      else {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, text);
      }
    }
    for (const dir of [...this.madeDirs].reverse()) {
      if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
    }
  }

  private makeDir(dir: string): void {
    const missing: string[] = [];
    for (let current = dir; !fs.existsSync(current); current = path.dirname(current)) missing.push(current);
    fs.mkdirSync(dir, { recursive: true });
    this.madeDirs.push(...missing.reverse());
  }
}
