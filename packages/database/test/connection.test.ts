/**
 * The connection's jobs, on the real database of each dialect: transactions
 * (nested calls join, a failure rolls everything back, after-commit callbacks
 * run only on commit and in order), the background view (outside the current
 * transaction, unseen by query listeners), reads outside a transaction seeing
 * committed rows only, a server connection lost inside a transaction, and
 * schema builders run through it.
 */
import { expect } from 'chai';
import { EXAMPLE_APP, eachDatabase, startApp, withMysql, withPostgres, type TestApp } from '@tessera/testing';
import type { Connection } from '@tessera/database';

eachDatabase('connection: transactions, after-commit, background work', (dialect) => {
  let app: TestApp;
  let connection: Connection;
  const texts = async (on: Connection = connection) => (await on.all(on.knex('tags').select('name').orderBy('name'))).map((row) => String(row.name));
  const insert = (name: string) => connection.run(connection.knex('tags').insert({ name }));

  before(async () => {
    app = await startApp({ dialect, from: EXAMPLE_APP });
    connection = app.app.db.sql;
  });
  beforeEach(() => connection.run(connection.knex('tags').delete()));
  after(() => app?.stop());

  it('commits a nested transaction with the outer one, then runs after-commit callbacks in the order queued', async () => {
    const calls: string[] = [];
    const result = await connection.transaction(async () => {
      await insert('outer');
      await connection.afterCommit(() => calls.push('first'));
      await connection.transaction(async () => {
        await insert('inner');
        await connection.afterCommit(() => calls.push('second'));
      });
      expect(calls, 'nothing runs before the commit').to.deep.equal([]);
      return 'done';
    });
    expect(result).to.equal('done');
    expect(calls).to.deep.equal(['first', 'second']);
    expect(await texts()).to.deep.equal(['inner', 'outer']);
    expect(connection.inTransaction()).to.equal(false);
  });

  it('rolls back everything, nested work included, when the work throws, and runs no after-commit callback', async () => {
    const calls: string[] = [];
    let failure: unknown;
    try {
      await connection.transaction(async () => {
        await insert('kept?');
        await connection.afterCommit(() => calls.push('after'));
        await connection.transaction(async () => {
          await insert('nested');
          throw new Error('boom');
        });
      });
    } catch (error) {
      failure = error;
    }
    expect((failure as Error).message).to.equal('boom');
    expect(calls).to.deep.equal([]);
    expect(await texts()).to.deep.equal([]);
  });

  it('runs background statements outside the current transaction, unseen by query listeners', async () => {
    const seen: string[] = [];
    const unsubscribe = connection.onQuery((sql) => seen.push(sql));
    try {
      await connection.transaction(async () => {
        await insert('uncommitted');
        expect(await texts(), 'the transaction sees its own row').to.deep.equal(['uncommitted']);
        // SQLite has one writer: a background write would wait for this transaction, a background read does not.
        expect(await texts(connection.background), 'background work does not see it before the commit').to.deep.equal([]);
      });
      expect(await texts(connection.background)).to.deep.equal(['uncommitted']);
    } finally {
      unsubscribe();
    }
    expect(seen.filter((sql) => sql.includes('tags'))).to.have.length(2);
  });

  it('reads outside a transaction see committed rows only: none while another transaction writes, all once it commits', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const inserted = new Promise<void>((resolve) => (written = resolve));
    const writing = connection.transaction(async () => {
      await insert('pending');
      written();
      await held;
    });
    await inserted;
    // On SQLite the writer is held now, so this read runs on the query-only handle; afterwards on the idle writer.
    expect(await texts(), 'uncommitted').to.deep.equal([]);
    release();
    await writing;
    expect(await texts(), 'committed').to.deep.equal(['pending']);
  });

  if (dialect === 'sqlite') {
    it('a transaction begun by hand on the SQLite writer keeps reads off it until it ends', async () => {
      await connection.run({ sql: 'BEGIN', bindings: [] });
      try {
        await insert('by hand');
        expect(await texts(), 'read elsewhere: not committed yet').to.deep.equal([]);
      } finally {
        await connection.run({ sql: 'ROLLBACK', bindings: [] });
      }
      expect(await texts()).to.deep.equal([]);
    });
  }

  if (dialect !== 'sqlite') {
    it('a leased connection whose server goes away between two statements fails the transaction, not the process', async () => {
      const ownSql = dialect === 'postgres' ? 'SELECT pg_backend_pid() AS id' : 'SELECT CONNECTION_ID() AS id';
      const own = async () => Number((await connection.all({ sql: ownSql, bindings: [] }))[0]!.id);
      // The server ends the session while the lease holds it and no statement runs (pg reports it as an 'error' event).
      const end = (id: number) => (dialect === 'postgres' ? withPostgres((client) => client.query('SELECT pg_terminate_backend($1)', [id])) : withMysql((client) => client.query(`KILL ${id}`)));
      let failure: unknown;
      try {
        await connection.transaction(async () => {
          await insert('lost');
          await end(await own());
          await new Promise((resolve) => setTimeout(resolve, 200));
          await insert('after');
        });
      } catch (error) {
        failure = error;
      }
      expect((failure as Error).name).to.equal('ServiceUnavailableError');
      expect(await texts(), 'nothing committed').to.deep.equal([]);
      await insert('next');
      expect(await texts(), 'the pool connects anew').to.deep.equal(['next']);
    });
  }

  it('runs a schema builder through the connection, and knows which tables exist', async () => {
    expect(await connection.tableExists('scratch_pad')).to.equal(false);
    await connection.runSchema(connection.knex.schema.createTable('scratch_pad', (table) => table.string('line', 40)));
    expect(await connection.tableExists('scratch_pad')).to.equal(true);
    await connection.runSchema(connection.knex.schema.dropTable('scratch_pad'));
    expect(await connection.tableExists('scratch_pad')).to.equal(false);
  });
});
