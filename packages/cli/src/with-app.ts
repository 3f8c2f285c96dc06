/**
 * For commands that work on an app's data (api-token, webhooks): load the
 * app without listening, run, always destroy it.
 */
import type { App } from '@tessera/core';
import { createApp, describeError, requireAppDir } from './app';
import { note } from './commands/command';

/**
 * Loads the app quietly (stdout is the command's result: the app's and the
 * user's code's console.log output is sent to stderr meanwhile), runs `work`,
 * and always destroys the app.
 */
export async function withApp(work: (app: App) => Promise<number>): Promise<number> {
  requireAppDir();
  const quiet = ['silent', 'error'].includes(process.env.TESSERA_LOG_LEVEL ?? '');
  if (!quiet) process.env.TESSERA_LOG_LEVEL = 'warn';
  const restoreConsole = consoleToStderr();
  const app = await createApp();
  try {
    await app.load();
    return await work(app);
  } catch (error) {
    note(`Error: ${describeError(error, app.dir)}`);
    return 1;
  } finally {
    await app.destroy().catch((error: unknown) => note(`Error while closing the app: ${describeError(error, app.dir)}`));
    restoreConsole();
  }
}

function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = (...parts: unknown[]) => console.error(...parts);
  return () => Object.assign(console, saved);
}
