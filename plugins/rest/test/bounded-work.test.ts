import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import { errorBody } from './fixture';

/**
 * The work one request can cause is bounded: relation id lists are capped and
 * checked in linear time, sort paths have a maximum number of relation hops,
 * number filters cannot make the pattern matcher backtrack, and a deeply
 * nested value in a string attribute is a 400, not a stack overflow.
 */
const FILES = {
  'src/api/node/content-types/node/schema.json': {
    kind: 'collectionType',
    collectionName: 'nodes',
    info: { singularName: 'node', pluralName: 'nodes', displayName: 'Node' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      ratio: { type: 'float' },
      price: { type: 'decimal' },
      parent: { type: 'relation', relation: 'manyToOne', target: 'api::node.node' },
      buddy: { type: 'relation', relation: 'manyToOne', target: 'api::node.node' },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
      blocks: { type: 'dynamiczone', components: ['shared.note'] },
    },
  },
  'src/components/shared/note.json': { collectionName: 'components_shared_notes', info: { displayName: 'Note' }, attributes: { text: { type: 'string' } } },
  'src/api/tag/content-types/tag/schema.json': {
    kind: 'collectionType',
    collectionName: 'tags',
    info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' } },
  },
  'config/permissions.ts': `export default { public: ['api::node.node.find'] };\n`,
};

const range = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);

/*
 * No clock in these verdicts (a busy machine made the control-relative timings fail): each test shows the bounded
 * answer itself, a quadratic path would run past the test's timeout (120,000 ids squared is 14 billion steps), the
 * patterns are checked for backtracking by the ReDoS suite (scripts/redos), and speed is `npm run bench`'s.
 */

