/**
 * `tessera run <command> [args…]`: runs a command (a seed script, Jest) in the app folder with the Strapi packages
 * Tessera answers (`@strapi/strapi`, `@strapi/plugin-<name>/strapi-server` and `/strapi-admin` for the plugins it
 * implements, `@strapi/utils` when the app has none) resolvable, so Strapi v4's programmatic API works there as in a
 * Strapi app: `require('@strapi/strapi')({ appDir }).load()`, `.start()`, `.destroy()`, `compile()`, `factories`.
 *
 * Inside Tessera's process its module loader answers those names; a command runs in another process, and Jest
 * resolves with its own resolver. Both fall back to the folders on NODE_PATH, so the command gets a folder of small
 * modules, each re-exporting the kernel's file (written once per set of entry points, under the system's temp
 * folder). A real package installed in the app is found first and used instead, as without Tessera.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requireAppDir } from '../app';
import { note, type Command } from './command';

export const run: Command = {
  name: 'run',
  summary: "run a command (node scripts/seed.js, npx jest) with require('@strapi/strapi') answered by Tessera",
  usage: `Usage: tessera run <command> [args…]

Runs <command> in the app folder with Tessera's @strapi/strapi (and the other
Strapi entry points Tessera answers) on NODE_PATH: seed scripts and Strapi's
documented Jest setup call require('@strapi/strapi')({ appDir, distDir }).load(),
.start(), .destroy() and compile() against Tessera.
  tessera run node scripts/seed.js
  tessera run npx jest --runInBand
The exit code is the command's.`,
  async run(args) {
    if (args.length === 0 || args[0] === '--help') {
      note(this.usage);
      return args.length === 0 ? 1 : 0;
    }
    requireAppDir();
    const { kernelEntryPoints } = await import('@tessera/core');
    const folder = entryPointFolder(kernelEntryPoints());
    const nodePath = [folder, ...(process.env.NODE_PATH ?? '').split(path.delimiter).filter(Boolean)].join(path.delimiter);
    const child = spawn(args[0], args.slice(1), { stdio: 'inherit', env: { ...process.env, NODE_PATH: nodePath } });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    try {
      return await new Promise<number>((resolve) => {
        child.once('error', (error) => {
          note(`tessera run: cannot run ${args[0]}: ${error.message}`);
          resolve(127);
        });
        child.once('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      });
    } finally {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
    }
  },
};

/** The folder of `request → module re-exporting the kernel's file` (`@strapi/strapi/index.js`, `@strapi/plugin-i18n/strapi-server.js`). */
export function entryPointFolder(entries: Record<string, string>): string {
  const key = crypto.createHash('sha256').update(JSON.stringify(Object.entries(entries).sort())).digest('hex').slice(0, 16);
  const folder = path.join(os.tmpdir(), `tessera-strapi-packages-${key}`);
  if (fs.existsSync(path.join(folder, '.complete'))) return folder;
  const staging = `${folder}.${process.pid}`;
  for (const [request, file] of Object.entries(entries)) {
    const parts = request.split('/');
    const packageName = request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    const subpath = request.slice(packageName.length + 1);
    const dir = path.join(staging, packageName);
    fs.mkdirSync(path.dirname(path.join(dir, subpath || 'index')), { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: packageName, private: true, main: 'index.js' }));
    fs.writeFileSync(path.join(dir, `${subpath || 'index'}.js`), `module.exports = require(${JSON.stringify(file)});\n`);
  }
  fs.writeFileSync(path.join(staging, '.complete'), '');
  // Another `tessera run` may have made the same folder meanwhile: keep the first, drop ours.
  try {
    fs.renameSync(staging, folder);
  } catch {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return folder;
}
