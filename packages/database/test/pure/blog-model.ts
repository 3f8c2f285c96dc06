/**
 * The reference blog model (/work/shared/reference/strapi4-fixture: article,
 * category, tag, writer, homepage, shared.seo) as metadata, built in memory
 * for the pure tests: no app, no database. Two additions exercise what the
 * fixture lacks: a private attribute (`writer.secret`) and a dynamic zone
 * (`homepage.blocks`).
 *
 * `render` turns a read plan into plain data (names and uids instead of
 * metadata objects), so a table row can state the exact plan it expects.
 */
import { TesseraError } from '@tessera/errors';
import { buildMetadata, type Metadata } from '../../src/metadata/metadata';
import { FILE_CONTENT_TYPE } from '../../src/model/file-type';
import type { Component, ContentType } from '../../src/model/types';
import type { Condition, PopulateItem, ReadPlan, SortItem } from '../../src/query/plan';

/** A collection type `api::<name>.<name>` as loaded from its schema.json. */
export function collection(name: string, plural: string, draftAndPublish: boolean, attributes: ContentType['attributes']): ContentType {
  return {
    uid: `api::${name}.${name}`,
    namespace: 'api',
    kind: 'collectionType',
    collectionName: plural,
    info: { singularName: name, pluralName: plural, displayName: name },
    options: { draftAndPublish },
    attributes,
  };
}

const CONTENT_TYPES: ContentType[] = [
  collection('article', 'articles', true, {
    title: { type: 'string', required: true },
    slug: { type: 'uid', targetField: 'title' },
    body: { type: 'richtext' },
    featured: { type: 'boolean', default: false },
    views: { type: 'integer' },
    rating: { type: 'decimal' },
    publishDate: { type: 'date' },
    status: { type: 'enumeration', enum: ['draft_review', 'approved', 'archived'] },
    meta: { type: 'json' },
    category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'articles' },
    tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
    author: { type: 'relation', relation: 'manyToOne', target: 'api::writer.writer', inversedBy: 'articles' },
    seo: { type: 'component', repeatable: false, component: 'shared.seo' },
    cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
  }),
  collection('category', 'categories', false, {
    name: { type: 'string', required: true, unique: true },
    articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'category' },
  }),
  collection('tag', 'tags', false, {
    name: { type: 'string' },
    articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' },
  }),
  collection('writer', 'writers', false, {
    name: { type: 'string' },
    email: { type: 'email' },
    secret: { type: 'string', private: true },
    articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' },
  }),
  {
    ...collection('homepage', 'homepages', false, {
      title: { type: 'string' },
      featuredArticles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article' },
      blocks: { type: 'dynamiczone', components: ['shared.seo', 'shared.quote'] },
    }),
    kind: 'singleType',
  },
  FILE_CONTENT_TYPE,
];

const COMPONENTS: Component[] = [
  { uid: 'shared.seo', category: 'shared', collectionName: 'components_shared_seos', info: { displayName: 'seo' }, attributes: { metaTitle: { type: 'string' }, metaDescription: { type: 'text' } } },
  {
    uid: 'shared.quote',
    category: 'shared',
    collectionName: 'components_shared_quotes',
    info: { displayName: 'quote' },
    attributes: { text: { type: 'text' }, by: { type: 'relation', relation: 'oneToOne', target: 'api::writer.writer' } },
  },
];

export const ARTICLE = 'api::article.article';
export const CATEGORY = 'api::category.category';
export const WRITER = 'api::writer.writer';
export const HOMEPAGE = 'api::homepage.homepage';

export function blogMetadata(): Metadata {
  return buildMetadata(CONTENT_TYPES, COMPONENTS);
}

export type RenderedCondition = unknown[];

export interface RenderedPlan {
  uid: string;
  fields: string[];
  where: RenderedCondition | null;
  sort: string[];
  publicationState: string;
  populate?: Record<string, unknown>;
}

/**
 * A condition as a list: `['$eq', 'title', value]`, `['and', …]`, `['or', …]`,
 * `['not', …]`, `['related' | 'media' | 'component', attribute, target uid, inner]`.
 */
export function renderCondition(condition: Condition): RenderedCondition {
  switch (condition.kind) {
    case 'and':
    case 'or':
      return [condition.kind, ...condition.items.map(renderCondition)];
    case 'not':
      return ['not', renderCondition(condition.item)];
    case 'compare':
      return [condition.operator, condition.field.name, condition.value];
    case 'related':
      return ['related', condition.relation.name, condition.target.uid, renderCondition(condition.condition)];
    case 'component':
      return ['component', condition.field.name, condition.target.uid, renderCondition(condition.condition)];
    case 'media':
      return ['media', condition.field.name, condition.target.uid, renderCondition(condition.condition)];
  }
}

/** `category.name:desc`; the id the compiler appends when the request did not sort on it reads `id:asc (tiebreak)`. */
export function renderSort(item: SortItem): string {
  const path = [...item.path.map((hop) => hop.name), item.field.name].join('.');
  return `${path}:${item.direction}${item.tiebreak ? ' (tiebreak)' : ''}`;
}

export function render(plan: ReadPlan): RenderedPlan {
  const rendered: RenderedPlan = {
    uid: plan.entity.uid,
    fields: plan.fields.map((field) => field.name),
    where: plan.where === null ? null : renderCondition(plan.where),
    sort: plan.sort.map(renderSort),
    publicationState: plan.publicationState,
  };
  if (plan.populate.size > 0) rendered.populate = Object.fromEntries([...plan.populate].map(([name, item]) => [name, renderItem(item)]));
  return rendered;
}

function renderItem(item: PopulateItem): unknown {
  if (item.kind === 'relation') {
    return { kind: 'relation', ...(item.countOnly ? { countOnly: true } : {}), ...(item.page ? { page: item.page } : {}), query: render(item.query) };
  }
  if (item.kind === 'media') return { kind: 'media', multiple: item.multiple, query: item.query && render(item.query) };
  return { kind: item.kind, queries: Object.fromEntries([...item.queries].map(([uid, query]) => [uid, render(query)])) };
}

/** What a client would see of the error `run` throws: the catalogue's name, status and message, and the details. */
export function thrown(run: () => unknown): { name: string; status: number; message: string; details: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof TesseraError) return { name: error.name, status: error.status, message: error.message, details: error.details };
    throw error;
  }
  throw new Error('expected an error, none was thrown');
}
