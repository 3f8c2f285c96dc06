/**
 * The shapes of the metadata (metadata.ts builds them): what each entity's
 * table, columns and links are. Types only, so the modules that fill in parts
 * of an entity (search-options.ts) need not import the builder.
 */
import type { Attribute, RelationAttribute, RelationKind, ScalarAttribute, ScalarType } from '../model/types';

/** A field stored in a column of the entity's own table. */
export interface ColumnField {
  name: string;
  column: string;
  type: ScalarType | 'increments';
  attribute: ScalarAttribute;
  /** Hidden from every response and from filters, sort and fields. */
  private: boolean;
  /** The `morphToOne` attribute this column stores half of (not an attribute of its own: left out of reads). */
  morphOf?: string;
  /** Managed by Tessera (id, timestamps): clients cannot write it. */
  system: boolean;
  /** SQLite: the FTS5 trigram table indexing this column for substring search (search-options.ts). */
  searchTable?: string;
}

export interface JoinTable {
  name: string;
  /** Column holding the id of the entity this relation is read from. */
  joinColumn: string;
  /** Column holding the id of the related entity. */
  inverseJoinColumn: string;
  /** Orders the related entities for one source entity (toMany side). */
  orderColumn: string | null;
  /** Orders source entities as seen from the related entity (the other side's list). */
  inverseOrderColumn: string | null;
}

export interface RelationField {
  name: string;
  kind: 'relation';
  relation: RelationKind;
  target: string;
  /** The target's table, for joins planned from this field alone. */
  targetTable: string;
  toMany: boolean;
  /** True on the side that declares the join table (inversedBy or unidirectional). */
  owner: boolean;
  /** The attribute on the target that mirrors this one, when bidirectional. */
  inverseName: string | null;
  joinTable: JoinTable;
  private: boolean;
  attribute: RelationAttribute;
}

export interface MediaField {
  name: string;
  kind: 'media';
  multiple: boolean;
  private: boolean;
}

export interface ComponentField {
  name: string;
  kind: 'component' | 'dynamiczone';
  /** Allowed component uids (one for a component attribute). */
  components: string[];
  repeatable: boolean;
  private: boolean;
}

export type LinkField = RelationField | MediaField | ComponentField;

/**
 * A `morphToOne` relation (a plugin's link to an entry of any type), stored as Strapi 4.26.2 stores it: two columns
 * of the owner's own table (morph-to-one.ts), the target's id and its type's uid. Both are private column fields
 * of the entity, named as their columns, so server code filters on them as Strapi's query engine lets it.
 */
export interface MorphToOneField {
  name: string;
  /** The column (and column field) holding the target's id: `target_id` unless the attribute names another. */
  idColumn: string;
  /** The column (and column field) holding the target's uid: `target_type` unless the attribute names another. */
  typeColumn: string;
  attribute: RelationAttribute;
}

export interface EntityMetadata {
  uid: string;
  kind: 'collectionType' | 'singleType' | 'component';
  tableName: string;
  singularName: string;
  draftAndPublish: boolean;
  /** Column-backed fields by attribute name, including id and timestamps. */
  columns: Map<string, ColumnField>;
  /** Relation, media, component and dynamic-zone fields by attribute name. */
  links: Map<string, LinkField>;
  /** `morphToOne` relations by attribute name; their two columns are in `columns`. */
  morphToOne: Map<string, MorphToOneField>;
  /** Attribute names in schema order, as responses list them. */
  attributeOrder: string[];
  /** `<table>_components` join table, when the entity has components or zones. */
  componentJoinTable: string | null;
  /** Column-backed fields clients see, in response order. */
  publicColumns: ColumnField[];
  /** Every column-backed field, private ones included (trusted reads). */
  allColumns: ColumnField[];
  /**
   * What server code reads when it names no fields: every column but the admin authorship stamps
   * (`createdBy`, `updatedBy`), which are relations in Strapi and come only when asked for.
   */
  serverColumns: ColumnField[];
  /** Index-backed substring search (search-options.ts), or null. */
  search: { table: string; columns: string[] } | null;
  /** Extra b-tree indexes (column lists) the schema declares. */
  indexes: string[][];
  /** The attributes in Strapi v4's metadata shape, for Strapi code (`strapi-attributes.ts`); Tessera reads `columns` and `links`. */
  attributes: Record<string, StrapiAttribute>;
}

export type Metadata = Map<string, EntityMetadata>;

/** Strapi v4's metadata shapes (`strapi-attributes.ts` builds them). */
type StrapiColumn = { name: string; referencedColumn: 'id'; referencedTable?: string };

export interface StrapiJoinTable {
  name: string;
  joinColumn: StrapiColumn;
  inverseJoinColumn?: StrapiColumn;
  pivotColumns: string[];
  orderColumnName?: string;
  orderBy?: Record<string, 'asc'>;
  inverseOrderColumnName?: string;
  on?: { field: string };
  morphColumn?: { typeColumn: { name: string }; idColumn: StrapiColumn };
}

export interface StrapiAttribute {
  type: string;
  columnName?: string;
  relation?: string;
  target?: string;
  joinTable?: StrapiJoinTable;
  joinColumn?: StrapiColumn;
  [key: string]: unknown;
}
