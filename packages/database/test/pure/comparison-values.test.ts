/**
 * One plan per filter shape (query/comparison-values.ts): a request's single comparison values are taken out of its
 * `filters`, matched to the comparisons the first plan of that shape made of them, and swapped into a copy for the
 * next values. A copy must compile to what compiling the new values gives; where the values cannot be told apart,
 * there is no copy.
 */
import { expect } from 'chai';
import { compileQuery, type QueryParams } from '../../src/query/compile-params';
import { takeFilterValues, valueSlots, withValues } from '../../src/query/comparison-values';
import { ARTICLE, blogMetadata, render, thrown } from './blog-model';

const metadata = blogMetadata();
const article = metadata.get(ARTICLE)!;

function compile(filters: unknown) {
  return compileQuery({ filters, populate: { category: { fields: ['name'] } } } as QueryParams, article, metadata, {});
}

/** The plan for `next` made from the first plan of `first`'s shape; null when the shape keeps a plan per value. */
function swapped(first: unknown, next: unknown) {
  const taken = takeFilterValues(first)!;
  const again = takeFilterValues(next)!;
  expect(JSON.stringify(again.shape)).to.equal(JSON.stringify(taken.shape));
  const plan = compile(first);
  const slots = valueSlots(plan, taken.values);
  return slots && withValues(plan, slots, again.values);
}

describe('comparison values: one plan per filter shape', () => {
  it('takes single comparison values out, in order, naming the attribute above each', () => {
    const taken = takeFilterValues({ slug: { $eq: 'a-1' }, $or: [{ views: { $gt: '2', $lte: 9 } }, { category: { name: { $ne: 'news' } } }], title: { $containsi: 'x' } });
    expect(taken).to.deep.equal({
      shape: {
        slug: { $eq: '\u0000string' },
        $or: [{ views: { $gt: '\u0000string', $lte: '\u0000number' } }, { category: { name: { $ne: '\u0000string' } } }],
        title: { $containsi: '\u0000string' },
      },
      values: [
        { name: 'slug', operator: '$eq', raw: 'a-1' },
        { name: 'views', operator: '$gt', raw: '2' },
        { name: 'views', operator: '$lte', raw: 9 },
        { name: 'name', operator: '$ne', raw: 'news' },
        { name: 'title', operator: '$containsi', raw: 'x' },
      ],
    });
  });

  it('leaves lists, nulls, objects and other operators in the shape; nothing to take is null', () => {
    for (const filters of [undefined, '', { slug: 'a-1' }, { views: { $eq: ['1', '2'] } }, { views: { $in: ['1'] } }, { views: { $eq: null } }, { body: { $null: 'true' } }, { views: { $between: ['1', '2'] } }]) {
      expect(takeFilterValues(filters), JSON.stringify(filters)).to.equal(null);
    }
  });

  it('keeps a __proto__ key in the shape, as a key of its own', () => {
    const filters = JSON.parse('{"slug":{"$eq":"a"},"__proto__":{"views":{"$in":["1"]}}}') as unknown;
    expect(JSON.stringify(takeFilterValues(filters)!.shape)).to.equal('{"slug":{"$eq":"\\u0000string"},"__proto__":{"views":{"$in":["1"]}}}');
  });

  it('keeps objects other than plain ones whole in the shape, so different dates make different shapes', () => {
    const at = (iso: string) => takeFilterValues({ slug: { $eq: 'a' }, createdAt: { $in: [new Date(iso)] } })!.shape;
    expect(JSON.stringify(at('2024-01-01T00:00:00.000Z'))).to.not.equal(JSON.stringify(at('2025-01-01T00:00:00.000Z')));
  });

  const SWAPS: Array<[string, unknown, unknown]> = [
    ['a slug', { slug: { $eq: 'a-1' } }, { slug: { $eq: 'a-2' } }],
    ['numbers, and their order kept', { views: { $gte: '1', $lte: '5' } }, { views: { $gte: '7', $lte: '3' } }],
    ['a boolean', { featured: { $eq: 'true' } }, { featured: { $eq: '0' } }],
    ['a date', { publishDate: { $lt: '2024-02-29' } }, { publishDate: { $lt: '2023-01-31' } }],
    ['a timestamp', { createdAt: { $gte: '2024-06-01T00:00:00.000Z' } }, { createdAt: { $gte: '2025-01-01T10:00:00.000Z' } }],
    ['through a relation, beside a text match', { category: { name: { $eq: 'News' } }, title: { $containsi: 'a' } }, { category: { name: { $eq: 'Tips' } }, title: { $containsi: '%b_' } }],
    ['text matches, one negated', { title: { $startsWithi: 'A', $notContains: 'x' } }, { title: { $startsWithi: '12', $notContains: 'é' } }],
    ['under a field\'s $or, as qs writes its list', { views: { $or: { 0: { $lt: '2' }, 1: { $gt: '8' } } } }, { views: { $or: { 0: { $lt: '3' }, 1: { $gt: '9' } } } }],
    ['under $or and $not', { $or: [{ views: { $lt: '2' } }, { $not: { slug: { $ne: 'x' } } }] }, { $or: [{ views: { $lt: '8' } }, { $not: { slug: { $ne: 'y' } } }] }],
  ];
  for (const [name, first, next] of SWAPS) {
    it(`a copy with new values is the plan those values compile to: ${name}`, () => {
      const plan = swapped(first, next);
      expect(plan).to.not.equal(null);
      expect(render(plan!)).to.deep.equal(render(compile(next)));
    });
  }

  it('a copy shares what does not depend on the values (fields, sort, populate levels)', () => {
    const base = compile({ slug: { $eq: 'a-1' } });
    const slots = valueSlots(base, takeFilterValues({ slug: { $eq: 'a-1' } })!.values)!;
    const copy = withValues(base, slots, takeFilterValues({ slug: { $eq: 'b' } })!.values)!;
    expect([copy.fields === base.fields, copy.populate === base.populate, copy.sort === base.sort, copy.where === base.where]).to.deep.equal([true, true, true, false]);
  });

  it('a new value is checked as the compiler checks it: the same 400', () => {
    const base = compile({ views: { $gt: '2' } });
    const slots = valueSlots(base, takeFilterValues({ views: { $gt: '2' } })!.values)!;
    const swappedError = thrown(() => withValues(base, slots, takeFilterValues({ views: { $gt: 'abc' } })!.values));
    expect(swappedError).to.deep.equal(thrown(() => compile({ views: { $gt: 'abc' } })));
    expect(swappedError.status).to.equal(400);
  });

  it('values the compiler made into something else have no slots: an implicit $eq beside one, a relation compared by id', () => {
    for (const filters of [{ slug: 'a-1', views: { $gt: '1' } }, { category: { $eq: '1' } }, { views: { $eq: ['1'] }, featured: { $eq: 'true' } }]) {
      const taken = takeFilterValues(filters)!;
      expect(valueSlots(compile(filters), taken.values), JSON.stringify(filters)).to.equal(null);
    }
  });
});
