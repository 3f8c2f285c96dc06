/**
 * A `morphToOne` relation (metadata/morph-to-one.ts), as strapi-plugin-todo's task `related` uses it under
 * FoodAdvisor's panel: stored as Strapi 4.26.2 stores it, in the owner table's `target_id` and `target_type`
 * columns, written from `{ id, __type }`, found again by a `where` on those columns (Strapi's query engine takes a
 * key that is no attribute as a column), left out of the rows read (Strapi's have attributes only), and described
 * in `strapi.db.metadata` with Strapi's `morphColumn`. Strapi's engine casts no value for such a column (nor for a
 * big integer): the plugins' `target_id = 'undefined'` and `contentId = 'null'` match no row there (SQLite), as here. Tessera had no such columns: the plugin's create failed with a
 * 500 ("no such column") and its list with a 400 (`Invalid parameter target_id`).
 */
import { expect } from 'chai';
import { eachDatabase, startApp, type TestApp } from '@tessera/testing';

const TASK = 'api::task.task';
const NOTE = 'api::note.note';

const files = {
  'src/api/task/content-types/task/schema.json': {
    kind: 'collectionType',
    collectionName: 'tasks',
    info: { singularName: 'task', pluralName: 'tasks', displayName: 'Task' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, related: { type: 'relation', relation: 'morphToOne' } },
  },
  'src/api/note/content-types/note/schema.json': {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' }, weight: { type: 'biginteger' } },
  },
};

eachDatabase('a morphToOne relation, stored as Strapi 4.26.2 stores it', (dialect) => {
  let app: TestApp;
  let note: number;

  before(async () => {
    app = await startApp({ dialect, files });
    note = (await app.app.db.query(NOTE).create({ data: { title: 'Menu' } })).id as number;
  });
  after(() => app?.stop());

  it("describes it with Strapi's morphColumn, and its columns are no attributes", () => {
    const { attributes } = app.app.db.metadata.get(TASK)!;
    expect(attributes.related).to.deep.equal({ type: 'relation', relation: 'morphToOne', owner: true, morphColumn: { typeColumn: { name: 'target_type' }, idColumn: { name: 'target_id', referencedColumn: 'id' } } });
    expect(Object.keys(attributes)).to.not.include.members(['target_id', 'target_type']);
  });

  it('writes { id, __type } into target_id and target_type, and finds the rows by those columns', async () => {
    const query = app.app.db.query(TASK);
    const created = await query.create({ data: { name: 'Check the menu', related: { __type: NOTE, id: note } } });
    await query.create({ data: { name: 'Elsewhere', related: { __type: NOTE, id: String(note + 1) } } });
    expect(Object.keys(created).sort()).to.deep.equal(['createdAt', 'id', 'name', 'updatedAt']);
    const found = await query.findMany({ where: { target_id: String(note), target_type: NOTE } });
    expect(found.map((row) => row.name)).to.deep.equal(['Check the menu']);
    expect(await query.count({ where: { target_type: 'api::other.other' } })).to.equal(0);
    await query.update({ where: { id: created.id }, data: { related: null } });
    expect(await query.count({ where: { target_id: String(note), target_type: NOTE } })).to.equal(0);
  });

  it("matches no row when server code compares a morph column or a big integer with a value it cannot hold, where the content API answers 400", async () => {
    expect(await app.app.db.query(TASK).findMany({ where: { target_id: 'undefined', target_type: NOTE } })).to.deep.equal([]);
    expect(await app.app.db.query(NOTE).findMany({ where: { weight: 'null' } })).to.deep.equal([]);
    expect((await app.app.db.query(NOTE).findMany({ where: { weight: { $null: true } } })).length).to.equal(1);
    const token = await app.fullAccessToken();
    expect((await app.get('/api/notes?filters[weight]=null', { token })).status).to.equal(400);
  });

  it('refuses any other value with a 400-class ValidationError, writing nothing', async () => {
    const query = app.app.db.query(TASK);
    const before = await query.count({});
    for (const related of [{ id: note }, { __type: NOTE }, { __type: NOTE, id: 'x' }, 7, [note]]) {
      const error = await query.create({ data: { name: 'Bad', related } }).then(() => undefined, (caught: Error) => caught);
      expect(error?.name, JSON.stringify(related)).to.equal('ValidationError');
    }
    expect(await query.count({})).to.equal(before);
  });
});
