import { expect } from 'chai';
import { eachDatabase, mariadbTableAccesses, planNodes, planOf, planRowsTouched, type TestApp, type TestDialect } from '@tessera/testing';
import { claimStatement, DUE_CANDIDATES } from '../../src/webhooks/outbox';
import { ensureWebhookTables } from '../../src/webhooks/tables';
import { startWebhookApp } from './fixture';

/**
 * The fourth security review's backlog (issue 36, finding 1): a receiver down
 * for ~14 hours leaves 5 busy entries with 10,000 pending deliveries and 100
 * failed ones each. The outbox is built as an earlier Tessera left it (no
 * `undelivered` column, every waiting row `pending`, the old order index),
 * with SQL, then migrated in place by the boot's table check.
 *
 * What the claim costs is shown without a clock: its plan reads the due index
 * in order and checks order with one seek in the index of undelivered rows
 * (no scan, no sort), and, where the database can say (PostgreSQL's EXPLAIN
 * ANALYZE, MariaDB's ANALYZE), the rows it touches are a handful, not the
 * 50,500 rows there are.
 */
const ENTRIES = 5;
const PENDING = 10_000;
const FAILED = 100;
const KEY = 'config:backlog';

/** 0..99,999 from five joined digit tables: one statement on every dialect, no recursion limit. */
const NUMBERS = `(SELECT d1.n + 10 * d2.n + 100 * d3.n + 1000 * d4.n + 10000 * d5.n AS n FROM
  (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) d1,
  (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) d2,
  (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) d3,
  (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) d4,
  (SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) d5) numbers`;

/** The outbox as 73e41da created it. */
async function createOldOutbox(app: TestApp): Promise<void> {
  const { sql } = app.app.db;
  for (const table of ['tessera_webhook_deliveries', 'tessera_webhook_counts', 'tessera_webhook_count_changes']) await sql.runSchema(sql.knex.schema.dropTableIfExists(table));
  await sql.runSchema(
    sql.knex.schema.createTable('tessera_webhook_deliveries', (table) => {
      table.increments('id');
      table.string('event_id', 36).notNullable();
      table.string('webhook_key', 255).notNullable();
      table.string('webhook_name', 255);
      table.string('event', 255).notNullable();
      table.string('entry_key', 255);
      table.text('payload').notNullable();
      table.string('status', 16).notNullable();
      table.integer('attempts').notNullable().defaultTo(0);
      table.bigInteger('next_attempt_at').notNullable();
      table.bigInteger('locked_until');
      table.string('locked_by', 64);
      table.integer('last_status');
      table.text('last_error');
      table.bigInteger('created_at').notNullable();
      table.bigInteger('delivered_at');
      table.index(['status', 'next_attempt_at'], 'tessera_webhook_deliveries_due');
      table.index(['webhook_key', 'entry_key', 'id'], 'tessera_webhook_deliveries_order');
    }),
  );
}

/**
 * Per entry, oldest first: FAILED failed rows, then PENDING pending ones (the head retrying, in its backoff, the
 * rest due since they were written: what 14 hours of outage leave).
 */
async function fillBacklog(app: TestApp, now: number): Promise<void> {
  const { sql } = app.app.db;
  for (let entry = 1; entry <= ENTRIES; entry++) {
    const columns = 'event_id, webhook_key, webhook_name, event, entry_key, payload, status, attempts, next_attempt_at, created_at';
    const rows = (status: string, count: number, attempts: number, due: string) =>
      sql.raw(
        `INSERT INTO tessera_webhook_deliveries (${columns})
          SELECT 'e', ?, 'backlog', 'entry.update', ?, '{}', ?, ?, ${due}, ? FROM ${NUMBERS} WHERE n < ? ORDER BY n`,
        [KEY, `api::post.post:${entry}`, status, attempts, now - 3_600_000, count],
      );
    // Failed at distinct times (the prune keeps the newest).
    await rows('failed', FAILED, 10, `${now - 7_200_000} + n * ${ENTRIES} + ${entry}`);
    // The head (lowest id) is waiting out its backoff; the others were due when written.
    await rows('pending', PENDING, 0, `CASE WHEN n = 0 THEN ${now + 3_600_000} ELSE ${now - 3_600_000} END`);
  }
  // Make the head's row the one retrying: it has attempts.
  await sql.raw(`UPDATE tessera_webhook_deliveries SET attempts = 3 WHERE status = 'pending' AND next_attempt_at > ?`, [now]);
}

