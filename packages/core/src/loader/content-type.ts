/**
 * Builds a registered content type or component from a raw schema (an app's
 * `schema.json`, or a plugin's `contentTypes.<name>.schema`): checks its
 * shape and fills Strapi v4's defaults. App and plugin types share this, so
 * they are validated and stored alike.
 */
import type { Component, ComponentSchema, ContentType, ContentTypeSchema } from '@tessera/database';
import { validateComponentShape, validateContentTypeShape } from './validate-schema';

export function buildContentType(raw: unknown, uid: string, namespace: string, source: string): ContentType {
  validateContentTypeShape(raw, source);
  const schema = raw as ContentTypeSchema;
  return {
    ...schema,
    collectionName: schema.collectionName ?? schema.info.pluralName.replace(/-/g, '_'),
    options: schema.options ?? {},
    pluginOptions: schema.pluginOptions ?? {},
    uid,
    namespace,
    source,
    schemaAttributes: Object.keys(schema.attributes),
  };
}

export function buildComponent(raw: unknown, category: string, name: string, source: string): Component {
  validateComponentShape(raw, source);
  const schema = raw as ComponentSchema;
  return {
    ...schema,
    collectionName: schema.collectionName ?? `components_${category}_${name.replace(/-/g, '_')}s`,
    info: schema.info ?? { displayName: name },
    uid: `${category}.${name}`,
    category,
    source,
  };
}
