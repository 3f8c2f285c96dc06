/**
 * What `@strapi/strapi` is to a TypeScript app on Tessera: the factories app
 * code imports at run time (the module loader maps `@strapi/strapi` to this
 * package) and the types Strapi v4's generated files and app code import
 * (`Attribute`, `Schema`, `Strapi`). A new app's tsconfig.json maps
 * `@strapi/strapi` here (`paths`), so such code type-checks unchanged.
 */
import type { App } from '@tessera/core';

export * from './index';
export type { Attribute, Schema, Shared, Common } from '@tessera/core/dist/src/typings/strapi';

/** `import type { Strapi } from '@strapi/strapi'`: the app object lifecycle functions receive. */
export type Strapi = App;
