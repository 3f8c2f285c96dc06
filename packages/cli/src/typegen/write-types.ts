/**
 * Writes an app's generated types (`types/generated/*.d.ts`), touching only
 * the files whose text changed: an editor or watcher sees no churn.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { App } from '@tessera/core';
import { generateStrapiTypes } from './strapi-types';

export const DEFAULT_TYPES_DIR = path.join('types', 'generated');

/** Writes the generated files that changed; returns their names. */
export function writeTypes(app: App, dir: string): string[] {
  const generated = generateStrapiTypes(app.contentTypes.values(), app.components.values());
  fs.mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [name, text] of [['contentTypes.d.ts', generated.contentTypes], ['components.d.ts', generated.components]] as const) {
    const file = path.join(dir, name);
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) continue;
    fs.writeFileSync(file, text);
    written.push(name);
  }
  return written;
}
