/**
 * Which content types get their core router without asking for it. As in
 * Strapi v4, an API that has routes files is served exactly what they export:
 * a file exporting `createCoreRouter(...)` mounts the core routes itself, and
 * a custom-only file (`routes/01-custom.ts`) leaves them unmounted — it may
 * guard `find` with a policy, and the unguarded defaults must not appear
 * beside it. An API with no routes files gets the core router of each of its
 * content types, so a schema alone serves its REST API.
 */
import type { App } from '@tessera/core';

/** `api::` content types of APIs without any routes file. */
export function typesNeedingDefaultRouter(app: App): string[] {
  const routedApis = new Set(app.routes.keys().filter((key) => key.startsWith('api::')).map(apiOf));
  return app.contentTypes
    .values()
    .filter((contentType) => contentType.namespace === 'api' && !routedApis.has(apiOf(contentType.uid)))
    .map((contentType) => contentType.uid);
}

/** `api::article.article` and the router key `api::article.01-custom` → `article`. */
function apiOf(uid: string): string {
  return uid.slice('api::'.length).split('.')[0];
}
