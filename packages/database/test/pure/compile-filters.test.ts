/**
 * `filters` → the plan's condition, row by row, as Strapi v4 means each form
 * (spec: "Filter operators"; README "filters"). Values arrive as qs leaves
 * them (strings) or typed (JSON, GraphQL) and are coerced per attribute type.
 * Error rows name the catalogue error a client gets (always a 400
 * ValidationError, `Invalid parameter <key>` as in sample 20).
 */
import { expect } from 'chai';
import { compileQuery, type CompileOptions, type QueryParams } from '../../src/query/compile-params';
import { ARTICLE, blogMetadata, CATEGORY, HOMEPAGE, renderCondition, thrown, WRITER, type RenderedCondition } from './blog-model';

const metadata = blogMetadata();

function where(uid: string, filters: unknown, options: CompileOptions = {}): RenderedCondition | null {
  const plan = compileQuery({ filters } as QueryParams, metadata.get(uid)!, metadata, options);
  return plan.where === null ? null : renderCondition(plan.where);
}

type Row = [description: string, filters: unknown, expected: RenderedCondition | null, options?: CompileOptions];

const ROWS: Row[] = [
  ['no filters', undefined, null],
  ['an empty string', '', null],
  ['an empty object', {}, null],
  ['a bare value means $eq', { title: 'Hello' }, ['$eq', 'title', 'Hello']],
  ['$eq', { title: { $eq: 'Hello' } }, ['$eq', 'title', 'Hello']],
  ['an integer from a query string is a number', { views: { $gt: '10' } }, ['$gt', 'views', 10]],
  ['a typed integer stays one', { views: { $lte: 10 } }, ['$lte', 'views', 10]],
  ['a decimal', { rating: { $gte: '4.5' } }, ['$gte', 'rating', 4.5]],
  ['a boolean from a query string', { featured: 'true' }, ['$eq', 'featured', true]],
  ['a boolean as 0', { featured: { $eq: '0' } }, ['$eq', 'featured', false]],
  ['a date keeps its calendar form', { publishDate: { $lt: '2024-02-29' } }, ['$lt', 'publishDate', '2024-02-29']],
  ['an enumeration compares as text', { status: { $ne: 'archived' } }, ['$ne', 'status', 'archived']],
  ['several operators on one field: all hold', { views: { $gt: '1', $lt: '9' } }, ['and', ['$gt', 'views', 1], ['$lt', 'views', 9]]],
  ['sibling fields: all hold', { title: 'A', views: 2 }, ['and', ['$eq', 'title', 'A'], ['$eq', 'views', 2]]],
  ['$in with qs indexes', { id: { $in: { 0: '3', 1: '1' } } }, ['$in', 'id', [3, 1]]],
  ['$in with one value', { id: { $in: '3' } }, ['$in', 'id', [3]]],
  ['$notIn with a list', { title: { $notIn: ['a', 'b'] } }, ['$notIn', 'title', ['a', 'b']]],
  ['$between two values', { views: { $between: ['1', '5'] } }, ['$between', 'views', [1, 5]]],
  ['$null=true means IS NULL', { body: { $null: 'true' } }, ['$null', 'body', true]],
  ['$notNull', { body: { $notNull: true } }, ['$notNull', 'body', true]],
  ['$null=false', { body: { $null: 'false' } }, ['$null', 'body', false]],
  ['text operators keep the text form', { views: { $contains: '5' } }, ['$contains', 'views', '5']],
  ['case-insensitive forms', { title: { $containsi: 'hel', $startsWithi: 'H' } }, ['and', ['$containsi', 'title', 'hel'], ['$startsWithi', 'title', 'H']]],
  ['a list on a single-value operator: any of them', { title: { $eq: ['a', 'b'] } }, ['or', ['$eq', 'title', 'a'], ['$eq', 'title', 'b']]],
  ['a list on a negated operator: none of them', { title: { $ne: ['a', 'b'] } }, ['not', ['or', ['$eq', 'title', 'a'], ['$eq', 'title', 'b']]]],
  ['$or of filter objects', { $or: [{ title: 'a' }, { views: '2' }] }, ['or', ['$eq', 'title', 'a'], ['$eq', 'views', 2]]],
  ['$and of filter objects', { $and: { 0: { title: 'a' }, 1: { views: '2' } } }, ['and', ['$eq', 'title', 'a'], ['$eq', 'views', 2]]],
  ['$or with one item is that item', { $or: [{ title: 'a' }] }, ['$eq', 'title', 'a']],
  ['siblings combine with $or', { featured: true, $or: [{ title: 'a' }, { title: 'b' }] }, ['and', ['$eq', 'featured', true], ['or', ['$eq', 'title', 'a'], ['$eq', 'title', 'b']]]],
  ['$not over a filter object', { $not: { title: 'a' } }, ['not', ['$eq', 'title', 'a']]],
  ['$not on a field', { title: { $not: { $eq: 'a' } } }, ['not', ['$eq', 'title', 'a']]],
  ['$or on a field', { views: { $or: [{ $lt: 2 }, { $gt: 8 }] } }, ['or', ['$lt', 'views', 2], ['$gt', 'views', 8]]],
  ['drafts only: publishedAt $null', { publishedAt: { $null: true } }, ['$null', 'publishedAt', true]],
  ['a timestamp becomes a Date', { createdAt: { $gte: '2024-06-01T00:00:00.000Z' } }, ['$gte', 'createdAt', new Date('2024-06-01T00:00:00.000Z')]],
  ['through a relation', { category: { name: { $eq: 'News' } } }, ['related', 'category', CATEGORY, ['$eq', 'name', 'News']]],
  ['a relation given an id', { category: '3' }, ['related', 'category', CATEGORY, ['$eq', 'id', 3]]],
  ['a relation given operators: on its id', { tags: { $in: ['1', '2'] } }, ['related', 'tags', 'api::tag.tag', ['$in', 'id', [1, 2]]]],
  ['entries without a category', { category: { id: { $null: true } } }, ['related', 'category', CATEGORY, ['$null', 'id', true]]],
  [
    'two relation hops',
    { category: { articles: { author: { name: 'W' } } } },
    ['related', 'category', CATEGORY, ['related', 'articles', ARTICLE, ['related', 'author', WRITER, ['$eq', 'name', 'W']]]],
  ],
  ['through a component', { seo: { metaTitle: { $containsi: 'x' } } }, ['component', 'seo', 'shared.seo', ['$containsi', 'metaTitle', 'x']]],
  ['through media', { cover: { mime: { $startsWith: 'image/' } } }, ['media', 'cover', 'plugin::upload.file', ['$startsWith', 'mime', 'image/']]],
  ['json: text operators match its stored text', { meta: { $containsi: 'release' } }, ['$containsi', 'meta', 'release']],
  ['json: $null', { meta: { $null: true } }, ['$null', 'meta', true]],
  ['private fields for trusted callers', { author: { secret: 's' } }, ['related', 'author', WRITER, ['$eq', 'secret', 's']], { allowPrivate: true }],
  ['an empty $not adds nothing', { $not: {} }, null],
];

