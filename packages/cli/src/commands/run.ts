/**
 * `tessera run <command> [args…]`: runs a command (a seed script, Jest) in the app folder with `@strapi/strapi`
 * answered by Tessera, so Strapi v4's programmatic API works there as in a Strapi app:
 * `require('@strapi/strapi')({ appDir }).load()`, `.start()`, `.destroy()`, `compile()` and `factories`.
 *
 * A Tessera app does not install `@strapi/strapi`; Node's `require` and Jest's resolver both fall back to the
 * folders on NODE_PATH, so the command gets the folder holding Tessera's stand-in (strapi-packages/) there. A real
 * `@strapi/strapi` installed in the app is found first and used instead, as it would be without Tessera.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { requireAppDir } from '../app';
import { note, type Command } from './command';

/** The folder holding Tessera's `@strapi/strapi` (packages/cli/strapi-packages). */
export const STRAPI_PACKAGES = path.resolve(__dirname, '..', '..', '..', 'strapi-packages');

export const run: Command = {
  name: 'run',
  summary: "run a command (node scripts/seed.js, npx jest) with require('@strapi/strapi') answered by Tessera",
  usage: `Usage: tessera run <command> [args…]

Runs <command> in the app folder with Tessera's @strapi/strapi on NODE_PATH: seed
scripts and Strapi's documented Jest setup call require('@strapi/strapi')({ appDir,
distDir }).load(), .start(), .destroy() and compile() against Tessera.
  tessera run node scripts/seed.js
  tessera run npx jest --runInBand
The exit code is the command's.`,
  async run(args) {
    if (args.length === 0 || args[0] === '--help') {
      note(this.usage);
      return args.length === 0 ? 1 : 0;
    }
    requireAppDir();
    const nodePath = [STRAPI_PACKAGES, ...(process.env.NODE_PATH ?? '').split(path.delimiter).filter(Boolean)].join(path.delimiter);
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
