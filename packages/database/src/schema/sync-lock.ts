/**
 * Schema sync runs once when several processes boot at the same time: each
 * takes a lock first, the others wait for it, then find nothing left to do.
 * PostgreSQL: a session advisory lock on a dedicated connection (so the sync
 * itself may use every pooled one). SQLite: a lock file beside the database,
 * holding the owner's pid; a file whose owner is gone is taken over.
 * MySQL: GET_LOCK on a dedicated connection, as on PostgreSQL.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ClientConfig } from 'pg';
import { ConfigurationError } from '@tessera/errors';

const WAIT_STEP_MS = 25;
const GIVE_UP_MS = 120_000;

export async function withPostgresSyncLock<T>(config: ClientConfig, key: string, work: () => Promise<T>): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Client } = require('pg') as typeof import('pg');
  const client = new Client(config);
  // The server going away while the lock is held must fail the boot through its statements, not end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

export async function withMysqlSyncLock<T>(options: Record<string, unknown>, key: string, work: () => Promise<T>): Promise<T> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mysql = require('mysql2/promise') as typeof import('mysql2/promise');
  const client = await mysql.createConnection(options);
  client.on('error', () => undefined);
  try {
    const [rows] = await client.query('SELECT GET_LOCK(?, ?) AS locked', [key.slice(0, 64), GIVE_UP_MS / 1000]);
    if (Number((rows as Array<{ locked: unknown }>)[0]?.locked) !== 1) throw new ConfigurationError(`another process holds the schema-sync lock ${key}`);
    return await work();
  } finally {
    await client.query('SELECT RELEASE_LOCK(?)', [key.slice(0, 64)]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

export async function withSqliteSyncLock<T>(databaseFile: string, work: () => Promise<T>): Promise<T> {
  if (databaseFile === ':memory:') return work();
  const lockFile = `${databaseFile}.sync-lock`;
  // The lock comes before the first connection, which is what creates the database's folder otherwise.
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (ownerIsGone(lockFile)) {
        fs.rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() - started > GIVE_UP_MS) throw new ConfigurationError(`another process holds ${lockFile}; remove it if no Tessera process is starting`);
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

function ownerIsGone(lockFile: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(lockFile, 'utf8'));
  } catch {
    return false; // being written right now: wait
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
