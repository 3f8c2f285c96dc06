/**
 * `strapi.db.query(uid)` with `filters`, `_q` and the other parameters Strapi 4.26.2's query builder reads:
 * each engine method against Strapi's recorded answers (data/engine-filters.strapi-4.26.2.json, made on the
 * peer). `filters` was once dropped in silence, so `deleteMany({ filters })` emptied the table.
 *
 * Strapi's own update, delete, updateMany and deleteMany read `where` only: update/delete given `filters`
 * alone refuse ("requires a where parameter") and updateMany/deleteMany act on every row. Tessera applies
 * `filters` there too (README, compatibility); those four answers are Tessera's, named below.
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';
import recording from './data/engine-filters.strapi-4.26.2.json';

const TAG = 'api::tag.tag';
const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];

interface Answer {
  result?: unknown;
  error?: string;
  left: string[];
}

/** Where Tessera differs from Strapi on purpose: a condition it was given narrows the write. */
const TESSERA_DIFFERS: Record<string, Answer> = {
  'update {"filters":{"name":"no-such-tag"},"data":{"name":"x"}}': { result: null, left: NAMES },
  'delete {"filters":{"name":"delta"}}': { result: { id: 4, name: 'delta' }, left: ['alpha', 'beta', 'gamma', 'epsilon'] },
  'updateMany {"filters":{"name":"no-such-tag"},"data":{"name":"x"}}': { result: { count: 0 }, left: NAMES },
  'deleteMany {"filters":{"name":"no-such-tag"}}': { result: { count: 0 }, left: NAMES },
};

const files = {
  'src/api/tag/content-types/tag/schema.json': {
    kind: 'collectionType',
    collectionName: 'tags',
    info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' } },
  },
};

/** Entries as the recording shows them: `{ id, name }`. */
function shape(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if ('name' in record) return { id: record.id, name: record.name };
  return Object.fromEntries(Object.entries(record).map(([key, inner]) => [key, shape(inner)]));
}

/** The names an entity list holds. */
function names(entries: unknown): string[] {
  return (entries as Array<Record<string, unknown>>).map((entry) => String(entry.name));
}

eachDatabase('the query engine with filters, as Strapi 4.26.2', (dialect) => {
  let app: TestApp;

  before(async () => {
    app = await startApp({ dialect, files });
  });
  after(() => app?.stop());

  /** A fresh table of the five tags, ids 1 to 5, as the recording had. */
  async function freshTags(): Promise<void> {
    const knex = app.app.db.connection;
    await knex('tags').del();
    if (dialect === 'postgres') await knex.raw('alter sequence tags_id_seq restart with 1');
    else if (dialect === 'mysql') await knex.raw('alter table tags auto_increment = 1');
    else await knex.raw("delete from sqlite_sequence where name = 'tags'");
    for (const name of NAMES) await app.app.db.query(TAG).create({ data: { name } });
  }

  for (const call of recording.calls) {
    const key = `${call.method} ${JSON.stringify(call.params)}`;
    const expected: Answer = TESSERA_DIFFERS[key] ?? (call.strapi as Answer);
    it(`${key} → ${JSON.stringify(expected.error ?? expected.result)}${TESSERA_DIFFERS[key] ? ' (Strapi: ' + JSON.stringify((call.strapi as Answer).error ?? (call.strapi as Answer).result) + ')' : ''}`, async () => {
      await freshTags();
      const query = app.app.db.query(TAG) as unknown as Record<string, (params: unknown) => Promise<unknown>>;
      // A copy: the engine may add to what it is given (Strapi adds updatedAt to data).
      const params = structuredClone(call.params);
      let answer: Omit<Answer, 'left'>;
      try {
        answer = { result: shape(await query[call.method](params)) };
      } catch (error) {
        answer = { error: (error as Error).message };
      }
      const left = names(await app.app.db.query(TAG).findMany({ orderBy: { id: 'asc' } }));
      expect({ ...answer, left }).to.deep.equal(expected);
    });
  }

  it('refuses what it cannot do instead of dropping it: groupBy, and filters given as a function', async () => {
    await freshTags();
    const query = app.app.db.query(TAG);
    await expectRefusal(() => query.findMany({ groupBy: ['name'] }), 'groupBy is not supported by the query engine: group the entries in code');
    await expectRefusal(() => query.deleteMany({ filters: (() => ({ name: 'alpha' })) as unknown as Record<string, unknown> }), 'filters given as a function is not supported by the query engine: pass an object');
    expect(await query.count()).to.equal(5);
  });

  it('the entity service searches with _q over every text column, as Strapi searches for server code', async () => {
    await freshTags();
    expect(names(await app.app.entityService.findMany(TAG, { _q: 'ELT', fields: ['name'] }))).to.deep.equal(['delta']);
    expect(await app.app.entityService.count(TAG, { _q: 'ta' })).to.equal(2);
  });
});

async function expectRefusal(run: () => Promise<unknown>, message: string): Promise<void> {
  let caught: unknown;
  try {
    await run();
  } catch (error) {
    caught = error;
  }
  expect((caught as Error | undefined)?.message).to.equal(message);
  expect((caught as { name?: string }).name).to.equal('ValidationError');
}
