/**
 * JSON Schemas (OpenAPI 3.1's dialect, JSON Schema 2020-12) of what the REST
 * API answers and accepts, from the content model: an entry is
 * `{ id, attributes }`, a populated link `{ data }` (one, many, or a count),
 * a component its fields inline with its id, a dynamic zone a list tagged by
 * `__component`. Attributes are optional (fields and populate choose them)
 * and nothing undeclared may appear.
 */
import { FILE_UID, type Attribute, type Component, type ContentType } from '@tessera/database';

export type JsonSchema = { [key: string]: unknown };

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

/** `Article`, `UsersPermissionsUser`, `ComponentSharedSeo`: one schema name per uid. */
export function schemaName(uid: string, kind: 'contentType' | 'component'): string {
  const words = uid.replace(/^(api|plugin|admin)::/, (_, scope: string) => (scope === 'api' ? '' : `${scope} `)).split(/[^A-Za-z0-9]+/);
  const unique = kind === 'component' ? ['component', ...words] : words.filter((word, index) => index === 0 || word !== words[index - 1]);
  return unique.filter(Boolean).map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

const SCALARS: Record<string, JsonSchema> = {
  integer: { type: 'integer' },
  float: { type: 'number' },
  decimal: { type: 'number' },
  biginteger: { type: 'string', pattern: '^-?[0-9]+$' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  time: { type: 'string' },
  datetime: { type: 'string', format: 'date-time' },
  timestamp: { type: 'string', format: 'date-time' },
  json: {},
  blocks: {},
};

export class ModelSchemas {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly names = new Map<string, string>();

  constructor(
    private readonly contentTypes: ContentType[],
    private readonly components: Component[],
    /** Types a caller may read through populate; links to others are left out. */
    private readonly readable: (uid: string) => boolean,
  ) {
    for (const type of contentTypes) this.names.set(type.uid, schemaName(type.uid, 'contentType'));
    for (const component of components) this.names.set(component.uid, schemaName(component.uid, 'component'));
    this.schemas.Error = errorSchema();
    this.schemas.RelationCount = { type: 'object', required: ['data'], properties: { data: { type: 'object', properties: { attributes: { type: 'object', properties: { count: { type: 'integer' } } } } } } };
    for (const type of contentTypes) this.addContentType(type);
    for (const component of components) this.schemas[this.names.get(component.uid)!] = this.componentSchema(component);
  }

  /** The name of `uid`'s entry schema (`Article` → `ArticleEntry`). */
  entry(uid: string): string {
    return `${this.names.get(uid)}Entry`;
  }

  request(uid: string): string {
    return `${this.names.get(uid)}Request`;
  }

  private addContentType(type: ContentType): void {
    const name = this.names.get(type.uid)!;
    const properties: Record<string, JsonSchema> = {};
    for (const [attributeName, attribute] of Object.entries(type.attributes)) {
      if (attribute.private) continue;
      const schema = this.attributeSchema(attribute);
      if (schema) properties[attributeName] = schema;
    }
    properties.createdAt = SCALARS.datetime!;
    properties.updatedAt = SCALARS.datetime!;
    if (type.options?.draftAndPublish) properties.publishedAt = nullable(SCALARS.datetime!);
    this.schemas[`${name}Entry`] = {
      type: 'object',
      required: ['id', 'attributes'],
      additionalProperties: false,
      properties: { id: { type: 'integer' }, attributes: { type: 'object', additionalProperties: false, properties } },
    };
    this.schemas[`${name}Request`] = {
      type: 'object',
      required: ['data'],
      properties: { data: { type: 'object', properties: this.inputProperties(type.attributes), additionalProperties: true } },
    };
  }

  private componentSchema(component: Component): JsonSchema {
    const properties: Record<string, JsonSchema> = { id: { type: 'integer' } };
    for (const [attributeName, attribute] of Object.entries(component.attributes)) {
      if (attribute.private) continue;
      const schema = this.attributeSchema(attribute);
      if (schema) properties[attributeName] = schema;
    }
    // Closed where it is used (`unevaluatedProperties`), so a dynamic zone's item may add its `__component`.
    return { type: 'object', properties };
  }

  private attributeSchema(attribute: Attribute): JsonSchema | undefined {
    switch (attribute.type) {
      case 'relation': {
        const target = attribute.target;
        if (!target || !this.names.has(target) || !this.readable(target)) return undefined;
        const many = /Many$|manyWay/.test(attribute.relation);
        const entry = ref(this.entry(target));
        return { anyOf: [{ type: 'object', required: ['data'], additionalProperties: false, properties: { data: many ? { type: 'array', items: entry } : nullable(entry) } }, ref('RelationCount')] };
      }
      case 'media': {
        if (!this.names.has(FILE_UID) || !this.readable(FILE_UID)) return undefined;
        const entry = ref(this.entry(FILE_UID));
        return { type: 'object', required: ['data'], additionalProperties: false, properties: { data: attribute.multiple ? nullable({ type: 'array', items: entry }) : nullable(entry) } };
      }
      case 'component': {
        const schema = { ...ref(this.names.get(attribute.component) ?? 'Error'), unevaluatedProperties: false };
        return attribute.repeatable ? { type: 'array', items: schema } : nullable(schema);
      }
      case 'dynamiczone':
        return {
          type: 'array',
          items: {
            anyOf: attribute.components.map((uid) => ({ ...ref(this.names.get(uid)!), properties: { __component: { const: uid } }, required: ['__component'], unevaluatedProperties: false })),
          },
        };
      case 'enumeration':
        return nullable({ type: 'string', enum: attribute.enum ?? [] });
      default:
        return nullable(SCALARS[attribute.type] ?? { type: 'string' });
    }
  }

  /** What a write accepts per attribute: scalars as read; links as ids, lists of ids or connect/disconnect/set. */
  private inputProperties(attributes: Record<string, Attribute>): Record<string, JsonSchema> {
    const properties: Record<string, JsonSchema> = {};
    for (const [name, attribute] of Object.entries(attributes)) {
      if (attribute.type === 'relation' || attribute.type === 'media') properties[name] = { description: 'an id, a list of ids, or { connect, disconnect, set }' };
      else if (attribute.type === 'component' || attribute.type === 'dynamiczone') properties[name] = {};
      else if (!attribute.private || attribute.type === 'password') properties[name] = this.attributeSchema(attribute) ?? {};
    }
    return properties;
  }
}

function errorSchema(): JsonSchema {
  return {
    type: 'object',
    required: ['data', 'error'],
    properties: {
      data: { type: 'null' },
      error: {
        type: 'object',
        required: ['status', 'name', 'message'],
        properties: { status: { type: 'integer' }, name: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } },
      },
    },
  };
}