eachDatabase('bounded work per request', (dialect) => {
  let app: TestApp;
  let token: string;
  let nodeIds: number[];
  let tagIds: number[];
  before(async () => {
    app = await startApp({ dialect, files: FILES });
    token = await app.fullAccessToken();
    tagIds = [];
    for (const name of ['a', 'b', 'c', 'd']) tagIds.push((await app.post('/api/tags', { data: { name } }, { token })).body.data.id);
    nodeIds = [];
    for (const title of ['root', 'child']) {
      const parent = nodeIds[nodeIds.length - 1];
      nodeIds.push((await app.post('/api/nodes', { data: { title, parent: parent ?? null } }, { token })).body.data.id);
    }
  });
  after(() => app?.stop());

  describe('relation id lists', () => {
    it('refuses a list beyond 50,000 ids, naming the attribute, before looking at its items', async () => {
      const response = await app.post('/api/nodes', { data: { title: 'many', tags: range(1, 50_001) } }, { token });
      expect(response.body).to.deep.equal(errorBody(400, 'ValidationError', 'tags: at most 50000 ids per list, got 50001', {
        errors: [{ path: ['tags'], message: 'tags: at most 50000 ids per list, got 50001', name: 'ValidationError' }],
      }));
    });

    it('caps each of set, connect and disconnect', async () => {
      for (const key of ['set', 'connect', 'disconnect']) {
        const response = await app.put(`/api/nodes/${nodeIds[0]}`, { data: { tags: { [key]: range(1, 50_001) } } }, { token });
        expect(response.status, key).to.equal(400);
        expect(response.body.error.details.errors, key).to.deep.equal([{ path: ['tags', key], message: 'tags: at most 50000 ids per list, got 50001', name: 'ValidationError' }]);
      }
    });

    it('answers a body of 120,000 ids beyond the cap with the cap\'s 400 (quadratic de-duplication took seconds)', async () => {
      const flood = await app.post('/api/nodes', { data: { title: 'flood', tags: range(1, 120_000) } }, { token });
      expect(flood.status).to.equal(400);
      expect(flood.body.error.message).to.equal('tags: at most 50000 ids per list, got 120000');
    });

    it('checks a list of 50,000 ids and answers with a bounded error', async () => {
      const unknown = await app.put(`/api/nodes/${nodeIds[0]}`, { data: { tags: range(100_000, 50_000) } }, { token });
      const message = `tags: api::tag.tag with id ${range(100_000, 20).join(', ')} … (50000 in all) does not exist`;
      expect(unknown.body).to.deep.equal(errorBody(400, 'ValidationError', message, { errors: [{ path: ['tags'], message, name: 'ValidationError' }] }));
      const repeated = await app.put(`/api/nodes/${nodeIds[0]}`, { data: { tags: new Array(50_000).fill(tagIds[0]) } }, { token });
      expect(repeated.status).to.equal(400);
      // One entry per problem, but at most 20 per list: 49,999 duplicates would make a 5 MB answer.
      expect(repeated.body.error.details.errors).to.have.length(20);
      expect(repeated.body.error.details.errors[0]).to.deep.equal({ path: ['tags', '1'], message: `Relation ${tagIds[0]} is given more than once`, name: 'ValidationError' });
    });

    it('still de-duplicates and orders a list within the cap', async () => {
      const [a, b, c, d] = tagIds;
      const set = await app.put(`/api/nodes/${nodeIds[1]}`, { data: { tags: [c, a, d] } }, { token });
      expect(set.status).to.equal(200);
      const connect = { connect: [{ id: b, position: { before: c } }, { id: d, position: { start: true } }, { id: c, position: { end: true } }], disconnect: [a, a] };
      const response = await app.put(`/api/nodes/${nodeIds[1]}?populate[tags][fields][0]=name&fields[0]=title`, { data: { tags: connect } }, { token });
      expect(response.status, response.text).to.equal(200);
      expect(response.body.data.attributes.tags.data.map((tag: { attributes: { name: string } }) => tag.attributes.name)).to.deep.equal(['d', 'b', 'c']);
      const duplicate = await app.put(`/api/nodes/${nodeIds[1]}`, { data: { tags: [a, b, a] } }, { token });
      expect(duplicate.body.error.details.errors).to.deep.equal([{ path: ['tags', '2'], message: `Relation ${a} is given more than once`, name: 'ValidationError' }]);
    });
  });

  describe('sort paths', () => {
    it('refuses more than 10 relation hops in one path (40 hops were a 500 on SQLite)', async () => {
      for (const hops of [11, 40]) {
        const response = await app.get(`/api/nodes?sort=${'parent.'.repeat(hops)}title`);
        expect(response.status, String(hops)).to.equal(400);
        expect(response.body, String(hops)).to.deep.equal(errorBody(400, 'ValidationError', 'Invalid parameter sort: at most 10 relations in a path'));
      }
    });

    it('sorts through 10 hops, on every database', async () => {
      const response = await app.get(`/api/nodes?sort=${'parent.'.repeat(10)}title:asc,title:desc&fields[0]=title`, { token });
      // Postgres used to JIT-compile this 21-table plan for seconds; sessions now run without JIT (checked below).
      expect(response.status).to.equal(200);
      expect(response.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.deep.equal(['root', 'child']);
      if (dialect === 'postgres') {
        const [setting] = (await app.app.db.sql.raw('SHOW jit')) as Array<{ jit: string }>;
        expect(setting).to.deep.equal({ jit: 'off' });
      }
    });

    it('refuses more than 20 joined relations over the whole sort', async () => {
      // Three paths of 10 hops that share only their first hops: 10 + 9 + 8 = 27 distinct joins.
      const paths = ['parent', 'buddy', 'parent.buddy'].map((head) => `parent.${head}.${'parent.'.repeat(10 - 1 - head.split('.').length)}title`);
      const response = await app.get(`/api/nodes?sort=${paths.join(',')}`);
      expect(response.body).to.deep.equal(errorBody(400, 'ValidationError', 'Invalid parameter sort: at most 20 relations in all'));
    });
  });

  describe('number filters', () => {
    it('answers 10,000-character almost-numbers with a 400 (the old pattern backtracked quadratically)', async () => {
      const values = ['1'.repeat(9_999) + 'x', '1'.repeat(5_000) + '.' + '1'.repeat(4_998) + 'x', '1'.repeat(9_990) + 'e12345678x'];
      for (const [index, sent] of values.entries()) {
        const field = index % 2 === 0 ? 'ratio' : 'price';
        const response = await app.get(`/api/nodes?filters[${field}][$eq]=${sent}`);
        expect(response.status).to.equal(400);
        expect(response.body.error.message).to.equal(`Invalid parameter ${field}: expected a number, got "${sent.slice(0, 50)}"`);
      }
    });

    it('still accepts every number form', async () => {
      for (const value of ['1', '-1', '1.', '1.5', '.5', '-.5', '1e3', '1.5E-3']) {
        expect((await app.get(`/api/nodes?filters[ratio][$eq]=${value}`)).status, value).to.equal(200);
      }
    });
  });

  describe('nested values', () => {
    it('a deeply nested value in a string attribute is a 400 that names it', async () => {
      const depth = 200_000;
      const rawBody = `{"data":{"title":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      const response = await app.request('POST', '/api/nodes', { rawBody, token });
      expect(response.body).to.deep.equal(errorBody(400, 'ValidationError', 'title must be a `string` type, but the final value was: `[...]`.', {
        errors: [{ path: ['title'], message: 'title must be a `string` type, but the final value was: `[...]`.', name: 'ValidationError' }],
      }));
    });

    it('a deeply nested __component in a dynamic zone is a 400 that names it', async () => {
      const depth = 200_000;
      const rawBody = `{"data":{"blocks":[{"__component":${'['.repeat(depth)}${']'.repeat(depth)}}]}}`;
      const response = await app.request('POST', '/api/nodes', { rawBody, token });
      const message = 'blocks: unknown component a list; expected one of shared.note';
      expect(response.body).to.deep.equal(errorBody(400, 'ValidationError', message, {
        errors: [{ path: ['blocks', '0', '__component'], message, name: 'ValidationError' }],
      }));
    });

    it('shallow values are still shown as JSON', async () => {
      const response = await app.post('/api/nodes', { data: { title: { a: [1] } } }, { token });
      expect(response.body.error.message).to.equal('title must be a `string` type, but the final value was: `{"a":[1]}`.');
    });
  });
});
