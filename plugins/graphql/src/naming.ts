/**
 * GraphQL names as Strapi v4 derives them, so clients written against a
 * Strapi schema keep working: words split like lodash (`i18n-locale` →
 * `I18NLocale`), content types by their singular name (plugin types prefixed
 * with the plugin: `UploadFile`), components as `Component<Category><Name>`.
 */
import type { Component, ContentType } from '@tessera/core';
import type { GraphqlNaming, NamedModel } from './helper-contract';

const WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

export function pascalCase(text: string): string {
  return words(text)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join('');
}

export function camelCase(text: string): string {
  const pascal = pascalCase(text);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** `api::article.article` → its singular name; `plugin::upload.file` → `upload-file`. */
function baseName(contentType: ContentType, which: 'singularName' | 'pluralName'): string {
  const name = contentType.info[which];
  return contentType.uid.startsWith('api::') ? name : `${contentType.namespace}-${name}`;
}

export function typeName(contentType: ContentType): string {
  return pascalCase(baseName(contentType, 'singularName'));
}

export function componentTypeName(component: Component): string {
  return `Component${pascalCase(component.category)}${pascalCase(component.uid.split('.')[1] ?? '')}`;
}

/** `article` / `articles`: the query names. */
export function singularQueryName(contentType: ContentType): string {
  return camelCase(baseName(contentType, 'singularName'));
}

export function pluralQueryName(contentType: ContentType): string {
  return camelCase(baseName(contentType, 'pluralName'));
}

/** `ENUM_ARTICLE_STATUS`; an attribute's own `enumName` wins, as in Strapi. */
export function enumTypeName(ownerTypeName: string, attributeName: string, declared?: unknown): string {
  if (typeof declared === 'string' && declared.length > 0) return declared;
  return `ENUM_${ownerTypeName.toUpperCase()}_${attributeName.toUpperCase()}`;
}

/**
 * An enum value as a GraphQL name: characters outside `[_A-Za-z0-9]` become
 * `_`, and a leading digit gets a `_` in front. The stored value is kept.
 */
export function enumValueName(value: string): string {
  const name = value.replace(/[^_A-Za-z0-9]/g, '_');
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/** `PageContentDynamicZone`: the union of a dynamic zone's components. */
export function dynamicZoneTypeName(ownerTypeName: string, attributeName: string): string {
  return `${ownerTypeName}${pascalCase(attributeName)}DynamicZone`;
}

export const names = {
  entity: (type: string) => `${type}Entity`,
  entityResponse: (type: string) => `${type}EntityResponse`,
  entityResponseCollection: (type: string) => `${type}EntityResponseCollection`,
  relationResponseCollection: (type: string) => `${type}RelationResponseCollection`,
  filters: (type: string) => `${type}FiltersInput`,
  input: (type: string) => `${type}Input`,
};


/**
 * Strapi's `getTypeName`: the plugin's name (if any) and the singular name, each pascal-cased; a component's
 * `Component<Category><Name>`. The same as `typeName` for the app's types, and it also names the schema module a
 * plugin passes as it ships it (strapi-plugin-comments' `comment` schema → `Comment`).
 */
function strapiTypeName(model: NamedModel, plurality: 'singular' | 'plural' = 'singular'): string {
  if (model.modelType === 'component' && model.uid && plurality === 'singular') return componentTypeName(model as Component);
  const name = plurality === 'singular' ? model.info?.singularName : model.info?.pluralName;
  return `${pascalCase(model.plugin ?? '')}${pascalCase(name ?? model.modelName ?? '')}`;
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * `strapi.plugin('graphql').service('utils').naming`: Strapi v4's names for a
 * content type's GraphQL types and operations, for extensions (plugins and
 * apps) that add operations next to the generated ones.
 */
export function namingUtils(): GraphqlNaming {
  const type = strapiTypeName;
  return {
    getScalarFilterInputTypeName: (scalar: string) => `${scalar}FilterInput`,
    getTypeName: (contentType: NamedModel) => type(contentType),
    getEntityName: (contentType: NamedModel) => names.entity(type(contentType)),
    getEntityResponseName: (contentType: NamedModel) => names.entityResponse(type(contentType)),
    getEntityResponseCollectionName: (contentType: NamedModel) => names.entityResponseCollection(type(contentType)),
    getRelationResponseCollectionName: (contentType: NamedModel) => names.relationResponseCollection(type(contentType)),
    getFiltersInputTypeName: (contentType: NamedModel) => names.filters(type(contentType)),
    getContentTypeInputName: (contentType: NamedModel) => names.input(type(contentType)),
    getComponentName: (component: Component) => componentTypeName(component),
    getFindQueryName: (contentType: NamedModel) => lowerFirst(strapiTypeName(contentType, 'plural')),
    getFindOneQueryName: (contentType: NamedModel) => lowerFirst(type(contentType)),
    getCreateMutationTypeName: (contentType: NamedModel) => `create${type(contentType)}`,
    getUpdateMutationTypeName: (contentType: NamedModel) => `update${type(contentType)}`,
    getDeleteMutationTypeName: (contentType: NamedModel) => `delete${type(contentType)}`,
  };
}