type ErrorRow = [description: string, uid: string, filters: unknown, message: string, options?: CompileOptions];

const ERRORS: ErrorRow[] = [
  ['an unknown field (sample 20)', ARTICLE, { nope: { $eq: '1' } }, 'Invalid parameter nope'],
  ['an unknown operator (deliberate: Strapi ignores it)', ARTICLE, { title: { $foo: '1' } }, 'Invalid parameter $foo'],
  ['a private field', WRITER, { secret: 's' }, 'Invalid parameter secret'],
  ['a private field through a relation', ARTICLE, { author: { secret: 's' } }, 'Invalid parameter secret'],
  ['a value that is no integer', ARTICLE, { views: 'abc' }, 'Invalid parameter views: expected an integer, got "abc"'],
  ['an integer beyond 32 bits', ARTICLE, { views: '2147483648' }, 'Invalid parameter views: integer out of range'],
  ['a value that is no boolean', ARTICLE, { featured: 'yes' }, 'Invalid parameter featured: expected a boolean, got "yes"'],
  ['a date that does not exist', ARTICLE, { publishDate: '2023-02-29' }, 'Invalid parameter publishDate: expected a date (YYYY-MM-DD), got "2023-02-29"'],
  ['a NUL byte', ARTICLE, { title: 'a\u0000b' }, 'Invalid parameter title: contains a NUL byte'],
  ['a text operator on a boolean', ARTICLE, { featured: { $contains: 't' } }, 'Invalid parameter $contains: not available on boolean attribute featured'],
  ['$eq on json', ARTICLE, { meta: { $eq: '{}' } }, 'Invalid parameter $eq: not available on json attribute meta'],
  ['$between with one value', ARTICLE, { views: { $between: ['1'] } }, 'Invalid parameter $between: expects exactly two values'],
  ['$or that is no list', ARTICLE, { $or: 'a' }, 'Invalid parameter $or: expects an array'],
  ['filters that are no object', ARTICLE, 'title', 'Invalid parameter filters'],
  ['an object as an operand', ARTICLE, { title: { $eq: { a: 1 } } }, 'Invalid parameter $eq'],
  ['an object in $in', ARTICLE, { id: { $in: [{ a: 1 }] } }, 'Invalid parameter $in'],
  ['a dynamic zone (spec: not filterable)', HOMEPAGE, { blocks: { text: 'x' } }, 'Invalid parameter blocks'],
  ['a relation the caller may not read', ARTICLE, { category: { name: 'x' } }, 'Invalid parameter category', { canRead: (uid) => uid !== CATEGORY }],
  ['media when the caller may not read files', ARTICLE, { cover: { name: 'x' } }, 'Invalid parameter cover', { canRead: (uid) => uid !== 'plugin::upload.file' }],
  ['nested 13 deep', ARTICLE, nestedNot(13), 'Invalid parameter filters: nested too deeply'],
];

function nestedNot(depth: number): Record<string, unknown> {
  let filters: Record<string, unknown> = { title: 'a' };
  for (let level = 0; level < depth; level += 1) filters = { $not: filters };
  return filters;
}

describe('compiler: filters → condition (pure)', () => {
  for (const [description, filters, expected, options] of ROWS) {
    it(description, () => {
      expect(where(ARTICLE, filters, options ?? {})).to.deep.equal(expected);
    });
  }

  it('nests up to 12 deep', () => {
    let expected: RenderedCondition = ['$eq', 'title', 'a'];
    for (let level = 0; level < 12; level += 1) expected = ['not', expected];
    expect(where(ARTICLE, nestedNot(12))).to.deep.equal(expected);
  });

  describe('bad input → 400 ValidationError', () => {
    for (const [description, uid, filters, message, options] of ERRORS) {
      it(description, () => {
        expect(thrown(() => where(uid, filters, options ?? {}))).to.deep.equal({ name: 'ValidationError', status: 400, message, details: {} });
      });
    }
  });
});
