/**
 * The entity service, `db.query` and their parameters typed by uid. Until an
 * app generates its types (`tessera ts:generate-types`) every uid is a string
 * and every shape is the loose one the implementation takes, so Tessera's own
 * code and untyped apps compile as before; once `types/generated/*.d.ts` are
 * in the compilation, a misspelt uid, filter, field or data key is a compile
 * error (`findMany('api::article.article', { filters: { titel: … } })`).
 */
import type { Entity } from '@tessera/database';
import type { Attribute } from './strapi';
import type { Common, Shared } from './registry';
import type { EntityPage, FindParams, EntityWriteParams } from '../content/entity-service';
import type { EntityServiceDecorator } from '../content/entity-service-decorations';

type Typed = Common.HasRegistry;
type Uid = Common.UID.ContentType;

type AttributesOf<S> = S extends { attributes: infer A } ? A : never;
type ContentTypeAttributes<U> = U extends keyof Shared.ContentTypes ? AttributesOf<Shared.ContentTypes[U]> : never;
type ComponentAttributes<U> = U extends keyof Shared.Components ? AttributesOf<Shared.Components[U]> : never;
type Names<A> = keyof A & string;

/** One entry of `U`: its generated values once types exist, else the loose entity. */
export type EntryOf<U extends string> = Typed extends true ? Attribute.GetValues<U> : Entity;

type ScalarOf<A> = A extends { type: 'integer' | 'float' | 'decimal' } ? number : A extends { type: 'boolean' } ? boolean : A extends { type: 'json' | 'blocks' } ? unknown : string;

interface ScalarOperators<V> {
  $eq?: V | null; $eqi?: V; $ne?: V | null; $nei?: V; $lt?: V; $lte?: V; $gt?: V; $gte?: V;
  $in?: V[]; $notIn?: V[]; $between?: [V, V];
  $contains?: V; $notContains?: V; $containsi?: V; $notContainsi?: V;
  $startsWith?: V; $startsWithi?: V; $endsWith?: V; $endsWithi?: V;
  $null?: boolean; $notNull?: boolean;
  $not?: ScalarFilter<V>; $and?: Array<ScalarFilter<V>>; $or?: Array<ScalarFilter<V>>;
}
type ScalarFilter<V> = V | V[] | null | ScalarOperators<V>;

type AttributeFilter<A> = A extends { type: 'relation'; target: infer T }
  ? TypedFilters<ContentTypeAttributes<T>>
  : A extends { type: 'component'; component: infer C }
    ? TypedFilters<ComponentAttributes<C>>
    : A extends { type: 'media' }
      ? Record<string, unknown>
      : ScalarFilter<ScalarOf<A>>;

type TypedFilters<A> = { [Name in Names<A>]?: AttributeFilter<A[Name]> } & {
  id?: ScalarFilter<number>;
  $and?: Array<TypedFilters<A>>;
  $or?: Array<TypedFilters<A>>;
  $not?: TypedFilters<A>;
};

type ScalarNames<A> = { [Name in Names<A>]: A[Name] extends { type: 'relation' | 'component' | 'dynamiczone' | 'media' } ? never : Name }[Names<A>];
type LinkNames<A> = Exclude<Names<A>, ScalarNames<A>>;
type SortKey<A> = ScalarNames<A> | 'id' | `${ScalarNames<A> | 'id'}:${'asc' | 'desc' | 'ASC' | 'DESC'}` | `${LinkNames<A>}.${string}`;
type Populate<A> = '*' | LinkNames<A> | Array<LinkNames<A>> | { [Name in LinkNames<A>]?: boolean | '*' | Record<string, unknown> };

interface TypedFind<A> {
  filters?: TypedFilters<A>;
  fields?: ScalarNames<A> | 'id' | Array<ScalarNames<A> | 'id'>;
  sort?: SortKey<A> | Array<SortKey<A> | { [Name in ScalarNames<A> | 'id']?: 'asc' | 'desc' }> | { [Name in ScalarNames<A> | 'id']?: 'asc' | 'desc' };
  populate?: Populate<A>;
  publicationState?: 'live' | 'preview';
  pagination?: FindParams['pagination'];
  page?: number | string;
  pageSize?: number | string;
  start?: number | string;
  limit?: number | string;
  locale?: string;
}

/** Strapi v4's `params` of a read on `U`. */
export type FindParamsOf<U extends string> = Typed extends true ? TypedFind<ContentTypeAttributes<U>> : FindParams;
/** `{ data, fields, populate }` of a write on `U`: data keys are `U`'s attributes. */
export type WriteParamsOf<U extends string> = Typed extends true
  ? { data: { [Name in Names<ContentTypeAttributes<U>>]?: unknown }; fields?: TypedFind<ContentTypeAttributes<U>>['fields']; populate?: TypedFind<ContentTypeAttributes<U>>['populate'] }
  : EntityWriteParams;

/** A single type's `findMany` gives its entry; a collection type's, a list. */
type ManyOf<U extends string> = Typed extends true
  ? U extends keyof Shared.ContentTypes
    ? Shared.ContentTypes[U] extends { kind?: 'singleType' } ? EntryOf<U> | null : Array<EntryOf<U>>
    : never
  : Entity[] | Entity | null;

export interface PageOf<U extends string> extends Omit<EntityPage, 'results'> {
  results: Array<EntryOf<U>>;
}

/** `strapi.entityService` with Strapi v4's signatures, typed by uid. */
export interface TypedEntityService {
  findMany<U extends Uid>(uid: U, params?: FindParamsOf<U>): Promise<ManyOf<U>>;
  findPage<U extends Uid>(uid: U, params?: FindParamsOf<U>): Promise<PageOf<U>>;
  findOne<U extends Uid>(uid: U, id: number | string, params?: FindParamsOf<U>): Promise<EntryOf<U> | null>;
  count<U extends Uid>(uid: U, params?: FindParamsOf<U>): Promise<number>;
  create<U extends Uid>(uid: U, params: WriteParamsOf<U>): Promise<EntryOf<U>>;
  update<U extends Uid>(uid: U, id: number | string, params: WriteParamsOf<U>): Promise<EntryOf<U>>;
  delete<U extends Uid>(uid: U, id: number | string, params?: Omit<WriteParamsOf<U>, 'data'>): Promise<EntryOf<U>>;
  /** Replaces methods with a decorator's (content/entity-service-decorations.ts); REST and GraphQL read through them. */
  decorate(decorator: EntityServiceDecorator): this;
}
