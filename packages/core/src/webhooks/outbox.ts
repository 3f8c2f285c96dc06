/**
 * The outbox: one row per event and webhook in `tessera_webhook_deliveries`,
 * inserted by the write's own transaction (so it exists exactly when the
 * write committed), then claimed, attempted and settled by dispatchers.
 *
 * Order per entry without scanning: of an entry's undelivered rows for one
 * webhook only the oldest is `pending` (or `sending`); the rest are `queued`
 * and are not claim candidates. When the oldest settles (delivered, or failed
 * for good) the next one is promoted in the same transaction, found through
 * the index over undelivered rows. So the claim reads only due `pending` rows
 * in `(status, next_attempt_at)` order, and its per-row order check is one
 * seek in an index that holds no failed or delivered rows at its head: a
 * claim costs the same with no backlog or a million rows.
 *
 * An insert locks its entry's newest undelivered row (`FOR UPDATE`): a settle
 * that would promote past it waits for the insert's commit and then sees the
 * new row, so a queued row is never left without an older row to promote it.
 * A failed delivery retried later turns `pending` whatever its place (the
 * oldest undelivered row is never `queued`).
 *
 * Claiming is a lease: a process that dies mid-attempt loses it after
 * `leaseMs` and another takes the delivery over (at least once). What the
 * dispatcher runs are background statements (`connection.background`); `add`
 * joins the write's transaction. Counts change with rows (outbox-counts.ts).
 */
import { isLockConflict, type Database, type Dialect, type Row } from '@tessera/database';
import { OutboxCounts, selectRows, type CountChange, type CountedStatus, type DeliveryCounts } from './outbox-counts';
import { DELIVERIES_TABLE } from './table-names';

export type { DeliveryCounts } from './outbox-counts';
export type DeliveryStatus = 'queued' | 'pending' | 'sending' | 'delivered' | 'failed';

type Connection = Database['sql'];

/** Tries of a settle that a lock conflict rolls back. */
const SETTLE_ATTEMPTS = 5;

/** Rows deleted per prune transaction. */
const PRUNE_BATCH = 500;

/** `next_attempt_at` of a paused webhook's pending rows: never due until it is resumed (webhook-pauses.ts). */
export const PAUSED_DUE = 9_000_000_000_000_000;

export interface NewDelivery {
  eventId: string;
  webhookKey: string;
  webhookName: string;
  event: string;
  entryKey: string | null;
  payload: string;
}

export interface Delivery extends NewDelivery {
  id: number;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: number;
  deliveredAt: number | null;
}

/** How an attempt (or a claim given back) ends. */
export type Settlement =
  | { kind: 'delivered'; status: number }
  | { kind: 'retry'; status: number | null; error: string; at: number }
  | { kind: 'failed'; status: number | null; error: string }
  | { kind: 'released' }
  | { kind: 'abandoned'; reason: string };

/**
 * The claim's candidate query (`DUE_CANDIDATES`, exported so tests can EXPLAIN exactly what runs). `?`: now, limit. A row is a
 * candidate when it is its entry's oldest undelivered row for its webhook: the first entry of the undelivered index
 * for that pair, one index entry read per candidate.
 *
 * Why two forms: with `webhook_key = … AND entry_key = … AND undelivered = 1 ORDER BY id LIMIT 1`, PostgreSQL may
 * walk the primary key in id order and filter (it takes the pair's rows for spread over the table, when they are
 * one entry's run of thousands): measured on the 14-hour backlog, 20,300 rows per candidate instead of one. A row
 * comparison ordered by the index's own columns can only be served by that index. MariaDB reads that row form as a
 * whole-index scan, and serves the equality form from the index (`ref`), so it keeps it; so does SQLite.
 */
function dueCandidatesOf(dialect: Dialect): string {
  const head =
    dialect === 'postgres'
      ? `SELECT e.id FROM ${DELIVERIES_TABLE} e
      WHERE (e.webhook_key, e.entry_key, e.undelivered, e.id) >= (c.webhook_key, c.entry_key, 1, 0)
      ORDER BY e.webhook_key, e.entry_key, e.undelivered, e.id LIMIT 1`
      : `SELECT e.id FROM ${DELIVERIES_TABLE} e
      WHERE e.webhook_key = c.webhook_key AND e.entry_key = c.entry_key AND e.undelivered = 1 ORDER BY e.id LIMIT 1`;
  return `SELECT c.id FROM ${DELIVERIES_TABLE} c
  WHERE c.status = 'pending' AND c.next_attempt_at <= ?
    AND (c.entry_key IS NULL OR c.id = (${head}))
  ORDER BY c.next_attempt_at LIMIT ?`;
}

