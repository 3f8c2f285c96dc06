/**
 * Loads an app file (`.ts` or `.js`). TypeScript is transpiled on require by
 * sucrase — a few milliseconds, no type checking — so apps run without a
 * build step and `tessera develop` can reload them.
 */
import fs from 'node:fs';
import path from 'node:path';

let registered = false;

function registerTypeScript(): void {
  if (registered) return;
  registered = true;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('sucrase/register/ts');
}

const EXTENSIONS = ['.ts', '.js', '.cjs', '.json'];

/** The first existing `base + extension`, or undefined. */
export function findModule(base: string): string | undefined {
  for (const extension of EXTENSIONS) {
    const file = `${base}${extension}`;
    if (fs.existsSync(file)) return file;
  }
  return undefined;
}

/** Requires a module and returns its default export (or the module itself). */
export function loadModule(file: string): unknown {
  if (file.endsWith('.ts')) registerTypeScript();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require(path.resolve(file));
  return loaded && typeof loaded === 'object' && 'default' in loaded ? loaded.default : loaded;
}

/** Module files in a folder (no declaration files, no tests), sorted by name. */
export function moduleFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => EXTENSIONS.includes(path.extname(name)) && !name.endsWith('.d.ts') && !name.includes('.test.'))
    .sort()
    .map((name) => path.join(dir, name));
}

export function moduleName(file: string): string {
  return path.basename(file, path.extname(file));
}
