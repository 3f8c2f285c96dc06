/**
 * The content model as the GraphQL schema sees it, computed once at boot:
 * which content types and components get types, their names, and which
 * attributes each exposes as output, input and filter. Private attributes
 * and passwords are never exposed; the extension service's shadowCRUD
 * switches remove more.
 */
import type { App, Component, ContentType } from '@tessera/core';
import { FILE_UID, type Attribute } from '@tessera/database';
import { componentTypeName, pluralQueryName, singularQueryName, typeName } from './naming';
import type { ExtensionService } from './extension';

export interface GraphqlAttribute {
  name: string;
  attribute: Attribute;
  output: boolean;
  input: boolean;
  filters: boolean;
}

export interface GraphqlModel {
  uid: string;
  kind: 'collectionType' | 'singleType' | 'component';
  typeName: string;
  draftAndPublish: boolean;
  attributes: GraphqlAttribute[];
  /** Content types only. */
  contentType?: ContentType;
  singular?: string;
  plural?: string;
}

export class SchemaModel {
  readonly contentTypes: GraphqlModel[] = [];
  readonly components: GraphqlModel[] = [];
  private readonly byUid = new Map<string, GraphqlModel>();

  constructor(app: App, extension: ExtensionService) {
    for (const contentType of app.contentTypes.values()) {
      if (!isExposed(contentType) || extension.shadowCRUD(contentType.uid).isDisabled()) continue;
      const model: GraphqlModel = {
        uid: contentType.uid,
        kind: contentType.kind,
        typeName: typeName(contentType),
        draftAndPublish: contentType.options?.draftAndPublish === true,
        attributes: attributesOf(contentType.attributes, contentType.uid, extension, 'contentType'),
        contentType,
        singular: singularQueryName(contentType),
        plural: pluralQueryName(contentType),
      };
      this.contentTypes.push(model);
      this.byUid.set(model.uid, model);
    }
    for (const component of app.components.values()) {
      const model: GraphqlModel = {
        uid: component.uid,
        kind: 'component',
        typeName: componentTypeName(component as Component),
        draftAndPublish: false,
        attributes: attributesOf(component.attributes, component.uid, extension, 'component'),
      };
      this.components.push(model);
      this.byUid.set(model.uid, model);
    }
    // Links to types that have no GraphQL type (disabled, admin) cannot be expressed: drop them.
    for (const model of this.all()) model.attributes = model.attributes.filter((entry) => this.linkable(entry.attribute));
  }

  all(): GraphqlModel[] {
    return [...this.contentTypes, ...this.components];
  }

  get(uid: string): GraphqlModel | undefined {
    return this.byUid.get(uid);
  }

  require(uid: string): GraphqlModel {
    const model = this.byUid.get(uid);
    if (!model) throw new Error(`graphql: no type for ${uid}`);
    return model;
  }

  private linkable(attribute: Attribute): boolean {
    if (attribute.type === 'relation') return attribute.target !== undefined && this.byUid.has(attribute.target) && !attribute.relation.startsWith('morph');
    if (attribute.type === 'media') return this.byUid.has(FILE_UID);
    if (attribute.type === 'component') return this.byUid.has(attribute.component);
    if (attribute.type === 'dynamiczone') return attribute.components.some((uid) => this.byUid.has(uid));
    return true;
  }
}

/** Admin types (API tokens) are never part of the content API. */
function isExposed(contentType: ContentType): boolean {
  return !contentType.uid.startsWith('admin::') && !contentType.uid.startsWith('strapi::');
}

function attributesOf(attributes: Record<string, Attribute>, uid: string, extension: ExtensionService, owner: 'contentType' | 'component'): GraphqlAttribute[] {
  const settings = extension.shadowCRUD(uid);
  const result: GraphqlAttribute[] = [];
  for (const [name, attribute] of Object.entries(attributes)) {
    const hidden = attribute.private === true || attribute.type === 'password';
    const field = settings.field(name);
    const entry: GraphqlAttribute = {
      name,
      attribute,
      output: field.hasOutputEnabled() && !hidden,
      input: field.hasInputEnabled(),
      // Media and dynamic zones cannot be filtered on (as in Strapi). A repeatable component's filters run on the
      // loaded list, where a private value is not: components keep private attributes out of their filters.
      filters: field.hasFiltersEnabled() && attribute.type !== 'media' && attribute.type !== 'dynamiczone' && !(hidden && owner === 'component'),
    };
    if (entry.output || entry.input || entry.filters) result.push(entry);
  }
  return result;
}

export function isToMany(attribute: Attribute): boolean {
  if (attribute.type === 'relation') return ['oneToMany', 'manyToMany', 'manyWay', 'morphToMany', 'morphMany'].includes(attribute.relation);
  if (attribute.type === 'media') return attribute.multiple === true;
  return false;
}