/** Each dialect's candidate query, written once. */
export const DUE_CANDIDATES: Record<Dialect, string> = { sqlite: dueCandidatesOf('sqlite'), postgres: dueCandidatesOf('postgres'), mysql: dueCandidatesOf('mysql') };
const CLAIM_SET = `status = 'sending', attempts = attempts + 1, locked_by = ?, locked_until = ?`;

/**
 * The claim on PostgreSQL (candidates locked `FOR UPDATE SKIP LOCKED`) and SQLite (under its one write lock): one
 * UPDATE of the candidates' ids. `?`: owner, lease end, then the candidates' own. Exported for the plan tests.
 */
export function claimStatement(dialect: 'postgres' | 'sqlite', candidates: string): string {
  const lock = dialect === 'postgres' ? ' FOR UPDATE OF c SKIP LOCKED' : '';
  return `UPDATE ${DELIVERIES_TABLE} SET ${CLAIM_SET} WHERE id IN (${candidates}${lock}) RETURNING *`;
}

/** Claims whose process died: `?`: now, limit. */
export const EXPIRED_CANDIDATES = `SELECT c.id FROM ${DELIVERIES_TABLE} c WHERE c.status = 'sending' AND c.locked_until <= ? LIMIT ?`;

export class Outbox {
  readonly counters: OutboxCounts;

  constructor(private readonly db: () => Database) {
    this.counters = new OutboxCounts(db);
  }

  /** Inserts the deliveries in the current transaction (if any): they commit or roll back with it. */
  async add(deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    const connection = this.db().sql;
    const now = Date.now();
    const rows: Row[] = [];
    for (const delivery of deliveries) {
      const behind = delivery.entryKey !== null && (await this.newestUndelivered(connection, delivery.webhookKey, delivery.entryKey)) !== undefined;
      rows.push({
        event_id: delivery.eventId,
        webhook_key: delivery.webhookKey,
        webhook_name: delivery.webhookName,
        event: delivery.event,
        entry_key: delivery.entryKey,
        payload: delivery.payload,
        status: behind ? 'queued' : 'pending',
        undelivered: 1,
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
      });
    }
    // One statement per row: each holds at most one payload (maxPayloadBytes), whatever the number of webhooks, so
    // none nears MySQL's max_allowed_packet.
    for (const row of rows) await connection.run(connection.knex(DELIVERIES_TABLE).insert(row));
    await this.counters.record(connection, deliveries.map((delivery) => ({ webhookKey: delivery.webhookKey, status: 'pending', n: 1 })));
  }

  /** The entry's newest undelivered row for the webhook, locked until the transaction ends (see the header). */
  private async newestUndelivered(connection: Connection, webhookKey: string, entryKey: string): Promise<number | undefined> {
    const lock = connection.dialect === 'sqlite' ? '' : ' FOR UPDATE';
    const [row] = await selectRows(connection,
      `SELECT id FROM ${DELIVERIES_TABLE} WHERE webhook_key = ? AND entry_key = ? AND undelivered = 1 ORDER BY id DESC LIMIT 1${lock}`,
      [webhookKey, entryKey],
    );
    return row ? Number(row.id) : undefined;
  }

  /** Is anything due? A cheap read first, so idle polls never take SQLite's write lock. */
  async hasDue(now: number): Promise<boolean> {
    const { background } = this.db().sql;
    const due = await selectRows(background, `SELECT id FROM ${DELIVERIES_TABLE} WHERE status = 'pending' AND next_attempt_at <= ? LIMIT 1`, [now]);
    if (due.length > 0) return true;
    return (await selectRows(background, `SELECT id FROM ${DELIVERIES_TABLE} WHERE status = 'sending' AND locked_until <= ? LIMIT 1`, [now])).length > 0;
  }

  /** Claims up to `limit` due deliveries for `owner` until `now + leaseMs`; each claim counts as an attempt. */
  async claim(limit: number, owner: string, now: number, leaseMs: number): Promise<Delivery[]> {
    const { background } = this.db().sql;
    const claimed = await background.transaction(async () => {
      const expired = await this.claimWhere(EXPIRED_CANDIDATES, limit, owner, now, leaseMs);
      const due = expired.length < limit ? await this.claimWhere(DUE_CANDIDATES[this.db().sql.dialect], limit - expired.length, owner, now, leaseMs) : [];
      await this.counters.record(
        background,
        due.flatMap((row): CountChange[] => [
          { webhookKey: String(row.webhook_key), status: 'pending', n: -1 },
          { webhookKey: String(row.webhook_key), status: 'sending', n: 1 },
        ]),
      );
      return [...expired, ...due];
    });
    return claimed.map(fromRow).sort((a, b) => a.id - b.id);
  }

