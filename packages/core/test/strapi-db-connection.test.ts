/**
 * `strapi.db.connection` is knex as Strapi v4 code knows it (connection/strapi-knex.ts): the query builder runs,
 * `raw` answers the driver's own result, statements join `strapi.db.transaction`, and a write through it drops
 * the cached totals, so the content API never answers a stale count.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { EXAMPLE_APP, eachDatabase, startApp, type TestApp } from '@tessera/testing';

type Dialect = 'sqlite' | 'postgres' | 'mysql';

/** The rows of a `knex.raw` result, as each driver shapes it under knex (and so under Strapi). */
function rawRows(dialect: Dialect, result: unknown): Array<Record<string, unknown>> {
  if (dialect === 'postgres') return (result as { rows: Array<Record<string, unknown>> }).rows;
  if (dialect === 'mysql') return (result as [Array<Record<string, unknown>>, unknown])[0];
  return result as Array<Record<string, unknown>>;
}

eachDatabase('strapi.db.connection (knex, as Strapi code uses it)', (dialect) => {
  let app: TestApp;
  let knex: Knex;
  const total = async () => (await app.get('/api/tags')).body.meta.pagination.total as number;

  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    knex = app.app.db.connection;
    for (const name of ['alpha', 'beta']) await app.app.entityService.create('api::tag.tag', { data: { name } });
  });
  after(() => app?.stop());

  it('runs the query builder and answers raw SQL in the driver’s shape', async () => {
    expect(await knex('tags').select('name').orderBy('id')).to.deep.equal([{ name: 'alpha' }, { name: 'beta' }]);
    expect(await knex('tags').where({ name: 'beta' }).first('name')).to.deep.equal({ name: 'beta' });
    const result = await knex.raw('select name from tags where name = ?', ['alpha']);
    expect(rawRows(dialect, result)).to.deep.equal([{ name: 'alpha' }]);
    if (dialect === 'postgres') expect(result).to.have.property('rowCount', 1);
  });

  it('a write through it shows at once in the content API’s totals', async () => {
    expect(await total()).to.equal(2);
    await knex('tags').insert({ name: 'gamma', created_at: new Date(), updated_at: new Date() });
    expect(await total()).to.equal(3);
    await knex.raw('delete from tags where name = ?', ['gamma']);
    expect(await total()).to.equal(2);
  });

  it('joins strapi.db.transaction: a failed transaction leaves nothing, without waiting on itself', async () => {
    const failed = await app.app.db
      .transaction(async () => {
        await knex('tags').insert({ name: 'delta', created_at: new Date(), updated_at: new Date() });
        expect((await knex('tags').where({ name: 'delta' })).length).to.equal(1);
        throw new Error('stop');
      })
      .catch((error: Error) => error.message);
    expect(failed).to.equal('stop');
    expect(await knex('tags').where({ name: 'delta' })).to.deep.equal([]);
    expect(await total()).to.equal(2);
  });

  it('runs knex transactions (`strapi.db.connection.transaction`) as Tessera transactions', async () => {
    await knex.transaction(async (trx) => {
      await trx('tags').insert({ name: 'epsilon', created_at: new Date(), updated_at: new Date() });
    });
    expect(await total()).to.equal(3);
    const refused = await knex('no_such_table').select('id').then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).to.equal('refused');
  });
});
