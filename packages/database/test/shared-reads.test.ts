/**
 * Identical reads in flight at once share one query (shared-reads.ts), on the
 * databases whose reads can be in flight together (PostgreSQL, MySQL/MariaDB).
 * Reads are held in flight by another client's table lock, so which reads
 * overlap is decided by the test, not by timing: a read joins one that is
 * still running, gets its own copy of the rows, and never joins one that
 * began before a write finished or runs inside a transaction.
 */
import { expect } from 'chai';
import { DIALECTS, EXAMPLE_APP, startApp, withMysql, withPostgres, type TestApp, type TestDialect } from '@tessera/testing';
import type { Connection, Row } from '@tessera/database';

for (const dialect of DIALECTS.filter((name): name is Exclude<TestDialect, 'sqlite'> => name !== 'sqlite')) {
  describe(`shared reads: identical reads in flight share one query [${dialect}]`, () => {
    let app: TestApp;
    let connection: Connection;
    let token: string;
    const tagRows = () => connection.all(connection.knex('tags').select('id', 'name').orderBy('id'));

    /** Runs `work` while another client holds an exclusive lock on `table`: reads of it wait until `work` returns. */
    async function whileLocked<T>(table: string, work: () => Promise<T>): Promise<T> {
      const schema = app.database.schema!;
      if (dialect === 'postgres') {
        return withPostgres(async (client) => {
          await client.query('BEGIN');
          await client.query(`LOCK TABLE "${schema}"."${table}" IN ACCESS EXCLUSIVE MODE`);
          try {
            return await work();
          } finally {
            await client.query('COMMIT');
          }
        });
      }
      return withMysql(async (client) => {
        await client.query(`LOCK TABLES \`${schema}\`.\`${table}\` WRITE`);
        try {
          return await work();
        } finally {
          await client.query('UNLOCK TABLES');
        }
      });
    }

    /** The statements run while `work` runs. */
    async function statementsDuring(work: () => Promise<void>): Promise<string[]> {
      const seen: string[] = [];
      const unsubscribe = connection.onQuery((sql) => seen.push(sql));
      try {
        await work();
      } finally {
        unsubscribe();
      }
      return seen;
    }

    /**
     * Runs `work` while another client holds a lock that `read` waits for after taking its snapshot (at its first row
     * on MySQL, at its start on PostgreSQL): a read with a snapshot older than any write `work` makes stays in flight
     * until `work` returns. `untilWaiting` resolves once such a read waits, as the server's activity list shows.
     */
    async function whileReadWaits<T>(work: (blocked: { read: { sql: string; bindings: [] }; untilWaiting(): Promise<void> }) => Promise<T>): Promise<T> {
      const waiting = async (count: () => Promise<number>) => {
        while ((await count()) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      };
      if (dialect === 'postgres') {
        return withPostgres(async (locker) => {
          await locker.query('SELECT pg_advisory_lock(424242)');
          try {
            return await work({
              // A transaction-scoped shared lock per row, released when the statement's own transaction ends.
              read: { sql: `SELECT id, name FROM tags WHERE pg_advisory_xact_lock_shared(424242)::text = '' ORDER BY id`, bindings: [] },
              untilWaiting: () => waiting(async () => Number((await locker.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'`)).rows[0].n)),
            });
          } finally {
            await locker.query('SELECT pg_advisory_unlock(424242)');
          }
        });
      }
      return withMysql(async (locker) => {
        await locker.query(`SELECT GET_LOCK('tessera-shared-read', 30)`);
        try {
          return await work({
            read: { sql: `SELECT id, name FROM tags WHERE GET_LOCK('tessera-shared-read', 30) + RELEASE_LOCK('tessera-shared-read') >= 0 ORDER BY id`, bindings: [] },
            untilWaiting: () =>
              waiting(async () => {
                const [rows] = await locker.query(`SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE STATE = 'User lock'`);
                return Number((rows as Array<{ n: unknown }>)[0].n);
              }),
          });
        } finally {
          await locker.query(`SELECT RELEASE_LOCK('tessera-shared-read')`);
        }
      });
    }

    before(async () => {
      app = await startApp({ dialect, from: EXAMPLE_APP });
      connection = app.app.db.sql;
      token = await app.fullAccessToken();
    });
    beforeEach(async () => {
      await connection.run(connection.knex('tags').delete());
      await connection.run(connection.knex('tags').insert([{ name: 'alpha' }, { name: 'beta' }]));
    });
    after(() => app?.stop());

    it('a read joins the identical one in flight and gets its own copy of the rows; one begun after a write finished does not', async () => {
      let first!: Promise<Row[]>;
      let joined!: Promise<Row[]>;
      let afterWrite!: Promise<Row[]>;
      const statements = await statementsDuring(() =>
        whileLocked('tags', async () => {
          first = tagRows();
          joined = tagRows();
          await connection.run(connection.knex('writers').insert({ name: 'a write elsewhere' }));
          afterWrite = tagRows();
          // Settle-safe: rejections are seen by the awaits below.
          await new Promise((resolve) => setTimeout(resolve, 50));
        }),
      );
      const [a, b, c] = await Promise.all([first, joined, afterWrite]);
      expect(statements.filter((sql) => /from\s+["`]tags["`]/i.test(sql)), 'one query for the two overlapping reads, one after the write').to.have.length(2);
      expect(a.map((row) => row.name)).to.deep.equal(['alpha', 'beta']);
      expect(b).to.deep.equal(a);
      expect(c).to.deep.equal(a);
      expect(b).to.not.equal(a);
      a[0].name = 'changed by the first reader';
      expect(b[0].name, 'a joiner has its own rows').to.equal('alpha');
    });

    it("a read never joins one begun before another process's write that was answered before it", async () => {
      // A second app on the same database is another process: it shares no memory with this one, and hears of the
      // first one's writes only through the database (PostgreSQL's NOTIFY, MySQL's polled write versions).
      const other = await startApp({ dialect, from: EXAMPLE_APP, database: app.database });
      try {
        for (let round = 1; round <= 3; round++) {
          const [tag] = await tagRows();
          const before = String(tag.name);
          const changed = await whileReadWaits(async (blocked) => {
            const first = connection.all(blocked.read);
            await blocked.untilWaiting();
            await other.app.db.query('api::tag.tag').update({ where: { id: tag.id }, data: { name: `renamed ${round}` } });
            // The write has been answered: a read sent now must see it.
            const second = connection.all(blocked.read);
            return { first, second };
          });
          const [a, b] = await Promise.all([changed.first, changed.second]);
          expect({ first: a[0].name, second: b[0].name }, `round ${round}`).to.deep.equal({ first: before, second: `renamed ${round}` });
        }
      } finally {
        await other.stop({ keepDatabase: true });
      }
    });

    it('reads with other bindings, and reads inside a transaction, run their own query', async () => {
      const reads: Array<Promise<Row[]>> = [];
      const statements = await statementsDuring(async () => {
        await whileLocked('tags', async () => {
          reads.push(connection.all(connection.knex('tags').select('name').where('name', 'alpha')));
          reads.push(connection.all(connection.knex('tags').select('name').where('name', 'beta')));
          reads.push(tagRows());
          reads.push(connection.transaction(() => tagRows()));
        });
        await Promise.all(reads);
      });
      const [alpha, beta, outside, inside] = await Promise.all(reads);
      expect(alpha.map((row) => row.name)).to.deep.equal(['alpha']);
      expect(beta.map((row) => row.name)).to.deep.equal(['beta']);
      expect(inside).to.deep.equal(outside);
      expect(statements.filter((sql) => /from\s+["`]tags["`]/i.test(sql))).to.have.length(4);
    });

    it('identical GETs in flight at once are answered from one page query and one count, each in full', async () => {
      const server = app.app.server.httpServer;
      let arrived = 0;
      const onRequest = () => arrived++;
      server.on('request', onRequest);
      const requests: Array<Promise<{ status: number; text: string }>> = [];
      let statements: string[];
      try {
        statements = await statementsDuring(async () => {
          await whileLocked('tags', async () => {
            for (let i = 0; i < 5; i++) requests.push(app.get('/api/tags?filters[name][$containsi]=a&sort=name:desc', { token }));
            while (arrived < 5) await new Promise((resolve) => setTimeout(resolve, 10));
            // A request reaches its read a few event-loop turns after arriving; the lock keeps the first read running.
            await new Promise((resolve) => setTimeout(resolve, 500));
          });
          await Promise.all(requests);
        });
      } finally {
        server.off('request', onRequest);
      }
      const answers = await Promise.all(requests);
      expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200, 200]);
      expect(new Set(answers.map((answer) => answer.text)).size, 'byte-identical answers').to.equal(1);
      const body = JSON.parse(answers[0].text) as { data: Array<{ attributes: { name: string } }>; meta: { pagination: { total: number } } };
      expect(body.data.map((entry) => entry.attributes.name)).to.deep.equal(['beta', 'alpha']);
      expect(body.meta.pagination.total).to.equal(2);
      const onTags = statements.filter((sql) => /from\s+["`]tags["`]/i.test(sql));
      expect(onTags.filter((sql) => /count\(/i.test(sql)), 'one count').to.have.length(1);
      expect(onTags.filter((sql) => !/count\(/i.test(sql)), 'one page query').to.have.length(1);
    });
  });
}
