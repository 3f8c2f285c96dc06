/**
 * A content type or component as Strapi v4's content-type-builder formats it
 * (its `services/content-types.formatContentType` and
 * `services/components.formatComponent`): the schema's own visible
 * attributes, media and relations written out with their defaults, the
 * type's options and where it may be edited. Build-time sources
 * (gatsby-source-strapi) read this to learn which attributes are media,
 * relations, components and dynamic zones.
 */
import type { Attribute, Component, ContentType } from '@tessera/core';
import { FILE_UID } from '@tessera/database';

export interface FormattedContentType {
  uid: string;
  plugin?: string;
  apiID?: string;
  schema: Record<string, unknown>;
}

export interface FormattedComponent {
  uid: string;
  category: string;
  apiId: string;
  schema: Record<string, unknown>;
}

/** Strapi's `getVisibleAttributes`: not the id, not the timestamps, not what a plugin marked `visible: false` (publishedAt, createdBy, locale, …). */
const HIDDEN = new Set(['id', 'createdAt', 'updatedAt']);

function formatAttributes(attributes: Record<string, Attribute>): Record<string, unknown> {
  const formatted: Record<string, unknown> = {};
  for (const [name, attribute] of Object.entries(attributes)) {
    if (HIDDEN.has(name) || attribute.visible === false) continue;
    formatted[name] = formatAttribute(attribute);
  }
  return formatted;
}

/** Media and relations get Strapi's defaults written out; every other attribute is answered as declared. */
function formatAttribute(attribute: Attribute): unknown {
  const configurable = attribute.configurable === false ? false : undefined;
  if (attribute.type === 'media') {
    return withoutUndefined({
      type: 'media',
      multiple: attribute.multiple === true,
      required: attribute.required === true,
      configurable,
      private: attribute.private === true,
      allowedTypes: attribute.allowedTypes,
      pluginOptions: attribute.pluginOptions,
    });
  }
  if (attribute.type === 'relation') {
    return withoutUndefined({
      ...attribute,
      type: 'relation',
      target: attribute.target,
      targetAttribute: attribute.inversedBy ?? attribute.mappedBy ?? null,
      configurable,
      private: attribute.private === true,
      pluginOptions: attribute.pluginOptions,
    });
  }
  return attribute;
}

/** As JSON answers it: a key Strapi sets to `undefined` is not in its answer. */
function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined));
}

function isVisible(pluginOptions: Record<string, unknown> | undefined): boolean {
  const builder = pluginOptions?.['content-type-builder'];
  const visible = builder !== null && typeof builder === 'object' ? (builder as Record<string, unknown>).visible : undefined;
  return visible === undefined || visible === true;
}

/** Strapi's `getRestrictRelationsTo`: admin users are one-way only; the upload file and hidden types take no new relations. */
function restrictRelationsTo(contentType: ContentType): string[] | null {
  if (contentType.uid === 'admin::user') return ['oneWay', 'manyWay'];
  if (contentType.uid.startsWith('strapi::') || contentType.uid === FILE_UID || !isVisible(contentType.pluginOptions)) return [];
  return null;
}

export function formatContentType(contentType: ContentType): FormattedContentType {
  return {
    uid: contentType.uid,
    ...(contentType.plugin === undefined ? {} : { plugin: contentType.plugin }),
    apiID: contentType.modelName ?? contentType.info.singularName,
    schema: withoutUndefined({
      draftAndPublish: false,
      ...contentType.options,
      displayName: contentType.info.displayName,
      singularName: contentType.info.singularName,
      pluralName: contentType.info.pluralName,
      description: contentType.info.description ?? '',
      pluginOptions: contentType.pluginOptions,
      kind: contentType.kind,
      collectionName: contentType.collectionName,
      attributes: formatAttributes(contentType.attributes),
      visible: isVisible(contentType.pluginOptions),
      restrictRelationsTo: restrictRelationsTo(contentType),
    }),
  };
}

export function formatComponent(component: Component): FormattedComponent {
  return {
    uid: component.uid,
    category: component.category,
    apiId: component.uid.slice(component.category.length + 1),
    schema: withoutUndefined({
      displayName: component.info.displayName,
      description: component.info.description ?? '',
      icon: component.info.icon,
      collectionName: component.collectionName,
      pluginOptions: (component as Component & { pluginOptions?: Record<string, unknown> }).pluginOptions,
      attributes: formatAttributes(component.attributes),
    }),
  };
}
