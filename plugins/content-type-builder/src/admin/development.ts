/**
 * When the builder may write, and the restart after it, as Strapi 4.26.2's: only with `autoReload` on (Strapi's
 * `strapi develop`; Tessera's `tessera develop` turns it on), else its `isDevelopmentMode` middleware refuses
 * with a 403. After a write the app restarts through `strapi.reload()` (the develop supervisor restarts the
 * child; the panel shows "waiting for restart" and polls `/_health` until the new app answers).
 */
import { ForbiddenError } from '@tessera/errors';
import type { App } from '@tessera/core';

export function requireDevelopment(app: App): void {
  // Strapi's message is replaced by its error middleware's "Forbidden" in the answer (recorded on 4.26.2).
  if (app.config.get<boolean>('autoReload') !== true) throw new ForbiddenError('Forbidden');
}

/** Restarts the app once the answer is on its way (Strapi's `setImmediate(() => strapi.reload())`). */
export function restartSoon(app: App): void {
  setImmediate(() => {
    try {
      app.reload();
    } catch (error) {
      // autoReload set by hand outside `tessera develop`: the files are written, the restart is the user's.
      app.log.warn(`content-type-builder: the schema files are written but the app cannot restart itself (${error instanceof Error ? error.message : String(error)}); restart it to load them`);
    }
  });
}