async function statusCounts(app: TestApp): Promise<Record<string, number>> {
  const rows = await app.app.db.sql.raw('SELECT status, COUNT(*) AS n FROM tessera_webhook_deliveries GROUP BY status');
  return Object.fromEntries(rows.map((row) => [String(row.status), Number(row.n)]));
}

async function explainClaim(app: TestApp, dialect: TestDialect, now: number): Promise<{ plan: string[]; rowsTouched?: number }> {
  const { sql } = app.app.db;
  const limit = 5;
  if (dialect === 'sqlite') {
    const rows = await sql.raw(`EXPLAIN QUERY PLAN ${DUE_CANDIDATES.sqlite}`, [now, limit]);
    return { plan: rows.map((row) => String(row.detail)) };
  }
  if (dialect === 'postgres') {
    await sql.raw('ANALYZE tessera_webhook_deliveries');
    const [row] = await sql.raw(`EXPLAIN (ANALYZE, FORMAT JSON) ${DUE_CANDIDATES.postgres}`, [now, limit]);
    const root = planOf(row);
    return { plan: planNodes(root), rowsTouched: planRowsTouched(root) };
  }
  await sql.raw('ANALYZE TABLE tessera_webhook_deliveries');
  const [row] = await sql.raw(`ANALYZE FORMAT=JSON ${DUE_CANDIDATES.mysql}`, [now, limit]);
  const tables = mariadbTableAccesses(row);
  return { plan: tables.map((table) => `${table.table} ${table.access} ${table.key}`), rowsTouched: tables.reduce((sum, table) => sum + table.rows, 0) };
}

