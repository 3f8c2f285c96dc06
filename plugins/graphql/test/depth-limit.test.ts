/**
 * The depth rule answers as graphql-depth-limit@1.1.0 (Strapi 4.26.2's) does — same messages, locations and
 * order — on documents with fragments, inline fragments, introspection fields and several operations, and
 * a fragment bomb its walk took 2^n steps for is decided in linear time.
 */
import { expect } from 'chai';
import { buildSchema, parse, validate, type ValidationRule } from 'graphql';
import { depthLimit } from '../src/http/depth-limit';

// The oracle: the package Strapi runs (no types; its export is `(maxDepth) => ValidationRule`).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const strapiDepthLimit = require('graphql-depth-limit') as (maxDepth: number) => ValidationRule;

const schema = buildSchema('type A { id: ID a: A b: A } type Query { a: A b: A }');
const DOCUMENTS = [
  '{ a { a { a { id } } } }',
  '{ a { a { a { a { id } } } } }',
  '{ a { a { a { a { a { id } } } } b { a { a { a { id } } } } } }',
  'query Q { a { ...F } } fragment F on A { a { a { ...G } } } fragment G on A { a { id } b { a { id } } }',
  'query Q { a { ... on A { a { a { a { a { id } } } } } } } query R { b { id } }',
  'query Q { a { ...F ...F } } fragment F on A { a { a { a { id } } } }',
  '{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }',
  '{ a { a { a { __typename } } } }',
];

function answers(rule: ValidationRule, text: string) {
  return validate(schema, parse(text), [rule]).map((error) => ({ message: error.message, locations: error.locations }));
}

describe('GraphQL depth limit (graphql-depth-limit answers)', () => {
  for (const maxDepth of [0, 1, 2, 3, 4, 10]) {
    it(`answers as graphql-depth-limit with a limit of ${maxDepth}`, () => {
      for (const text of DOCUMENTS) expect(answers(depthLimit(maxDepth), text), text).to.deep.equal(answers(strapiDepthLimit(maxDepth), text));
    });
  }

  it('decides a fragment bomb at once, stopping after 100 errors as graphql-js does', () => {
    let fragments = 'fragment F0 on A { a { a { a { a { id } } } } }';
    for (let index = 1; index < 40; index++) fragments += ` fragment F${index} on A { ...F${index - 1} ...F${index - 1} }`;
    const started = Date.now();
    expect(answers(depthLimit(10), `{ a { ...F39 } } ${fragments}`)).to.deep.equal([]);
    const errors = answers(depthLimit(3), `{ a { ...F39 } } ${fragments}`);
    expect(Date.now() - started).to.be.below(1000);
    expect(errors).to.have.length(101);
    expect(errors[100]!.message).to.equal('Too many validation errors, error limit reached. Validation aborted.');
  });
});
