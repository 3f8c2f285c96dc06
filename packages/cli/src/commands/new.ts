/**
 * `tessera new <dir>`: copies templates/app into a new folder, fills in the
 * package name and dependency specs, and writes a `.env` with fresh secrets.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parse, UsageError } from '../args';
import { copyTemplate, TEMPLATES_DIR } from '../templates';
import { note, type Command } from './command';
import { tesseraDependencies } from './new-dependencies';

const TEMPLATE_DIR = path.join(TEMPLATES_DIR, 'app');
/** The reference blog `--example` copies: it exists in a source checkout (the CLI is not published yet). */
const EXAMPLE_APP = path.resolve(__dirname, '../../../../../apps/example');
/** What `--example` takes from the example app: its model, its first-run content and who may read it. */
const EXAMPLE_PARTS = ['src', 'config/permissions.ts'];

export const newApp: Command = {
  name: 'new',
  summary: 'scaffold a new app in <dir> (config, an example content type, package.json, .env)',
  usage: `Usage: tessera new <dir> [--example]

Creates <dir> with a runnable app: config/, src/ with an example content type
(api::post.post, public find/findOne), package.json (develop/start/api-token
scripts) and a .env holding fresh secrets. <dir> must not exist or be empty.

--example  the reference blog instead of the post type: apps/example's content
           types, components and first-run sample content (SEED=false skips it)

Then: cd <dir> && npm install && npm run develop`,
  async run(args) {
    const parsed = parse(args, { example: { type: 'boolean' } }, 1);
    const dir = parsed.positionals[0];
    if (!dir) throw new UsageError('new needs the folder to create, e.g. tessera new my-app');
    const example = parsed.options.example === true;
    if (example && !fs.existsSync(EXAMPLE_APP)) {
      note('tessera new: --example copies apps/example, which only a Tessera source checkout has');
      return 1;
    }
    const target = path.resolve(dir);
    const problem = targetProblem(target);
    if (problem) {
      note(`tessera new: ${problem}`);
      return 1;
    }
    scaffold(target);
    if (example) useExample(target);
    note(`Created a Tessera app in ${target}.\n\nNext:\n  cd ${shortPath(target)}\n  npm install\n  npm run develop`);
    return 0;
  },
};

/** Relative when the app is below the current folder, absolute otherwise. */
function shortPath(target: string): string {
  const relative = path.relative(process.cwd(), target);
  const shown = relative.startsWith('..') || path.isAbsolute(relative) ? target : relative;
  return /\s/.test(shown) ? `"${shown}"` : shown;
}

function targetProblem(target: string): string | undefined {
  if (!fs.existsSync(target)) return undefined;
  if (!fs.statSync(target).isDirectory()) return `${target} exists and is not a folder`;
  if (fs.readdirSync(target).length > 0) return `${target} exists and is not empty: choose a new folder name`;
  return undefined;
}

export function scaffold(target: string): void {
  copyTemplate(TEMPLATE_DIR, target, { name: packageName(path.basename(target)) });
  const manifestFile = path.join(target, 'package.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
  manifest.dependencies = tesseraDependencies(target, path.resolve(__dirname, '../../..'));
  fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(path.join(target, '.env'), dotEnv(), { mode: 0o600 });
}

/** Replaces the template's post type with the example blog (content types, components, seed, permissions). */
function useExample(target: string): void {
  fs.rmSync(path.join(target, 'src'), { recursive: true, force: true });
  for (const part of EXAMPLE_PARTS) fs.cpSync(path.join(EXAMPLE_APP, part), path.join(target, part), { recursive: true });
}

/** A valid npm package name from a folder name. */
export function packageName(folder: string): string {
  // `(?<!-)`: a trailing run is matched from its first dash only, so the scan stays linear (no ReDoS).
  const name = folder.toLowerCase().replace(/[^a-z0-9._~-]+/g, '-').replace(/^[._-]+|(?<!-)-+$/g, '');
  return name || 'tessera-app';
}

function dotEnv(): string {
  const secret = () => crypto.randomBytes(16).toString('base64');
  return [
    'HOST=0.0.0.0',
    'PORT=1337',
    `APP_KEYS=${[secret(), secret(), secret(), secret()].join(',')}`,
    `API_TOKEN_SALT=${secret()}`,
    '',
  ].join('\n');
}
