/**
 * `global.strapi`, as Strapi v4 sets it: published plugins and apps read it at
 * module load (`strapi.plugin(…)` in a helper file) and inside services. It is
 * set before any app or plugin module is loaded, and withdrawn when that app is
 * destroyed. Only Strapi code reads it: Tessera's own code is handed the app.
 * With several apps in one process (tests) the last one loaded is the global,
 * as with Strapi.
 */
type WithStrapi = typeof globalThis & { strapi?: object };

export function exposeToStrapiCode(app: object): void {
  (globalThis as WithStrapi).strapi = app;
}

export function withdrawFromStrapiCode(app: object): void {
  const scope = globalThis as WithStrapi;
  if (scope.strapi === app) delete scope.strapi;
}
