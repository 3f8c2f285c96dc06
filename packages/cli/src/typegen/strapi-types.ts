/**
 * `types/generated/contentTypes.d.ts` and `components.d.ts` in Strapi v4's
 * format (what `strapi ts:generate-types` writes): one interface per content
 * type and component, then the `@strapi/types` registries they fill. Apps
 * written for Strapi compile against them unchanged, and Tessera's entity
 * service reads the same registries (core `typings/`). A pure function of
 * the loaded model.
 */
import type { Attribute, Component, ContentType } from '@tessera/core';
import { Keyword, layoutIntersection, layoutObject, quote, sortedEntries, type Literal, type TypeRef } from './layout';

/** What Strapi's loader adds to every content type before its generator runs. */
const TIMESTAMPS: Record<string, Attribute> = { createdAt: { type: 'datetime' }, updatedAt: { type: 'datetime' } };
const ADMIN_USER = 'admin::user';

const TYPE_NAMES: Record<string, string> = {
  string: 'String', text: 'Text', richtext: 'RichText', email: 'Email', password: 'Password', date: 'Date', time: 'Time',
  datetime: 'DateTime', timestamp: 'Timestamp', integer: 'Integer', biginteger: 'BigInteger', float: 'Float',
  decimal: 'Decimal', boolean: 'Boolean', json: 'JSON', blocks: 'Blocks',
};

export interface GeneratedTypes {
  contentTypes: string;
  components: string;
}

export function generateStrapiTypes(contentTypes: ContentType[], components: Component[]): GeneratedTypes {
  const typeDefinitions = [...contentTypes].sort(byUid).map((contentType) => ({
    uid: contentType.uid,
    name: interfaceName(contentType.uid),
    body: schemaInterface(contentType.uid, contentType.kind === 'singleType' ? 'Schema.SingleType' : 'Schema.CollectionType', {
      collectionName: contentType.collectionName,
      info: contentType.info as unknown as Record<string, Literal>,
      options: contentType.options as Record<string, Literal> | undefined,
      pluginOptions: contentType.pluginOptions as Record<string, Literal> | undefined,
      attributes: contentTypeAttributes(contentType),
    }),
  }));
  const componentDefinitions = [...components].sort(byUid).map((component) => ({
    uid: component.uid,
    name: interfaceName(component.uid),
    body: schemaInterface(component.uid, 'Schema.Component', {
      collectionName: component.collectionName,
      info: component.info as unknown as Record<string, Literal>,
      options: component.options as Record<string, Literal> | undefined,
      attributes: component.attributes,
    }),
  }));
  return { contentTypes: file(typeDefinitions, 'ContentTypes'), components: file(componentDefinitions, 'Components') };
}

function byUid(a: { uid: string }, b: { uid: string }): number {
  return a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0;
}

function file(definitions: Array<{ uid: string; name: string; body: string }>, registry: string): string {
  // A file without an import or export is a script, where `declare module` *replaces* @strapi/types instead of
  // augmenting it (every uid, filter and value then types as unknown): an app without components needs `export {}`.
  const head = definitions.length > 0 ? "import type { Attribute, Schema } from '@strapi/strapi';\n\n" : 'export {};\n\n';
  const body = definitions.map((definition) => `${definition.body}\n`).join('\n');
  const entries = definitions.map((definition) => `      ${quote(definition.uid)}: ${definition.name};`).join('\n');
  const registryBlock = definitions.length > 0 ? `    export interface ${registry} {\n${entries}\n    }\n` : '';
  return `${head}${body}${body ? '\n' : ''}declare module '@strapi/types' {\n  export module Shared {\n${registryBlock}  }\n}\n`;
}

/** Strapi's rule: `api::article.article` → `ApiArticleArticle`, `plugin::i18n.locale` → `PluginI18NLocale` (lodash camelCase). */
export function interfaceName(uid: string): string {
  const words = uid.replace(/:./, ' ').match(/[A-Z]{2,}(?=[A-Z][a-z]|[^A-Za-z]|$)|[A-Z]?[a-z]+|[A-Z]+|\d+/g) ?? [];
  return words.map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase()).join('');
}

interface SchemaParts {
  collectionName?: string;
  info?: Record<string, Literal>;
  options?: Record<string, Literal>;
  pluginOptions?: Record<string, Literal>;
  attributes: Record<string, Attribute>;
}

function schemaInterface(uid: string, parent: string, parts: SchemaParts): string {
  const name = interfaceName(uid);
  const header = `export interface ${name} extends ${parent} {`;
  const lines = [header.length <= 80 ? header : `export interface ${name}\n  extends ${parent} {`];
  if (parts.collectionName) lines.push(`  collectionName: ${quote(parts.collectionName)};`);
  for (const key of ['info', 'options', 'pluginOptions'] as const) {
    const value = parts[key];
    if (value && Object.keys(value).length > 0) lines.push(`  ${key}: ${layoutObject(value, 2)};`);
  }
  const attributes = sortedEntries(parts.attributes).map(([attributeName, attribute]) => {
    const head = `    ${attributeName}: `;
    return `${head}${layoutIntersection(attributeType(uid, attribute), 4, head.length)};`;
  });
  lines.push(attributes.length > 0 ? `  attributes: {\n${attributes.join('\n')}\n  };` : '  attributes: {};');
  lines.push('}');
  return lines.join('\n');
}

