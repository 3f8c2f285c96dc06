/**
 * Whether the Strapi code an app loaded reads `strapi.requestContext`, so the
 * boot turns the store on before the first request (strapi/request-context.ts
 * says why it is otherwise off).
 *
 * Strapi code is the app's own files (src/, config/, local plugins: the app
 * folder outside node_modules) and the files of each installed Strapi plugin
 * package and of each plugin folder `config/plugins` resolves to (outside
 * their own node_modules). Of those, the ones Node has loaded
 * are read once, at boot, and a file that names `requestContext` counts: a
 * plugin that reads it through a variable or a destructuring still names it.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The first loaded Strapi code file under `roots` that names `requestContext`, or undefined. */
export function fileReadingRequestContext(roots: string[]): string | undefined {
  const folders = roots.filter((root) => fs.existsSync(root)).map((root) => fs.realpathSync(root) + path.sep);
  for (const file of Object.keys(require.cache)) {
    const own = folders.some((folder) => file.startsWith(folder) && !file.includes(`${path.sep}node_modules${path.sep}`, folder.length - 1));
    if (own && namesRequestContext(file)) return file;
  }
  return undefined;
}

function namesRequestContext(file: string): boolean {
  try {
    return fs.readFileSync(file, 'utf8').includes('requestContext');
  } catch {
    return false; // a module Node made without a file (a JSON export, a deleted file): it names nothing
  }
}
