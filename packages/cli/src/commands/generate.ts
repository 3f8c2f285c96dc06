/**
 * `tessera generate api|plugin <name>`: writes a working skeleton into the
 * current app from packages/cli/templates. Nothing is overwritten: an
 * existing API or plugin folder is refused before anything is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { optionalString, parse, UsageError } from '../args';
import { requireAppDir } from '../app';
import { copyTemplate, TEMPLATES_DIR } from '../templates';
import { note, type Command } from './command';

const USAGE = `Usage:
  tessera generate api <name> [--plural <name>]
  tessera generate plugin <name>

api     src/api/<name>/: a collection type api::<name>.<name> (title, body)
        with its core router, controller and service, served at /api/<plural>.
plugin  src/plugins/<name>/: a plugin in Strapi v4's server format (config
        with a default and a validator, a content type, a service, a
        controller and content-API routes under /api/<name>/), enabled in
        config/plugins.ts.

<name> is kebab-case (letters, digits, dashes), e.g. blog-post.`;

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export const generate: Command = {
  name: 'generate',
  summary: 'add an API (content type, routes, controller, service) or a plugin skeleton to this app',
  usage: USAGE,
  async run(args) {
    const [kind, ...rest] = args;
    if (kind === 'api') {
      const parsed = parse(rest, { plural: { type: 'string' } }, 1);
      const name = nameArgument(parsed.positionals[0], 'api');
      const plural = optionalString(parsed, 'plural') ?? `${name}s`;
      if (!NAME.test(plural) || plural === name) throw new UsageError(`--plural must be kebab-case and differ from the name (got "${plural}")`);
      requireAppDir();
      return generateApi(process.cwd(), name, plural);
    }
    if (kind === 'plugin') {
      const name = nameArgument(parse(rest, {}, 1).positionals[0], 'plugin');
      requireAppDir();
      return generatePlugin(process.cwd(), name);
    }
    throw new UsageError(kind ? `unknown generate command "${kind}" (api or plugin)` : 'generate needs what to generate: api or plugin');
  },
};

function nameArgument(name: string | undefined, kind: string): string {
  if (!name) throw new UsageError(`generate ${kind} needs a name, e.g. tessera generate ${kind} blog-post`);
  if (!NAME.test(name)) throw new UsageError(`the name must be kebab-case: lower-case letters, digits and dashes (got "${name}")`);
  return name;
}

export function generateApi(appDir: string, name: string, plural: string): number {
  const target = path.join(appDir, 'src/api', name);
  if (fs.existsSync(target)) return refuse(`src/api/${name} exists already`);
  const values = { name, pluralName: plural, collectionName: plural.replace(/-/g, '_'), displayName: displayName(name) };
  const written = copyTemplate(path.join(TEMPLATES_DIR, 'api/{{name}}'), target, values, `src/api/${name}`);
  note(`Created ${written.length} files:\n${written.map((file) => `  ${file}`).join('\n')}`);
  note(
    `\napi::${name}.${name} is served at /api/${plural} once the app restarts (npm run develop restarts by itself).` +
      `\nTo let anyone read it, add 'api::${name}.${name}.find' and 'api::${name}.${name}.findOne' to config/permissions.ts.`,
  );
  return 0;
}

export function generatePlugin(appDir: string, name: string): number {
  const target = path.join(appDir, 'src/plugins', name);
  if (fs.existsSync(target)) return refuse(`src/plugins/${name} exists already`);
  const values = { name, tableName: name.replace(/-/g, '_'), displayName: displayName(name) };
  const written = copyTemplate(path.join(TEMPLATES_DIR, 'plugin'), target, values, `src/plugins/${name}`);
  note(`Created ${written.length} files:\n${written.map((file) => `  ${file}`).join('\n')}`);
  note(`\n${enablePlugin(appDir, name)}`);
  note(`Its routes answer at /api/${name}/items; grant 'plugin::${name}.item.find' in config/permissions.ts to make them public.`);
  return 0;
}

/** Writes config/plugins.ts when the app has none; otherwise says what to add (a user's file is never rewritten). */
function enablePlugin(appDir: string, name: string): string {
  const setting = `'${name}': { enabled: true, resolve: './src/plugins/${name}', config: { greeting: 'Hello' } }`;
  const existing = ['ts', 'js'].map((extension) => `config/plugins.${extension}`).find((file) => fs.existsSync(path.join(appDir, file)));
  if (existing) return `Enable it in ${existing}:\n  ${setting},`;
  fs.writeFileSync(path.join(appDir, 'config/plugins.ts'), `export default {\n  ${setting},\n};\n`);
  return 'Enabled it in config/plugins.ts (created).';
}

function refuse(problem: string): number {
  note(`tessera generate: ${problem}; nothing was written`);
  return 1;
}

/** `blog-post` → `Blog Post`. */
function displayName(name: string): string {
  return name
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}
