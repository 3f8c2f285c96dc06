/**
 * The app the CLI runs (the one in the current directory, with the REST
 * plugin) and how a failure to boot is explained to the developer.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { App } from '@tessera/core';

/** A command that needs an app was run elsewhere; the CLI reports it with exit code 1. */
export class NotAnAppError extends Error {
  override readonly name = 'NotAnAppError';
  constructor() {
    super('not a Tessera app (no config/ and src/ here): cd into an app, e.g. apps/example');
  }
}

/**
 * Commands that run an app call this first (after their arguments are
 * checked): elsewhere they would boot an empty app or leave a stray
 * `.tmp/data.db` behind. An app folder holds both config/ and src/.
 */
export function requireAppDir(dir: string = process.cwd()): void {
  const isFolder = (part: string) => fs.statSync(path.join(dir, part), { throwIfNoEntry: false })?.isDirectory() === true;
  if (!isFolder('config') || !isFolder('src')) throw new NotAnAppError();
}

/** Errors whose message alone says what to fix (matched by name: the app may bring its own copy of the classes). */
const SELF_EXPLAINING = new Set(['ConfigurationError', 'ValidationError']);

/**
 * The kernel is loaded on first use, not at CLI start: `--help`, `new` and
 * usage errors then answer in tens of milliseconds instead of half a second.
 */
export async function createApp(dir: string = process.cwd(), restart?: (reason: string) => void): Promise<App> {
  const [{ App: AppClass }, { default: restPlugin }] = await Promise.all([import('@tessera/core'), import('@tessera/plugin-rest')]);
  // Under `tessera develop` (it gives the restart), Strapi's `autoReload` is on: the content-type builder may write.
  return new AppClass({ dir, plugins: [restPlugin], restart, ...(restart ? { config: { autoReload: true } } : {}) });
}

/** One paragraph for stderr: what to fix; a stack only when the error is unexpected. */
export function describeError(error: unknown, dir: string = process.cwd()): string {
  const known = knownProblem(error);
  if (known !== undefined) return relativeTo(known, dir);
  const err = error instanceof Error ? error : new Error(String(error));
  return `${err.message}\n${err.stack ?? ''}`.trimEnd();
}

export function reportBootError(error: unknown, dir: string = process.cwd()): void {
  process.stderr.write(`Tessera could not start: ${describeError(error, dir)}\n`);
}

function knownProblem(error: unknown): string | undefined {
  if (error instanceof Error && SELF_EXPLAINING.has(error.name)) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `${(error as Error).message} (another process uses this port: stop it or set PORT)`;
  if (code === 'EACCES') return `${(error as Error).message} (no permission: choose a port above 1024 with PORT)`;
  return undefined;
}

/** Paths inside the app read better relative to it (the CLI runs from the app folder). */
function relativeTo(message: string, dir: string): string {
  return message.split(`${dir}/`).join('');
}

/**
 * Loads the app quietly (stdout is the command's result: the app's and the
 * user's code's console.log output is sent to stderr meanwhile), runs `work`,
 * and always destroys the app.
 */
export async function withLoadedApp(work: (app: App) => Promise<number>): Promise<number> {
  requireAppDir();
  const quiet = ['silent', 'error'].includes(process.env.TESSERA_LOG_LEVEL ?? '');
  if (!quiet) process.env.TESSERA_LOG_LEVEL = 'warn';
  const restoreConsole = consoleToStderr();
  const app = await createApp();
  try {
    await app.load();
    return await work(app);
  } catch (error) {
    writeError(`Error: ${describeError(error, app.dir)}`);
    return 1;
  } finally {
    await app.destroy().catch((error: unknown) => writeError(`Error while closing the app: ${describeError(error, app.dir)}`));
    restoreConsole();
  }
}

function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = (...parts: unknown[]) => console.error(...parts);
  return () => Object.assign(console, saved);
}

function writeError(message: string): void {
  process.stderr.write(`${message}\n`);
}