eachDatabase('webhooks: a claim over the 14-hour backlog (5 entries × 10,000 pending, 100 failed each)', (dialect) => {
  let app: TestApp;
  const now = Date.now();
  before(async function () {
    this.timeout(120_000);
    // No webhook and an hour between polls: the app's own dispatcher leaves the rows to this test.
    app = await startWebhookApp(dialect, { delivery: { pollIntervalMs: 3_600_000 } });
    await createOldOutbox(app);
    await fillBacklog(app, now);
    await ensureWebhookTables(app.app.db);
  });
  after(async () => {
    await app?.stop();
  });

  it('migrates the old outbox in place: each entry’s oldest waiting row stays pending, the rest are queued; counters start exact', async () => {
    expect(await statusCounts(app)).to.deep.equal({ pending: ENTRIES, queued: ENTRIES * (PENDING - 1), failed: ENTRIES * FAILED });
    const heads = await app.app.db.sql.raw(`SELECT entry_key, attempts FROM tessera_webhook_deliveries WHERE status = 'pending' ORDER BY entry_key`);
    expect(heads.map((row) => [row.entry_key, Number(row.attempts)])).to.deep.equal(Array.from({ length: ENTRIES }, (_, n) => [`api::post.post:${n + 1}`, 3]));
    expect(await app.app.webhooks.outbox.counts()).to.deep.equal({ pending: ENTRIES * PENDING, sending: 0, delivered: 0, failed: ENTRIES * FAILED });
  });

  it('plans the claim as an ordered read of the due index with one index seek per candidate: no scan, no sort', async () => {
    for (const at of [now, now + 7_200_000]) await expectIndexedClaim(dialect, await explainClaim(app, dialect, at));
  });

  async function expectIndexedClaim(dialect: TestDialect, { plan, rowsTouched }: { plan: string[]; rowsTouched?: number }): Promise<void> {
    if (dialect === 'sqlite') {
      expect(plan).to.deep.include('SEARCH c USING INDEX tessera_webhook_deliveries_due (status=? AND next_attempt_at<?)');
      expect(plan).to.deep.include('SEARCH e USING COVERING INDEX tessera_webhook_deliveries_undelivered (webhook_key=? AND entry_key=? AND undelivered=?)');
      expect(plan.filter((line) => /^SCAN|TEMP B-TREE/.test(line)), plan.join('\n')).to.deep.equal([]);
    } else if (dialect === 'postgres') {
      expect(plan.filter((node) => /Seq Scan|Sort/.test(node)), plan.join('\n')).to.deep.equal([]);
      expect(plan.some((node) => node.endsWith('tessera_webhook_deliveries_due')), plan.join('\n')).to.equal(true);
      expect(plan.some((node) => node.endsWith('tessera_webhook_deliveries_undelivered')), plan.join('\n')).to.equal(true);
    } else {
      expect(plan.filter((line) => / ALL /.test(`${line} `)), plan.join('\n')).to.deep.equal([]);
      expect(plan.some((line) => line.endsWith('tessera_webhook_deliveries_due')), plan.join('\n')).to.equal(true);
    }
    // Before the heads' backoff ends nothing is due; after it, the 5 heads are (every other row waits behind one):
    // either way the claim reads a handful of index entries, not the 50,500 rows.
    if (rowsTouched !== undefined) expect(rowsTouched, plan.join('\n')).to.be.at.most(20);
  }

  it('plans the claim’s UPDATE around those candidates by primary key (SQLite, PostgreSQL; MariaDB updates an id list)', async function () {
    const { sql } = app.app.db;
    const bindings = ['plan-owner', now + 60_000, now + 7_200_000, 5];
    if (dialect === 'sqlite') {
      const plan = (await sql.raw(`EXPLAIN QUERY PLAN ${claimStatement('sqlite', DUE_CANDIDATES.sqlite)}`, bindings)).map((row) => String(row.detail));
      expect(plan).to.deep.include('SEARCH tessera_webhook_deliveries USING INTEGER PRIMARY KEY (rowid=?)');
      expect(plan.filter((line) => /^SCAN|TEMP B-TREE/.test(line)), plan.join('\n')).to.deep.equal([]);
    } else if (dialect === 'postgres') {
      const [row] = await sql.raw(`EXPLAIN (FORMAT JSON) ${claimStatement('postgres', DUE_CANDIDATES.postgres)}`, bindings);
      const plan = planNodes(planOf(row));
      expect(plan.filter((node) => /Seq Scan|Sort/.test(node)), plan.join('\n')).to.deep.equal([]);
    } else this.skip();
  });

  it('claims nothing while every head waits out its backoff, then exactly each entry’s head; a delivered head promotes the next row', async () => {
    const { outbox } = app.app.webhooks;
    expect(await outbox.claim(50, 'test-owner', now, 60_000)).to.deep.equal([]);
    const later = now + 7_200_000;
    const claimed = await outbox.claim(50, 'test-owner', later, 60_000);
    expect(claimed.map((delivery) => delivery.entryKey).sort()).to.deep.equal(Array.from({ length: ENTRIES }, (_, n) => `api::post.post:${n + 1}`));
    expect(claimed.every((delivery) => delivery.attempts === 4)).to.equal(true);
    expect(await outbox.claim(50, 'test-owner', later, 60_000), 'the heads are in flight: nothing else is due').to.deep.equal([]);

    const [first] = claimed;
    await outbox.settle(first!, 'test-owner', { kind: 'delivered', status: 200 }, later);
    const [next] = await outbox.claim(50, 'test-owner', later, 60_000);
    expect(next!.entryKey).to.equal(first!.entryKey);
    expect(next!.id).to.be.above(first!.id);
    await outbox.counters.fold();
    expect(await outbox.counts()).to.deep.equal({ pending: ENTRIES * PENDING - ENTRIES - 1, sending: ENTRIES, delivered: 1, failed: ENTRIES * FAILED });
  });

  it('keeps failed rows to the newest maxFailed, oldest deleted, and the counters follow', async () => {
    const { outbox } = app.app.webhooks;
    expect(await outbox.pruneSettled('failed', 0, 120)).to.equal(ENTRIES * FAILED - 120);
    expect((await statusCounts(app)).failed).to.equal(120);
    expect(await outbox.pruneSettled('failed', now, 1000), 'older than the retention').to.equal(120);
    await outbox.counters.fold();
    expect((await outbox.counts()).failed).to.equal(0);
  });
});
