/**
 * A relation's next list from its current one and the client's input, row by
 * row, as Strapi v4 orders it (spec: "Relation management"): `set` and plain
 * lists replace in the given order; `disconnect` removes; `connect` items
 * apply one by one, each position read against the list as it is then, with
 * `{ end: true }` when none is given (Strapi's `toAssocs` default, so an id
 * already connected moves to the end); to-one kinds keep the last id.
 * Error rows: the 400 ValidationError with its issue's path and message.
 */
import { expect } from 'chai';
import { parseRelationInput } from '../../src/relations/relation-input';
import { nextList } from '../../src/relations/relation-order';
import { thrown } from './blog-model';

function next(current: number[], input: unknown, toMany = true): number[] {
  return nextList(current, parseRelationInput('tags', input), toMany);
}

type Row = [description: string, current: number[], input: unknown, expected: number[], toMany?: boolean];

const ROWS: Row[] = [
  ['a plain list replaces, in its order', [1, 2], [4, 2], [4, 2]],
  ['a plain id', [1, 2], 3, [3]],
  ['a string id', [], '3', [3]],
  ['null clears', [1, 2], null, []],
  ['{ id } alone is a set', [1], { id: 2 }, [2]],
  ['set, shorthand', [1, 2, 3], { set: [3, 1] }, [3, 1]],
  ['set, longhand', [1], { set: [{ id: 2 }, { id: 4 }] }, [2, 4]],
  ['set: qs indexes', [], { set: { 0: '5', 1: '6' } }, [5, 6]],
  ['set: empty clears', [1, 2], { set: [] }, []],
  ['connect: goes last by default', [1, 2], { connect: [5] }, [1, 2, 5]],
  ['connect: several, in order', [1], { connect: [5, 6] }, [1, 5, 6]],
  ['connect: an id already there, no position: moves to the end ({ end: true })', [1, 2, 3], { connect: [1] }, [2, 3, 1]],
  ['connect: start', [1, 2], { connect: [{ id: 5, position: { start: true } }] }, [5, 1, 2]],
  ['connect: end', [1, 2], { connect: [{ id: 1, position: { end: true } }] }, [2, 1]],
  ['connect: before', [1, 2, 3], { connect: [{ id: 5, position: { before: 2 } }] }, [1, 5, 2, 3]],
  ['connect: after', [1, 2, 3], { connect: [{ id: 5, position: { after: 2 } }] }, [1, 2, 5, 3]],
  ['connect: moving an existing one', [1, 2, 3], { connect: [{ id: 3, position: { before: 1 } }] }, [3, 1, 2]],
  ['connect: start as the string true (qs)', [1], { connect: [{ id: 2, position: { start: 'true' } }] }, [2, 1]],
  ['connect: positions read against the list as it is then', [1, 2], {
    connect: [{ id: 5, position: { after: 1 } }, { id: 6, position: { before: 5 } }, { id: 7, position: { after: 6 } }],
  }, [1, 6, 7, 5, 2]],
  ['connect: an anchor connected earlier in the same list', [], { connect: [{ id: 4 }, { id: 3, position: { before: 4 } }] }, [3, 4]],
  ['disconnect', [1, 2, 3], { disconnect: [2] }, [1, 3]],
  ['disconnect, longhand, with duplicates and unknown ids', [1, 2, 3], { disconnect: [{ id: 2 }, 2, 9] }, [1, 3]],
  ['disconnect then connect', [1, 2, 3], { disconnect: [1], connect: [{ id: 4, position: { after: 2 } }] }, [2, 4, 3]],
  ['disconnect and connect the same id: connected, last', [1, 2], { disconnect: [1], connect: [1] }, [2, 1]],
  ['empty connect and disconnect change nothing', [1, 2], { connect: [], disconnect: [] }, [1, 2]],
  ['to-one: a list keeps the last id', [1], [2, 3], [3], false],
  ['to-one: connect keeps the last connected', [1], { connect: [2, 3] }, [3], false],
  ['to-one: disconnect the current one', [1], { disconnect: [1] }, [], false],
  ['to-one: disconnect another one keeps it', [1], { disconnect: [2] }, [1], false],
  ['to-one: set keeps the last id', [], { set: [4, 5] }, [5], false],
  // Strapi 4.26.2's entity manager (toAssocs) reads an object with no id, connect, disconnect or set as no change.
  ['to-one: an object of fields without an id changes nothing', [1], { displayName: 'Ada', bio: 'b' }, [1], false],
  ['to-many: an object with only unknown keys changes nothing', [1, 2], { add: [3] }, [1, 2], true],
];

