/**
 * Where a TypeScript Strapi app's files say they are.
 *
 * Strapi v4 runs a TypeScript app (a `tsconfig.json` at its root) from the build `tsc` emits into the
 * config's `outDir`: `config/database.ts` runs as `dist/config/database.js`, so its `__dirname` is `<app>/dist/config`,
 * and every such app's database config — create-strapi-app's TypeScript template among them — puts SQLite at
 * `path.join(__dirname, '..', '..', '.tmp/data.db')`, which is `<app>/.tmp/data.db`. Tessera runs the sources
 * themselves (transpiled on require, no build), where the same expression names the folder *above* the app: another
 * database than the one Strapi made.
 *
 * So, for an app whose tsconfig emits (`outDir` set, `noEmit` not true), each of its own files (not its node_modules)
 * is given the `__dirname` and `__filename` Strapi's build gives it: `<outDir>/<path from rootDir>`, `.js`. Tessera's
 * own app template does not emit (`noEmit: true`) and keeps its source paths. What cannot be matched: a file read
 * through `fs` from `__dirname` is looked for where the build would have put it, and Tessera does not build.
 */
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';

interface Layout {
  rootDir: string;
  outDir: string;
}

const layouts = new Map<string, Layout>();
let hooked = false;

type Compile = (this: Module, content: string, filename: string) => unknown;

/** Registers `appDir`'s build layout when its tsconfig.json emits one; apps without it keep their source paths. */
export function registerCompiledLayout(appDir: string): void {
  const root = path.resolve(appDir);
  const options = compilerOptions(path.join(root, 'tsconfig.json'));
  if (!options || typeof options.outDir !== 'string' || options.noEmit === true) {
    layouts.delete(root);
    return;
  }
  layouts.set(root, { rootDir: path.resolve(root, typeof options.rootDir === 'string' ? options.rootDir : '.'), outDir: path.resolve(root, options.outDir) });
  hookCompile();
}

/** A TypeScript app's build folder (its tsconfig's `outDir`), or undefined for a JavaScript app or one whose tsconfig names none. */
export function typeScriptOutDir(appDir: string): string | undefined {
  const options = compilerOptions(path.join(path.resolve(appDir), 'tsconfig.json'));
  return options && typeof options.outDir === 'string' ? path.resolve(appDir, options.outDir) : undefined;
}

/** The `__dirname` and `__filename` Strapi's build gives `filename`, or undefined when it is no emitting app's own file. */
export function compiledLocation(filename: string): { dirname: string; filename: string } | undefined {
  for (const [root, layout] of layouts) {
    const inApp = path.relative(root, filename);
    if (inApp.startsWith('..') || path.isAbsolute(inApp) || inApp.split(path.sep).includes('node_modules')) continue;
    const fromRoot = path.relative(layout.rootDir, filename);
    if (fromRoot.startsWith('..') || !path.relative(layout.outDir, filename).startsWith('..')) continue;
    const compiled = path.join(layout.outDir, fromRoot).replace(/\.(ts|cts|mts)$/, '.js');
    return { dirname: path.dirname(compiled), filename: compiled };
  }
  return undefined;
}

/** tsconfig.json's compilerOptions (comments and trailing commas allowed, as tsc allows them), or undefined. */
function compilerOptions(file: string): Record<string, unknown> | undefined {
  if (!fs.existsSync(file)) return undefined;
  const text = fs.readFileSync(file, 'utf8');
  const json = withoutCommentsAndTrailingCommas(text);
  try {
    const parsed = JSON.parse(json) as { compilerOptions?: unknown };
    return parsed.compilerOptions && typeof parsed.compilerOptions === 'object' ? (parsed.compilerOptions as Record<string, unknown>) : {};
  } catch {
    return undefined;
  }
}

/**
 * JSON with comments and trailing commas (tsconfig's dialect) as plain JSON, in one pass: a scanner rather than a
 * regular expression, which backtracks on an unclosed `/*` repeated.
 */
function withoutCommentsAndTrailingCommas(text: string): string {
  let out = '';
  let pendingComma = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out += flush() + text.slice(i, end + 1);
      i = end;
    } else if (char === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end - 1;
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else if (char === ',') {
      out += flush();
      pendingComma = true;
    } else if (/\s/.test(char)) {
      out += char;
    } else {
      // A comma is kept only when something other than a closing bracket follows it.
      if (char !== '}' && char !== ']') out += flush();
      pendingComma = false;
      out += char;
    }
  }
  return out + flush();

  function flush(): string {
    if (!pendingComma) return '';
    pendingComma = false;
    return ',';
  }
}

/**
 * The leading comments and `"use strict"` directives, which stay first so the file's strictness is unchanged (a
 * line comment with its line break: what follows starts the next line).
 */
const PROLOGUE = /^(?:\s*(?:(['"])use strict\1;?|\/\/[^\n]*\n?|\/\*[\s\S]*?\*\/))*/;

/**
 * Node's module wrapper passes `__dirname`/`__filename` as parameters; assigning them at the top of the file (on its
 * first line, so line numbers in stack traces hold) changes what the file sees, nothing else (require resolves from
 * the real path).
 */
function hookCompile(): void {
  if (hooked) return;
  hooked = true;
  const prototype = Module.prototype as unknown as { _compile: Compile };
  const original = prototype._compile;
  prototype._compile = function compileWhereBuilt(this: Module, content: string, filename: string) {
    const location = compiledLocation(filename);
    if (!location) return original.call(this, content, filename);
    const prologue = PROLOGUE.exec(content)?.[0] ?? '';
    const assign = `__dirname=${JSON.stringify(location.dirname)};__filename=${JSON.stringify(location.filename)};`;
    return original.call(this, `${prologue}${assign}${content.slice(prologue.length)}`, filename);
  };
}
