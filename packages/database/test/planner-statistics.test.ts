/**
 * A PostgreSQL table that holds rows but was never analysed (a restored or
 * bulk-loaded database, or one Strapi made on a cluster whose autovacuum has
 * not run) is analysed once at boot, so the planner does not guess
 * (planner-statistics.ts). Tables already analysed are left alone; SQLite and
 * MySQL have nothing to do.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, withPostgres, type TestApp } from '@tessera/testing';

const TAG = 'api::tag.tag';

async function statistics(schema: string, table: string): Promise<{ reltuples: number; analyses: number }> {
  return withPostgres(async (client) => {
    const { rows } = await client.query(
      `SELECT c.reltuples::int AS reltuples, coalesce(s.analyze_count, 0)::int AS analyses
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
        WHERE n.nspname = $1 AND c.relname = $2`,
      [schema, table],
    );
    return rows[0];
  });
}

eachDatabase('tables PostgreSQL never analysed are analysed at boot', (dialect) => {
  let first: TestApp | undefined;
  let second: TestApp | undefined;
  after(async () => {
    await second?.stop();
    await first?.stop();
  });

  it('analyses the tables that got rows since, once, and reports them', async () => {
    first = await startApp({ dialect, from: EXAMPLE_APP, noListen: true });
    for (const name of ['One', 'Two', 'Three']) await first.app.entityService.create(TAG, { data: { name } });
    if (dialect !== 'postgres') {
      expect(await first.app.db.analyzeUnanalysedTables()).to.deep.equal([]);
      return;
    }
    const schema = first.database.schema!;
    const database = first.database;
    await first.stop({ keepDatabase: true });
    first = undefined;
    // Nothing analysed the table since its rows were written: the planner has no idea how many there are.
    expect((await statistics(schema, 'tags')).reltuples).to.equal(-1);

    second = await startApp({ dialect, from: EXAMPLE_APP, noListen: true, database });
    const tags = await statistics(schema, 'tags');
    expect(tags.reltuples).to.equal(3);
    // Empty tables hold nothing to sample: left alone.
    expect((await statistics(schema, 'writers')).reltuples).to.equal(-1);
    // Once analysed, never again at boot.
    expect(await second.app.db.analyzeUnanalysedTables()).to.deep.equal([]);
    expect((await statistics(schema, 'tags')).analyses).to.equal(tags.analyses);
  });
});
