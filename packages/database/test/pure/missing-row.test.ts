/**
 * Whether a filter through a link holds for an entry with no linked row.
 * Strapi v4 filters through links with LEFT JOINs, so such an entry is
 * compared as one row of NULLs, in SQL's three-valued logic: `IS NULL` holds,
 * a comparison with a value is UNKNOWN (rejected), `NOT UNKNOWN` is still
 * UNKNOWN, `OR` holds when one side holds. Rows: the filter on the linked type
 * (as `filters[author][…]` would carry it) → whether the entry without an
 * author matches.
 */
import { expect } from 'chai';
import { compileQuery, type QueryParams } from '../../src/query/compile-params';
import { holdsOnMissingRow } from '../../src/sql/missing-row';
import { blogMetadata, WRITER } from './blog-model';

const metadata = blogMetadata();

function holds(filters: unknown, dialect: 'sqlite' | 'postgres' | 'mysql' = 'postgres'): boolean {
  const { where } = compileQuery({ filters } as QueryParams, metadata.get(WRITER)!, metadata);
  if (where === null) throw new Error('the row needs a condition');
  return holdsOnMissingRow(where, dialect);
}

const ROWS: Array<[description: string, filters: unknown, expected: boolean]> = [
  ['$null=true: the author is missing, so its id is null', { id: { $null: true } }, true],
  ['$null=false', { id: { $null: false } }, false],
  ['$notNull=true', { name: { $notNull: true } }, false],
  ['$notNull=false', { name: { $notNull: false } }, true],
  ['$eq a value: NULL = v is unknown', { name: 'W' }, false],
  ['$eq null: IS NULL', { name: { $eq: null } }, true],
  ['$ne a value: NULL <> v is unknown', { name: { $ne: 'W' } }, false],
  ['$gt', { id: { $gt: 0 } }, false],
  ['$contains', { name: { $containsi: 'w' } }, false],
  ['$in a list', { id: { $in: [1, 2] } }, false],
  ['$notIn a list: NULL NOT IN (…) is unknown', { id: { $notIn: [1, 2] } }, false],
  ['$not over a comparison: NOT UNKNOWN is unknown', { $not: { name: 'W' } }, false],
  ['$not over $null', { $not: { name: { $null: true } } }, false],
  ['$not over $notNull', { $not: { name: { $notNull: true } } }, true],
  ['$or: one side holds', { $or: [{ name: 'W' }, { email: { $null: true } }] }, true],
  ['$and: one side unknown', { name: { $null: true }, email: 'e@x.org' }, false],
  ['$and: both hold', { name: { $null: true }, email: { $null: true } }, true],
  ['through a further link: no linked row there either', { articles: { id: { $null: true } } }, true],
  ['through a further link: a value there', { articles: { title: 'A' } }, false],
];

describe('filters through a link on an entry with no linked row (pure)', () => {
  for (const [description, filters, expected] of ROWS) {
    it(description, () => {
      expect(holds(filters)).to.equal(expected);
    });
  }
});
