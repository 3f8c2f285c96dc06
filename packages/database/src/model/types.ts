/**
 * The content model as written in Strapi v4 `schema.json` and component files.
 * These are the shapes after loading; `validate-schema.ts` in core checks raw
 * files against them.
 */

export const SCALAR_TYPES = [
  'string',
  'text',
  'richtext',
  'email',
  'password',
  'uid',
  'enumeration',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'date',
  'time',
  'datetime',
  'timestamp',
  'boolean',
  'json',
] as const;

export type ScalarType = (typeof SCALAR_TYPES)[number];

export const RELATION_KINDS = [
  'oneToOne',
  'oneToMany',
  'manyToOne',
  'manyToMany',
  'oneWay',
  'manyWay',
  'morphToOne',
  'morphToMany',
  'morphOne',
  'morphMany',
] as const;

export type RelationKind = (typeof RELATION_KINDS)[number];

interface AttributeCommon {
  required?: boolean;
  private?: boolean;
  configurable?: boolean;
  writable?: boolean;
  visible?: boolean;
  pluginOptions?: Record<string, unknown>;
}

export interface ScalarAttribute extends AttributeCommon {
  type: ScalarType;
  unique?: boolean;
  default?: unknown;
  min?: number | string;
  max?: number | string;
  minLength?: number;
  maxLength?: number;
  regex?: string;
  enum?: string[];
  targetField?: string;
  /** Tessera: a b-tree index on this column (search-options.ts). */
  index?: boolean;
  /** Strapi's opt-out from `_q` search (search-filter.ts). */
  searchable?: boolean;
}

export interface RelationAttribute extends AttributeCommon {
  type: 'relation';
  relation: RelationKind;
  target?: string;
  inversedBy?: string;
  mappedBy?: string;
  morphBy?: string;
}

export interface MediaAttribute extends AttributeCommon {
  type: 'media';
  multiple?: boolean;
  allowedTypes?: string[];
}

export interface ComponentAttribute extends AttributeCommon {
  type: 'component';
  component: string;
  repeatable?: boolean;
  min?: number;
  max?: number;
}

export interface DynamicZoneAttribute extends AttributeCommon {
  type: 'dynamiczone';
  components: string[];
  min?: number;
  max?: number;
}

export type Attribute = ScalarAttribute | RelationAttribute | MediaAttribute | ComponentAttribute | DynamicZoneAttribute;

export type ContentTypeKind = 'collectionType' | 'singleType';

export interface ContentTypeInfo {
  singularName: string;
  pluralName: string;
  displayName: string;
  name?: string;
  description?: string;
}

export interface ContentTypeSchema {
  kind: ContentTypeKind;
  collectionName: string;
  info: ContentTypeInfo;
  options?: { draftAndPublish?: boolean; [key: string]: unknown };
  pluginOptions?: Record<string, unknown>;
  attributes: Record<string, Attribute>;
  /**
   * Strapi's view settings in a schema: attributes the content manager hides from its layouts
   * (users-permissions' `resetPasswordToken`, …), as Strapi's own types declare them.
   */
  config?: { attributes?: Record<string, { hidden?: boolean }> };
}

/** A content type as registered: its schema plus where it lives. */
export interface ContentType extends ContentTypeSchema {
  uid: string;
  /** `api` for `api::x.y`, the plugin name for `plugin::x.y`. */
  namespace: string;
  /** File it was loaded from, for error messages. */
  source?: string;
  /**
   * The attribute names its schema declared. Attributes added later (a
   * plugin's `register`, e.g. i18n's `locale`) come after the timestamps in
   * responses, where Strapi v4 lists them.
   */
  schemaAttributes?: string[];
  /**
   * Extra (non-unique) indexes, by attribute names, that schema sync creates
   * when missing — on Strapi-made tables too. Plugins declare them for what
   * they filter every read on (i18n: `locale`).
   */
  indexes?: Array<{ attributes: string[] }>;
  /** What Strapi v4 puts on a registered content type, for Strapi code that reads it (`strapi.contentTypes[uid].modelName`). */
  modelType?: 'contentType';
  /** `info.singularName`. */
  modelName?: string;
  /** `Article`, `UsersPermissionsUser`: the schema's own `globalId`, or Strapi's derivation. */
  globalId?: string;
  /** `article` for `api::article.article`. */
  apiName?: string;
  /** `users-permissions` for `plugin::users-permissions.user`. */
  plugin?: string;

  /**
   * A table of Strapi's own that is no content type (the core store): only the declared columns, no timestamps
   * or authorship columns, so a Strapi-made database's table is used as it is.
   */
  bareTable?: boolean;
}

export interface ComponentSchema {
  collectionName: string;
  info: { displayName: string; icon?: string; description?: string };
  options?: Record<string, unknown>;
  attributes: Record<string, Attribute>;
}

export interface Component extends ComponentSchema {
  /** `category.name`, e.g. `shared.seo`. */
  uid: string;
  category: string;
  source?: string;
}

export function isScalarAttribute(attribute: Attribute): attribute is ScalarAttribute {
  return (SCALAR_TYPES as readonly string[]).includes(attribute.type);
}
