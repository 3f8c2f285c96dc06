/**
 * `tessera ts:generate-types`: Strapi v4's `strapi ts:generate-types`. Loads
 * the app and writes `types/generated/contentTypes.d.ts` and
 * `components.d.ts` in Strapi's format (typegen/strapi-types.ts). A file whose
 * text is unchanged is not rewritten, so a watcher does not loop on it.
 */
import path from 'node:path';
import { optionalString, parse } from '../args';
import { withLoadedApp } from '../app';
import { DEFAULT_TYPES_DIR, writeTypes } from '../typegen/write-types';
import { note, type Command } from './command';

const USAGE = `Usage:
  tessera ts:generate-types [--out-dir <dir>] [--silent]

Writes <out-dir>/contentTypes.d.ts and components.d.ts (default types/generated)
in Strapi v4's format, for every content type and component of this app and
its plugins. With them in the compilation, strapi.entityService, db.query and
their filters, fields and data are typed by uid: a typo is a compile error.
A new app's tsconfig.json already includes them.`;

export const generateTypes: Command = {
  name: 'ts:generate-types',
  summary: "write types/generated/*.d.ts (Strapi v4's format) from this app's content types",
  usage: USAGE,
  async run(args) {
    const parsed = parse(args, { 'out-dir': { type: 'string' }, silent: { type: 'boolean' } });
    const outDir = optionalString(parsed, 'out-dir') ?? DEFAULT_TYPES_DIR;
    const silent = parsed.options.silent === true;
    return withLoadedApp(async (app) => {
      const written = writeTypes(app, path.resolve(app.dir, outDir));
      if (!silent) note(`Types for ${app.contentTypes.keys().length} content types and ${app.components.keys().length} components in ${outDir}${written.length ? ` (written: ${written.join(', ')})` : ' (unchanged)'}.`);
      return 0;
    });
  },
};
