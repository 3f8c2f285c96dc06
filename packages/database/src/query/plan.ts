/**
 * The read plan (`ReadPlan`): a compiled read, what a content query asks for,
 * validated against the model and independent of SQL dialect. One name for
 * it everywhere: parameters named `query` hold one, "plan" in prose is one.
 * `compile-params.ts` produces it from Strapi-style parameters; `sql/*.ts`
 * turn it into knex queries.
 */
import type { ColumnField, ComponentField, EntityMetadata, MediaField, RelationField } from '../metadata/metadata';

export const COMPARISON_OPERATORS = [
  '$eq',
  '$eqi',
  '$ne',
  '$nei',
  '$lt',
  '$lte',
  '$gt',
  '$gte',
  '$in',
  '$notIn',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$null',
  '$notNull',
  '$between',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
] as const;

export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

export type Condition =
  | { kind: 'and'; items: Condition[] }
  | { kind: 'or'; items: Condition[] }
  | { kind: 'not'; item: Condition }
  | { kind: 'compare'; field: ColumnField; operator: ComparisonOperator; value: unknown }
  /** Holds when some related entry satisfies `condition` (EXISTS over the join table). */
  | { kind: 'related'; relation: RelationField; target: EntityMetadata; condition: Condition }
  /** Holds when the entry's (non-repeatable or repeatable) component `field` has an item satisfying `condition`. */
  | { kind: 'component'; owner: EntityMetadata; field: ComponentField; target: EntityMetadata; condition: Condition }
  /** Holds when some file linked to the entry's media `field` satisfies `condition`. */
  | { kind: 'media'; owner: EntityMetadata; field: MediaField; target: EntityMetadata; condition: Condition };

/**
 * Conditions on what an entry is linked to (relations, components, media).
 * An entry with no linked row is read as if it had one row of NULLs, as
 * Strapi v4's LEFT JOINs read it (see sql/missing-row.ts).
 */
export type LinkCondition = Extract<Condition, { kind: 'related' | 'component' | 'media' }>;

export type CompareCondition = Extract<Condition, { kind: 'compare' }>;

/** Every comparison of `condition`, those inside links included, in the order they are written (depth first). */
export function comparisonsOf(condition: Condition, found: CompareCondition[] = []): CompareCondition[] {
  switch (condition.kind) {
    case 'and':
    case 'or':
      for (const item of condition.items) comparisonsOf(item, found);
      return found;
    case 'not':
      return comparisonsOf(condition.item, found);
    case 'compare':
      found.push(condition);
      return found;
    default:
      return comparisonsOf(condition.condition, found);
  }
}

export interface SortItem {
  /** Relation hops from the root, then the column sorted on (xToOne hops only). */
  path: RelationField[];
  field: ColumnField;
  direction: 'asc' | 'desc';
  /** The `id` tie-break the compiler appends when the request did not sort on id: not a sort the client asked for. */
  tiebreak?: true;
}

export interface RelationPopulate {
  kind: 'relation';
  relation: RelationField;
  target: EntityMetadata;
  query: ReadPlan;
  /** `populate[x][count]=true`: only the number of related entries. */
  countOnly: boolean;
  /** `populate[x][start]` / `[limit]`: a page of each parent's list (absent: the whole list). */
  page?: Page;
}

export interface MediaPopulate {
  kind: 'media';
  name: string;
  multiple: boolean;
  /** Null when no file content type is registered (no upload plugin): always empty. */
  query: ReadPlan | null;
  owner: EntityMetadata;
}

export interface ComponentPopulate {
  kind: 'component' | 'dynamiczone';
  name: string;
  field: ComponentField;
  /** The entity (content type or component) whose `<table>_components` holds the links. */
  owner: EntityMetadata;
  /** Per component uid: what to read inside it. */
  queries: Map<string, ReadPlan>;
}

export type PopulateItem = RelationPopulate | MediaPopulate | ComponentPopulate;

export type PublicationState = 'live' | 'preview';

/** One entity level of a query: the root, or a populated relation. */
export interface ReadPlan {
  entity: EntityMetadata;
  /** Column fields to return (id always included). */
  fields: ColumnField[];
  where: Condition | null;
  sort: SortItem[];
  populate: Map<string, PopulateItem>;
  /** Draft filtering applies to entities with draftAndPublish. */
  publicationState: PublicationState;
  /**
   * On a root plan: the most entries one read of it may answer with, across
   * every populate level (sql/entry-budget.ts). The content API sets it
   * (`maxPopulatedEntries`); server code's plans have none.
   */
  maxEntries?: number;
}

export interface Page {
  /** No limit when undefined. */
  limit?: number;
  offset: number;
}
