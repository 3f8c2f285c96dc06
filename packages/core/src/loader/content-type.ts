/**
 * Builds a registered content type or component from a raw schema (an app's
 * `schema.json`, or a plugin's `contentTypes.<name>.schema`): checks its
 * shape and fills Strapi v4's defaults and descriptive fields (as Strapi's
 * `createContentType` does): `kind` (collection type), `collectionName`
 * (an API's singular name, `<plugin>_<singular name>` for a plugin), `uid`,
 * `modelType`, `modelName`, `globalId`, and `apiName` or `plugin`. App and
 * plugin types share this, so they are validated and stored alike.
 */
import type { Component, ComponentSchema, ContentType, ContentTypeSchema } from '@tessera/database';
import { validateComponentShape, validateContentTypeShape } from './validate-schema';

/** `warn`: misspelt keys are reported there, not fatal (a plugin's schema: validate-schema.ts `ShapeOptions`). */
export function buildContentType(raw: unknown, uid: string, namespace: string, source: string, warn?: (message: string) => void): ContentType {
  const plugin = uid.startsWith('plugin::') ? namespace : undefined;
  validateContentTypeShape(raw, source, { plugin: plugin !== undefined, warn });
  const schema = copyPlain(raw) as ContentTypeSchema & { globalId?: string };
  const singular = schema.info.singularName;
  const contentType: ContentType = {
    ...schema,
    kind: schema.kind ?? 'collectionType',
    collectionName: schema.collectionName ?? (plugin ? `${plugin}_${singular}`.toLowerCase() : singular),
    options: schema.options ?? {},
    pluginOptions: schema.pluginOptions ?? {},
    uid,
    namespace,
    source,
    schemaAttributes: Object.keys(schema.attributes),
    modelType: 'contentType',
    modelName: singular,
    globalId: schema.globalId ?? pascalCase(plugin ? `${plugin}-${singular}` : singular),
    ...(plugin ? { plugin } : { apiName: uid.slice('api::'.length).split('.')[0] }),
  };
  attachWrittenSchema(contentType, raw as ContentTypeSchema);
  return contentType;
}

/**
 * Strapi's `__schema__`: the schema as written (`written`, else the type's own fields), a copy apart from the type.
 * Its content-type builder reads it, plugins edit it beside `attributes` in register (strapi-plugin-soft-delete)
 * and read its `pluginOptions` on every type (@strapi/plugin-seo), so every registered type has one, the kernel's
 * and the admin's too. Hidden from key walks, as it is no part of the type Tessera serves.
 */
export function attachWrittenSchema(contentType: ContentType, written: ContentTypeSchema = contentType): void {
  const { collectionName, info, options, pluginOptions, attributes } = copyPlain(written);
  const schema = { collectionName, info, options, pluginOptions, attributes, kind: contentType.kind };
  Object.defineProperty(contentType, '__schema__', { value: schema, enumerable: false, writable: true, configurable: true });
}

export function buildComponent(raw: unknown, category: string, name: string, source: string, warn?: (message: string) => void): Component {
  validateComponentShape(raw, source, { warn });
  const schema = copyPlain(raw) as ComponentSchema;
  return {
    ...schema,
    collectionName: schema.collectionName ?? `components_${category}_${name.replace(/-/g, '_')}s`,
    info: schema.info ?? { displayName: name },
    uid: `${category}.${name}`,
    category,
    source,
  };
}

/**
 * A copy of a schema's plain objects and arrays (other values, such as functions, are shared), as Strapi's
 * `createContentType` clones its definition. Plugins edit registered types in place (strapi-plugin-sitemap adds
 * `sitemap_exclude` to every type's attributes): the edit must reach this app's type, never the module the
 * schema came from, which every later app in the process would read. The kernel's own types are registered
 * through it too.
 */
export function copyPlain<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyPlain) as T;
  if (typeof value !== 'object' || value === null) return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyPlain(item)])) as T;
}

/** lodash's `upperFirst(camelCase(x))` for the kebab-case names schemas use: `users-permissions-user` → `UsersPermissionsUser`. */
function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
}
