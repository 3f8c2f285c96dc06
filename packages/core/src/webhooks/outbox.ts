/**
 * The outbox: one row per event and webhook in `tessera_webhook_deliveries`,
 * inserted by the write's own transaction (so it exists exactly when the
 * write committed), then claimed, attempted and settled by dispatchers.
 *
 * Claiming is one UPDATE over the due rows: on PostgreSQL the candidates are
 * locked `FOR UPDATE SKIP LOCKED`, so concurrent processes never claim the
 * same row; on SQLite the statement runs under the database's single write
 * lock. A claim is a lease: a process that dies mid-attempt loses it after
 * `leaseMs` and another takes the delivery over (at least once).
 *
 * Order per entry: a delivery is due only when no earlier delivery for the
 * same webhook and entry is still pending or in flight.
 *
 * What the dispatcher runs (has-due, claim, settle, prune) are background
 * statements (`connection.background`: outside any request's transaction, and
 * unseen by query-count listeners); `add` joins the write's transaction.
 */
import type { Database, Row } from '@tessera/database';
import { DELIVERIES_TABLE } from './tables';

export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

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

export interface DeliveryCounts {
  pending: number;
  sending: number;
  delivered: number;
  failed: number;
}

export class Outbox {
  constructor(private readonly db: () => Database) {}

  /** Inserts the deliveries in the current transaction (if any): they commit or roll back with it. */
  async add(deliveries: NewDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    const connection = this.db().sql;
    const now = Date.now();
    const rows = deliveries.map((delivery) => ({
      event_id: delivery.eventId,
      webhook_key: delivery.webhookKey,
      webhook_name: delivery.webhookName,
      event: delivery.event,
      entry_key: delivery.entryKey,
      payload: delivery.payload,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      created_at: now,
    }));
    await connection.run(connection.knex(DELIVERIES_TABLE).insert(rows));
  }

  /** Is anything due? A cheap read first, so idle polls never take SQLite's write lock. */
  async hasDue(now: number): Promise<boolean> {
    const { knex, background } = this.db().sql;
    const due = knex
      .from(DELIVERIES_TABLE)
      .select('id')
      .where((where) => where.where('status', 'pending').andWhere('next_attempt_at', '<=', now))
      .orWhere((where) => where.where('status', 'sending').andWhere('locked_until', '<=', now))
      .limit(1);
    return (await background.all(due)).length > 0;
  }

  /** Claims up to `limit` due deliveries for `owner` until `now + leaseMs`; each claim counts as an attempt. */
  async claim(limit: number, owner: string, now: number, leaseMs: number): Promise<Delivery[]> {
    const connection = this.db().sql;
    if (connection.dialect === 'mysql') return this.claimMysql(limit, owner, now, leaseMs);
    const lock = connection.dialect === 'postgres' ? 'FOR UPDATE OF c SKIP LOCKED' : '';
    const sql = `UPDATE ${DELIVERIES_TABLE} SET status = 'sending', attempts = attempts + 1, locked_by = ?, locked_until = ?
      WHERE id IN (
        SELECT c.id FROM ${DELIVERIES_TABLE} c
        WHERE ((c.status = 'pending' AND c.next_attempt_at <= ?) OR (c.status = 'sending' AND c.locked_until <= ?))
          AND NOT EXISTS (
            SELECT 1 FROM ${DELIVERIES_TABLE} e
            WHERE e.webhook_key = c.webhook_key AND e.entry_key = c.entry_key AND e.id < c.id AND e.status IN ('pending', 'sending'))
        ORDER BY c.id LIMIT ? ${lock})
      RETURNING *`;
    const rows = await connection.background.run(connection.knex.raw(sql, [owner, now + leaseMs, now, now, limit]));
    return rows.map(fromRow).sort((a, b) => a.id - b.id);
  }