type ErrorRow = [description: string, current: number[], input: unknown, issues: Array<{ path: string[]; message: string }>];

const ERRORS: ErrorRow[] = [
  ['the same id connected twice (spec, Errors 2)', [], { connect: [1, 1] }, [{ path: ['tags', 'connect', '1'], message: 'Relation 1 is connected more than once' }]],
  ['set with connect', [], { set: [1], connect: [2] }, [{ path: ['tags'], message: 'tags: set cannot be combined with connect or disconnect' }]],
  ['an id given twice in a list', [], [1, 1], [{ path: ['tags', '1'], message: 'Relation 1 is given more than once' }]],
  ['an unknown key beside an operation', [], { add: [1], connect: [2] }, [{ path: ['tags', 'add'], message: 'Invalid key add: use connect, disconnect or set' }]],
  ['not an id', [], 'abc', [{ path: ['tags'], message: 'tags must be an id, a list of ids or an object with connect, disconnect or set' }]],
  ['an id out of range', [], [0, 2147483648], [
    { path: ['tags', '0'], message: 'must be an id or an object with an id' },
    { path: ['tags', '1'], message: 'must be an id or an object with an id' },
  ]],
  ['a position with two keys', [], { connect: [{ id: 1, position: { start: true, end: true } }] }, [
    { path: ['tags', 'connect', '0', 'position'], message: 'position must hold exactly one of before, after, start, end' },
  ]],
  ['start that is not true', [], { connect: [{ id: 1, position: { start: false } }] }, [{ path: ['tags', 'connect', '0', 'position', 'start'], message: 'position.start must be true' }]],
  ['an anchor that is no id', [], { connect: [{ id: 1, position: { before: 'x' } }] }, [{ path: ['tags', 'connect', '0', 'position', 'before'], message: 'position.before must be an id' }]],
  ['an anchor not connected at that point', [1], { connect: [{ id: 2, position: { after: 9 } }] }, [
    { path: ['tags', 'connect', '0', 'position', 'after'], message: 'Cannot connect 2 after 9: 9 is not connected at that point' },
  ]],
  ['an anchor connected only later in the list', [], { connect: [{ id: 3, position: { before: 4 } }, { id: 4 }] }, [
    { path: ['tags', 'connect', '0', 'position', 'before'], message: 'Cannot connect 3 before 4: 4 is not connected at that point' },
  ]],
  ['an anchor disconnected by the same request', [1, 2], { disconnect: [1], connect: [{ id: 3, position: { before: 1 } }] }, [
    { path: ['tags', 'connect', '0', 'position', 'before'], message: 'Cannot connect 3 before 1: 1 is not connected at that point' },
  ]],
];

describe('relation order: current list + input → next list (pure)', () => {
  for (const [description, current, input, expected, toMany] of ROWS) {
    it(description, () => {
      expect(next(current, input, toMany ?? true)).to.deep.equal(expected);
    });
  }

  it('connecting 50,000 ids before one another gives the whole list', () => {
    // No clock here (a verdict must not depend on the machine's load): a quadratic walk would be 2.5 billion
    // steps, far past the test's timeout; the time itself is measured by `npm run bench`.
    const connect = [{ id: 1 }, ...Array.from({ length: 49_999 }, (_, index) => ({ id: index + 2, position: { before: index + 1 } }))];
    const list = next([], { connect });
    expect(list.slice(0, 3)).to.deep.equal([50_000, 49_999, 49_998]);
    expect(list.length).to.equal(50_000);
  });

  describe('bad input → 400 ValidationError with its issues', () => {
    for (const [description, current, input, issues] of ERRORS) {
      it(description, () => {
        const error = thrown(() => next(current, input));
        expect({ name: error.name, status: error.status }).to.deep.equal({ name: 'ValidationError', status: 400 });
        expect(error.message).to.equal(issues.length === 1 ? issues[0].message : `${issues.length} errors occurred`);
        expect(error.details).to.deep.equal({ errors: issues.map((item) => ({ ...item, name: 'ValidationError' })) });
      });
    }
  });
});