  /**
   * One claim statement over `candidates`. PostgreSQL: the candidates locked `FOR UPDATE SKIP LOCKED` inside the
   * UPDATE; SQLite: the same statement under its one write lock; MySQL/MariaDB (no RETURNING, and an UPDATE may not
   * read its own table in a subquery): the ids locked `SKIP LOCKED`, then claimed and read.
   */
  private async claimWhere(candidates: string, limit: number, owner: string, now: number, leaseMs: number): Promise<Row[]> {
    const { knex, background, dialect } = this.db().sql;
    if (dialect !== 'mysql') return background.raw(claimStatement(dialect, candidates), [owner, now + leaseMs, now, limit]);
    const ids = (await selectRows(background, `${candidates} FOR UPDATE SKIP LOCKED`, [now, limit])).map((row) => Number(row.id));
    if (ids.length === 0) return [];
    await background.raw(`UPDATE ${DELIVERIES_TABLE} SET ${CLAIM_SET} WHERE id IN (${ids.map(() => '?').join(', ')})`, [owner, now + leaseMs, ...ids]);
    return background.all(knex(DELIVERIES_TABLE).whereIn('id', ids).select('*'));
  }

  /**
   * Settles an attempt; only the claim's owner may (a taken-over claim is left to its new owner). A delivery that
   * leaves the queue (delivered, failed, abandoned) promotes its entry's next one, due at `nextDueAt`.
   */
  async settle(delivery: Delivery, owner: string, settlement: Settlement, nextDueAt: number): Promise<void> {
    // A settle rolled back by a lock conflict (a deadlock with a write adding the entry's next delivery, say) runs
    // again: left unsettled, the delivery would wait out its lease and be sent a second time. Running it twice is
    // harmless: it changes the row only while this owner still holds it as 'sending'.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.settleOnce(delivery, owner, settlement, nextDueAt);
      } catch (error) {
        if (attempt >= SETTLE_ATTEMPTS || !isLockConflict(error)) throw error;
      }
    }
  }

  private async settleOnce(delivery: Delivery, owner: string, settlement: Settlement, nextDueAt: number): Promise<void> {
    const { knex, background } = this.db().sql;
    const now = Date.now();
    const [values, status] = settledValues(delivery, settlement, now);
    await background.transaction(async () => {
      const changed = await background.affected(knex(DELIVERIES_TABLE).update(values).where({ id: delivery.id, locked_by: owner, status: 'sending' }));
      if (changed === 0) return;
      await this.counters.record(background, [
        { webhookKey: delivery.webhookKey, status: 'sending', n: -1 },
        { webhookKey: delivery.webhookKey, status, n: 1 },
      ]);
      if (values.undelivered === null && delivery.entryKey !== null) await this.promoteNext(background, delivery.webhookKey, delivery.entryKey, nextDueAt);
    });
  }

  /** The entry's oldest undelivered row, made due when it is queued. */
  private async promoteNext(connection: Connection, webhookKey: string, entryKey: string, dueAt: number): Promise<void> {
    const lock = connection.dialect === 'sqlite' ? '' : ' FOR UPDATE';
    const [oldest] = await selectRows(connection,
      `SELECT id, status FROM ${DELIVERIES_TABLE} WHERE webhook_key = ? AND entry_key = ? AND undelivered = 1 ORDER BY id LIMIT 1${lock}`,
      [webhookKey, entryKey],
    );
    if (oldest?.status === 'queued') await connection.run(connection.knex(DELIVERIES_TABLE).update({ status: 'pending', next_attempt_at: dueAt }).where({ id: oldest.id, status: 'queued' }));
  }

  /** A failed (or delivered) delivery goes out again, with a fresh set of attempts. */
  async retry(id: number, dueAt = Date.now()): Promise<boolean> {
    const connection = this.db().sql;
    return connection.transaction(async () => {
      const row = await connection.first(connection.knex.from(DELIVERIES_TABLE).select('webhook_key', 'status').where('id', id).whereIn('status', ['failed', 'delivered']));
      if (!row) return false;
      const values = { status: 'pending', undelivered: 1, attempts: 0, next_attempt_at: dueAt, locked_until: null, locked_by: null };
      if ((await connection.affected(connection.knex(DELIVERIES_TABLE).update(values).where({ id, status: row.status }))) === 0) return false;
      const webhookKey = String(row.webhook_key);
      await this.counters.record(connection, [
        { webhookKey, status: String(row.status) as CountedStatus, n: -1 },
        { webhookKey, status: 'pending', n: 1 },
      ]);
      return true;
    });
  }

  /** A paused webhook's pending rows wait (`PAUSED_DUE`); resumed, they are due at `dueAt`. Touches its pending rows only. */
  async setPaused(webhookKey: string, paused: boolean, dueAt = Date.now()): Promise<void> {
    const { knex, background } = this.db().sql;
    const rows = knex(DELIVERIES_TABLE).where({ status: 'pending', webhook_key: webhookKey });
    if (paused) await background.run(rows.where('next_attempt_at', '<', PAUSED_DUE).update({ next_attempt_at: PAUSED_DUE }));
    else await background.run(rows.where('next_attempt_at', '>=', PAUSED_DUE).update({ next_attempt_at: dueAt }));
  }

  async find(id: number): Promise<Delivery | null> {
    const connection = this.db().sql;
    const row = await connection.first(connection.knex.from(DELIVERIES_TABLE).select('*').where('id', id));
    return row ? fromRow(row) : null;
  }

  /** The newest deliveries first (only failed ones with `failed`). */
  async list(options: { status?: DeliveryStatus; limit?: number } = {}): Promise<Delivery[]> {
    const connection = this.db().sql;
    const query = connection.knex.from(DELIVERIES_TABLE).select('*').orderBy('id', 'desc').limit(options.limit ?? 50);
    if (options.status) query.where('status', options.status);
    return (await connection.all(query)).map(fromRow);
  }

  /** Totals by status, from the counters (queued rows count as pending): no row of the outbox is read. */
  async counts(): Promise<DeliveryCounts> {
    return this.counters.totals();
  }

  /** Deletes delivered rows settled before `before`. Returns how many went. */
  async prune(before: number): Promise<number> {
    return this.pruneSettled('delivered', before);
  }

  /**
   * Deletes `status` rows settled before `before`, and beyond the newest `keep` of them, a batch per transaction
   * (each batch's ids locked, so processes pruning at once never count a row twice). Returns how many went.
   */
  async pruneSettled(status: 'delivered' | 'failed', before: number, keep = Infinity): Promise<number> {
    const { knex, background, dialect } = this.db().sql;
    let cutoff = before;
    if (Number.isFinite(keep)) {
      const [edge] = await selectRows(background, `SELECT next_attempt_at FROM ${DELIVERIES_TABLE} WHERE status = ? ORDER BY next_attempt_at DESC LIMIT 1 OFFSET ?`, [status, keep]);
      if (edge) cutoff = Math.max(cutoff, Number(edge.next_attempt_at) + 1);
    }
    const lock = dialect === 'sqlite' ? '' : ' FOR UPDATE SKIP LOCKED';
    let total = 0;
    for (;;) {
      const removed = await background.transaction(async () => {
        const rows = await selectRows(background,
          `SELECT id, webhook_key FROM ${DELIVERIES_TABLE} WHERE status = ? AND next_attempt_at < ? ORDER BY next_attempt_at LIMIT ${PRUNE_BATCH}${lock}`,
          [status, cutoff],
        );
        if (rows.length === 0) return 0;
        await background.run(knex(DELIVERIES_TABLE).whereIn('id', rows.map((row) => Number(row.id))).where('status', status).delete());
        await this.counters.record(background, rows.map((row) => ({ webhookKey: String(row.webhook_key), status, n: -1 })));
        return rows.length;
      });
      total += removed;
      if (removed < PRUNE_BATCH) return total;
    }
  }
}

