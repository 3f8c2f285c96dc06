/**
 * Runs the app in this process until SIGINT/SIGTERM (or, for a develop
 * child, until its parent goes away), then destroys it gracefully:
 * HTTP first, then the database.
 */
import { createApp, describeError, reportBootError } from './app';

export type Mode = 'development' | 'production';

/** Resolves with the exit code once the app has stopped (or failed to boot). */
export async function serve(mode: Mode): Promise<number> {
  process.env.NODE_ENV = mode;
  const app = await createApp();
  return new Promise((resolve) => {
    let stopping = false;
    const booting = app.start().then(
      () => true,
      (error: unknown) => {
        reportBootError(error, app.dir);
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
