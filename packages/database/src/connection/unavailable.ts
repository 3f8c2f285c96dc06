/**
 * Which driver errors mean "the database cannot answer now" rather than "this
 * query is wrong": refused or dropped connections, a server shutting down or
 * starting, a pool that found no connection in time, SQLite busy past its
 * timeout, a full disk. Those become a 503 ServiceUnavailableError the client
 * may retry; everything else keeps its own meaning (400s, or a logged 500).
 */
import { ServiceUnavailableError } from '@tessera/errors';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATE classes 08 (connection exception), 53 (insufficient resources), 57P (operator intervention). */
const PG_STATE = /^(08|53|57P)/;
/** mysql2: the server closed or killed the connection, is shutting down, or has no connection slot left. */
const MYSQL_CODES = new Set(['PROTOCOL_CONNECTION_LOST', 'ER_SERVER_SHUTDOWN', 'ER_CONNECTION_KILLED', 'ER_CON_COUNT_ERROR', 'ER_NET_READ_ERROR', 'ER_NET_READ_INTERRUPTED']);
const SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY']);
const MESSAGES = [
  /Timeout acquiring a connection/i,
  /timeout exceeded when trying to connect/i,
  /Connection terminated/i,
  /connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
  /database or disk is full/i,
  /Can't add new command when connection is in closed state/i,
];

export function isUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (error instanceof ServiceUnavailableError) return true;
  const code = String((error as { code?: unknown }).code ?? '');
  if (NETWORK_CODES.has(code) || SQLITE_CODES.has(code) || MYSQL_CODES.has(code) || PG_STATE.test(code)) return true;
  const message = String((error as { message?: unknown }).message ?? '');
  return MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * A lock conflict the database ended this statement or transaction with: a deadlock (MySQL/MariaDB 1213, PostgreSQL
 * 40P01), a lock wait past its timeout (1205; 55P03 for NOWAIT), a serialization failure (40001). The connection and
 * the query are fine; run the transaction again and it may pass. `error` may be the driver's or our 503 made of it.
 */
export function isLockConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = String((error as { code?: unknown }).code ?? '');
  if (LOCK_CONFLICT_CODES.has(code)) return true;
  return error instanceof ServiceUnavailableError && isLockConflict((error as { cause?: unknown }).cause);
}

const LOCK_CONFLICT_CODES = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', '40P01', '40001', '55P03']);

/** The 503 a transaction that ended in a lock conflict answers: it was rolled back, so trying again is safe. */
export function lockConflict(error: unknown): ServiceUnavailableError {
  const failure = new ServiceUnavailableError('This write met a concurrent one and was rolled back: nothing changed, try again');
  (failure as { cause?: unknown }).cause = error;
  return failure;
}

export function unavailable(error: unknown, during: 'query' | 'commit'): ServiceUnavailableError {
  const message = during === 'commit' ? 'The database became unavailable during this write: its outcome is unknown' : 'The database is unavailable, try again';
  const failure = new ServiceUnavailableError(message);
  (failure as { cause?: unknown }).cause = error;
  return failure;
}

/** Whether `answer` settles successfully within `timeoutMs` (`/_health`: a database that hangs is not up). */
export async function answersWithin(answer: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([answer.then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