/** The row's new values and the status it is counted under. */
function settledValues(delivery: Delivery, settlement: Settlement, now: number): [Row, CountedStatus] {
  switch (settlement.kind) {
    case 'delivered':
      return [{ status: 'delivered', undelivered: null, last_status: settlement.status, last_error: null, delivered_at: now, next_attempt_at: now, locked_until: null }, 'delivered'];
    case 'retry':
      return [{ status: 'pending', next_attempt_at: settlement.at, last_status: settlement.status, last_error: settlement.error.slice(0, 1000), locked_until: null }, 'pending'];
    case 'failed':
      return [{ status: 'failed', undelivered: null, next_attempt_at: now, last_status: settlement.status, last_error: settlement.error.slice(0, 1000), locked_until: null }, 'failed'];
    case 'released':
      // Given back unattempted (the process is stopping): due again at once, for any process.
      return [{ status: 'pending', attempts: delivery.attempts - 1, next_attempt_at: now, locked_until: null }, 'pending'];
    case 'abandoned':
      return [{ status: 'failed', undelivered: null, attempts: delivery.attempts - 1, next_attempt_at: now, last_error: settlement.reason, locked_until: null }, 'failed'];
  }
}

function fromRow(row: Row): Delivery {
  const optionalNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    id: Number(row.id),
    eventId: String(row.event_id),
    webhookKey: String(row.webhook_key),
    webhookName: String(row.webhook_name ?? ''),
    event: String(row.event),
    entryKey: row.entry_key === null || row.entry_key === undefined ? null : String(row.entry_key),
    payload: String(row.payload),
    status: String(row.status) as DeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    lastStatus: optionalNumber(row.last_status),
    lastError: row.last_error === null || row.last_error === undefined ? null : String(row.last_error),
    createdAt: Number(row.created_at),
    deliveredAt: optionalNumber(row.delivered_at),
  };
}
