/**
 * The uid registries that generated type files fill by declaration merging:
 * Strapi v4's `types/generated/*.d.ts` end with
 * `declare module '@strapi/types' { export module Shared { export interface ContentTypes { … } } }`,
 * and a Tessera app's tsconfig maps `@strapi/types` to this file, so the same
 * files type Tessera's entity service, `db.query` and `strapi.service`.
 * Empty until an app generates its types: every uid is then a plain string.
 */

// eslint-disable-next-line @typescript-eslint/no-namespace
export namespace Shared {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface
  export interface ContentTypes {}
  // eslint-disable-next-line @typescript-eslint/no-empty-interface
  export interface Components {}
}

// eslint-disable-next-line @typescript-eslint/no-namespace
export namespace Common {
  /** True once an app's generated types are in the compilation. */
  export type HasRegistry = [keyof Shared.ContentTypes] extends [never] ? false : true;

  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace UID {
    /** A content type's uid: any string until types are generated, then only the app's uids. */
    export type ContentType = HasRegistry extends true ? keyof Shared.ContentTypes & string : string;
    export type Component = [keyof Shared.Components] extends [never] ? string : keyof Shared.Components & string;
    export type Schema = ContentType | Component;
  }
}