/** The schema's attributes plus what Strapi's loader adds: timestamps, publishedAt, createdBy/updatedBy. */
function contentTypeAttributes(contentType: ContentType): Record<string, Attribute> {
  const attributes: Record<string, Attribute> = { ...contentType.attributes, ...TIMESTAMPS };
  if (contentType.options?.draftAndPublish) attributes.publishedAt = { type: 'datetime' };
  for (const name of ['createdBy', 'updatedBy']) {
    attributes[name] = { type: 'relation', relation: 'oneToOne', target: ADMIN_USER, private: true, configurable: false, writable: false, visible: false, useJoinTable: false } as Attribute;
  }
  return attributes;
}

/** The base type and its modifiers, in the order Strapi's generator writes them. */
function attributeType(uid: string, attribute: Attribute): TypeRef[] {
  const refs = [baseType(uid, attribute)];
  const options = attribute as Attribute & Record<string, unknown>;
  if (options.required) refs.push({ name: 'Attribute.Required' });
  if (options.private) refs.push({ name: 'Attribute.Private' });
  if (options.unique) refs.push({ name: 'Attribute.Unique' });
  if (options.configurable) refs.push({ name: 'Attribute.Configurable' });
  if (typeof options.customField === 'string') {
    const args: Array<Literal | Keyword> = [options.customField];
    if (options.options !== undefined) args.push(options.options as Literal);
    refs.push({ name: 'Attribute.CustomField', args });
  }
  if (options.pluginOptions && Object.keys(options.pluginOptions).length > 0) refs.push({ name: 'Attribute.SetPluginOptions', args: [options.pluginOptions as Literal] });
  if (options.min != null || options.max != null) {
    const bounds: Record<string, Literal> = {};
    if (options.min !== undefined) bounds.min = options.min as Literal;
    if (options.max !== undefined) bounds.max = options.max as Literal;
    const numeric = typeof (options.min ?? options.max) === 'number';
    refs.push({ name: 'Attribute.SetMinMax', args: [bounds, new Keyword(numeric ? 'number' : 'string')] });
  }
  if (options.minLength != null || options.maxLength != null) {
    const bounds: Record<string, Literal> = {};
    if (options.minLength !== undefined) bounds.minLength = options.minLength as Literal;
    if (options.maxLength !== undefined) bounds.maxLength = options.maxLength as Literal;
    refs.push({ name: 'Attribute.SetMinMaxLength', args: [bounds] });
  }
  if (options.default != null) refs.push({ name: 'Attribute.DefaultTo', args: [options.default as Literal] });
  return refs;
}

function baseType(uid: string, attribute: Attribute): TypeRef {
  switch (attribute.type) {
    case 'relation':
      return attribute.relation.toLowerCase().includes('morph') && !attribute.target
        ? { name: 'Attribute.Relation', args: [uid, attribute.relation] }
        : { name: 'Attribute.Relation', args: [uid, attribute.relation, attribute.target ?? ''] };
    case 'component':
      return { name: 'Attribute.Component', args: attribute.repeatable ? [attribute.component, new Keyword('true')] : [attribute.component] };
    case 'dynamiczone':
      return { name: 'Attribute.DynamicZone', args: [attribute.components] };
    case 'media': {
      const args: Array<Literal | Keyword> = [];
      if (attribute.allowedTypes || attribute.multiple) args.push(attribute.allowedTypes ? unionOf(attribute.allowedTypes) : new Keyword('undefined'));
      if (attribute.multiple) args.push(new Keyword('true'));
      return { name: 'Attribute.Media', args };
    }
    case 'enumeration':
      return { name: 'Attribute.Enumeration', args: [attribute.enum ?? []] };
    case 'uid': {
      const options = (attribute as { options?: Literal }).options;
      if (attribute.targetField === undefined && options === undefined) return { name: 'Attribute.UID' };
      const args: Array<Literal | Keyword> = attribute.targetField === undefined ? [new Keyword('undefined'), new Keyword('undefined')] : [uid, attribute.targetField];
      if (options !== undefined) args.push(options);
      return { name: 'Attribute.UID', args };
    }
    default:
      return { name: `Attribute.${TYPE_NAMES[attribute.type] ?? 'JSON'}` };
  }
}

/** `'images' | 'files'`: allowed media types are a union of literals. */
function unionOf(values: string[]): Keyword {
  return new Keyword(values.map(quote).join(' | '));
}
