/**
 * Runs the app in this process until SIGINT/SIGTERM (or, for a develop
 * child, until its parent goes away), then destroys it gracefully:
 * HTTP first, then the database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createApp, describeError, reportBootError } from './app';
import { DEFAULT_TYPES_DIR, writeTypes } from './typegen/write-types';
import { remedyFor, type BootFailure, type ReloadRequest } from './develop/remedy';
import { limitHeapGrowth } from './heap-growth';

export type Mode = 'development' | 'production';

/** Resolves with the exit code once the app has stopped (or failed to boot). */
export async function serve(mode: Mode): Promise<number> {
  process.env.NODE_ENV = mode;
  limitHeapGrowth();
  // Under `tessera develop`, strapi.reload() asks the supervisor for a restart (develop/remedy.ts).
  const send = mode === 'development' ? process.send?.bind(process) : undefined;
  const app = await createApp(process.cwd(), send ? (reason) => send({ type: 'tessera:reload', reason } satisfies ReloadRequest) : undefined);
  return new Promise((resolve) => {
    let stopping = false;
    const booting = app
      .load()
      .then(() => {
        // As `strapi develop` does for a TypeScript app: its types follow the schemas on every (re)start.
        if (mode === 'development' && fs.existsSync(path.join(app.dir, 'tsconfig.json'))) {
          const written = writeTypes(app, path.join(app.dir, DEFAULT_TYPES_DIR));
          if (written.length > 0) app.log.info(`types: wrote ${written.map((name) => path.join(DEFAULT_TYPES_DIR, name)).join(', ')}`);
        }
        return app.start();
      })
      .then(
        () => true,
        (error: unknown) => {
          reportBootError(error, app.dir);
          // Under `tessera develop`, the supervisor says what to change (develop/remedy.ts).
          if (process.send) process.send({ type: 'tessera:boot-failed', remedy: remedyFor(error) } satisfies BootFailure);
          return false;
        },
      );
    // A signal during boot waits for the boot to settle, so destroy never races load.
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      await booting;
      try {
        await app.destroy();
        resolve(0);
      } catch (error) {
        process.stderr.write(`Tessera could not stop cleanly: ${describeError(error, app.dir)}\n`);
        resolve(1);
      }
    };
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop());
    if (process.send) process.on('disconnect', () => void stop());
    void booting.then(async (booted) => {
      if (booted || stopping) return;
      await app.destroy().catch(() => undefined);
      resolve(1);
    });
  });
}
