import { expect } from 'chai';
import { DIALECTS, type TestApp } from '@tessera/testing';
import { startWebhookApp } from './fixture';

/**
 * A settle that the database rolls back in a lock conflict is run again, not
 * left 'sending' until its lease ends (after which it would be sent a second
 * time: the 61st delivery of the 3-worker drill on MariaDB).
 *
 * The conflict is made, not hoped for: a competing transaction holds the
 * entry's queued row (the one the settle promotes), then asks for the row the
 * settle has just updated. That is a deadlock; the database ends the settle's
 * transaction (PostgreSQL: the first waiter checks first; MariaDB: the
 * transaction that changed fewer rows), and each database's own deadlock
 * counter shows it happened.
 */
const ENTRY = 'api::post.post:1';
const FILLER = 30;

async function deadlocks(app: TestApp): Promise<number> {
  const { sql } = app.app.db;
  if (sql.dialect === 'postgres') {
    const [row] = await sql.raw('SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()');
    return Number(row!.deadlocks);
  }
  const [row] = await sql.raw("SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'");
  return Number(row!.Value);
}

/** PostgreSQL's deadlock counter is a statistic, sent by the backend when its transaction ends: read until it moves. */
async function deadlocksAbove(app: TestApp, before: number): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const now = await deadlocks(app);
    if (now > before) return now;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return deadlocks(app);
}

for (const dialect of DIALECTS.filter((candidate) => candidate !== 'sqlite')) {
  describe(`webhooks: a settle ended by a deadlock runs again [${dialect}]`, () => {
    let app: TestApp;
    before(async () => {
      // No webhook and an hour between polls: the app's own dispatcher leaves the rows to this test.
      app = await startWebhookApp(dialect, { delivery: { pollIntervalMs: 3_600_000 } });
    });
    after(async () => {
      await app?.stop();
    });

    it('settles the delivery and promotes the next once the competing transaction is done; nothing is sent again', async function () {
      this.timeout(30_000);
      const { outbox } = app.app.webhooks;
      const { sql } = app.app.db;
      // Written a day ahead: the app's dispatcher, polling at the real time, never finds them due.
      const later = Date.now() + 86_400_000;
      const insert = (entryKey: string, status: string, undelivered: number | null) =>
        sql.raw(
          `INSERT INTO tessera_webhook_deliveries (event_id, webhook_key, webhook_name, event, entry_key, payload, status, undelivered, attempts, next_attempt_at, created_at)
            VALUES ('e', 'config:conflict', 'conflict', 'entry.update', ?, '{}', ?, ?, 0, ?, ?)`,
          [entryKey, status, undelivered, later, later],
        );
      await insert(ENTRY, 'pending', 1);
      await insert(ENTRY, 'queued', 1);
      for (let n = 0; n < FILLER; n++) await insert(`api::post.post:filler-${n}`, 'delivered', null);
      const [head, queued] = (await sql.raw('SELECT id FROM tessera_webhook_deliveries WHERE entry_key = ? ORDER BY id', [ENTRY])).map((row) => ({ id: Number(row.id) }));
      const [claimed] = await outbox.claim(50, 'owner-a', later, 60_000);
      expect([claimed!.id, claimed!.status]).to.deep.equal([head!.id, 'sending']);
      const before = await deadlocks(app);

      // The competitor: holds the queued row, changes the filler rows (so MariaDB finds it the heavier one), waits
      // until the settle is blocked on the queued row, then asks for the head the settle has updated.
      let locked!: () => void;
      let proceed!: () => void;
      const lockedQueued = new Promise<void>((resolve) => (locked = resolve));
      const settleWaiting = new Promise<void>((resolve) => (proceed = resolve));
      const competitor = sql.transaction(async () => {
        await sql.raw('SELECT id FROM tessera_webhook_deliveries WHERE id = ? FOR UPDATE', [queued!.id]);
        await sql.raw("UPDATE tessera_webhook_deliveries SET last_error = 'competitor' WHERE entry_key LIKE 'api::post.post:filler-%'");
        locked();
        await settleWaiting;
        await sql.raw('SELECT id FROM tessera_webhook_deliveries WHERE id = ? FOR UPDATE', [head!.id]);
      });
      await lockedQueued;
      const settling = outbox.settle(claimed!, 'owner-a', { kind: 'delivered', status: 200 }, later);
      await new Promise((resolve) => setTimeout(resolve, 300));
      proceed();

      await Promise.all([settling, competitor]);
      expect(await deadlocksAbove(app, before), 'the database met a deadlock').to.equal(before + 1);
      const rows = await sql.raw('SELECT id, status, attempts FROM tessera_webhook_deliveries WHERE entry_key = ? ORDER BY id', [ENTRY]);
      expect(rows.map((row) => [Number(row.id), String(row.status), Number(row.attempts)])).to.deep.equal([
        [head!.id, 'delivered', 1],
        [queued!.id, 'pending', 0],
      ]);
      await outbox.counters.fold();
      expect(await outbox.counts()).to.deep.include({ sending: 0, delivered: 1 });
    });
  });
}