  /**
   * MySQL/MariaDB: no RETURNING, and an UPDATE may not read its own table in a subquery. One transaction on one
   * pooled connection: the due ids locked FOR UPDATE SKIP LOCKED (MariaDB 10.6+, MySQL 8), then claimed and read.
   */
  private async claimMysql(limit: number, owner: string, now: number, leaseMs: number): Promise<Delivery[]> {
    const { knex, background } = this.db().sql;
    const rows = await background.transaction(async () => {
      const due = await background.run(
        knex.raw(
          `SELECT c.id FROM ${DELIVERIES_TABLE} c
            WHERE ((c.status = 'pending' AND c.next_attempt_at <= ?) OR (c.status = 'sending' AND c.locked_until <= ?))
              AND NOT EXISTS (
                SELECT 1 FROM ${DELIVERIES_TABLE} e
                WHERE e.webhook_key = c.webhook_key AND e.entry_key = c.entry_key AND e.id < c.id AND e.status IN ('pending', 'sending'))
            ORDER BY c.id LIMIT ? FOR UPDATE SKIP LOCKED`,
          [now, now, limit],
        ),
      );
      const ids = due.map((row) => Number(row.id));
      if (ids.length === 0) return [];
      await background.run(knex(DELIVERIES_TABLE).whereIn('id', ids).update({ status: 'sending', attempts: knex.raw('attempts + 1'), locked_by: owner, locked_until: now + leaseMs }));
      return background.run(knex(DELIVERIES_TABLE).whereIn('id', ids).select('*'));
    });
    return rows.map(fromRow).sort((a, b) => a.id - b.id);
  }

  /** Settles an attempt that got a 2xx; only the claim's owner may (a taken-over claim is left to its new owner). */
  async delivered(delivery: Delivery, owner: string, status: number): Promise<void> {
    const connection = this.db().sql;
    await connection.background.run(
      connection
        .knex(DELIVERIES_TABLE)
        .update({ status: 'delivered', last_status: status, last_error: null, delivered_at: Date.now(), locked_until: null })
        .where({ id: delivery.id, locked_by: owner, status: 'sending' }),
    );
  }

  /** Settles a failed attempt: pending again at `retryAt`, or failed for good (kept, retryable) when null. */
  async attemptFailed(delivery: Delivery, owner: string, status: number | null, error: string, retryAt: number | null): Promise<void> {
    const connection = this.db().sql;
    const values: Row = { last_status: status, last_error: error.slice(0, 1000), locked_until: null };
    if (retryAt === null) values.status = 'failed';
    else Object.assign(values, { status: 'pending', next_attempt_at: retryAt });
    await connection.background.run(connection.knex(DELIVERIES_TABLE).update(values).where({ id: delivery.id, locked_by: owner, status: 'sending' }));
  }

  /** Gives a claim back unattempted (the process is stopping): due again at once, for any process. */
  async release(delivery: Delivery, owner: string): Promise<void> {
    const connection = this.db().sql;
    await connection.background.run(
      connection
        .knex(DELIVERIES_TABLE)
        .update({ status: 'pending', attempts: delivery.attempts - 1, next_attempt_at: Date.now(), locked_until: null })
        .where({ id: delivery.id, locked_by: owner, status: 'sending' }),
    );
  }

  /** Marks a delivery failed without an attempt (its webhook is gone or disabled). */
  async abandon(delivery: Delivery, owner: string, reason: string): Promise<void> {
    const connection = this.db().sql;
    await connection.background.run(
      connection
        .knex(DELIVERIES_TABLE)
        .update({ status: 'failed', attempts: delivery.attempts - 1, last_error: reason, locked_until: null })
        .where({ id: delivery.id, locked_by: owner }),
    );
  }

  /** A failed (or delivered) delivery goes out again, with a fresh set of attempts. */
  async retry(id: number): Promise<boolean> {
    const connection = this.db().sql;
    const changed = await connection.affected(
      connection
        .knex(DELIVERIES_TABLE)
        .update({ status: 'pending', attempts: 0, next_attempt_at: Date.now(), locked_until: null, locked_by: null })
        .where('id', id)
        .whereIn('status', ['failed', 'delivered']),
    );
    return changed > 0;
  }

  /** Deletes delivered rows settled before `before` (failed ones are kept until retried). Returns how many went. */
  async prune(before: number): Promise<number> {
    const connection = this.db().sql;
    return connection.background.affected(connection.knex(DELIVERIES_TABLE).where('status', 'delivered').andWhere('delivered_at', '<', before).delete());
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

  async counts(): Promise<DeliveryCounts> {
    const connection = this.db().sql;
    const rows = await connection.all(connection.knex.from(DELIVERIES_TABLE).select('status').count({ n: '*' }).groupBy('status'));
    const counts: DeliveryCounts = { pending: 0, sending: 0, delivered: 0, failed: 0 };
    for (const row of rows) if (String(row.status) in counts) counts[String(row.status) as DeliveryStatus] = Number(row.n);
    return counts;
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
