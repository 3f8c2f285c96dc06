/**
 * Value codec: attribute values ↔ column values, per dialect.
 *
 * Storage follows what Strapi v4 writes, so existing databases read back
 * unchanged: on SQLite, datetimes are epoch milliseconds and booleans 0/1; on
 * Postgres, timestamps without zone (bound as UTC ISO strings) and jsonb; on
 * MySQL, datetime(6) in UTC (bound as `YYYY-MM-DD HH:MM:SS.mmm`) and json.
 * Inputs reaching `encode` were validated already; `decode` must accept
 * whatever an existing database holds.
 */
import type { Dialect } from '../connection/config';
import type { ColumnField } from '../metadata/metadata';
import { mysqlDateTime } from '../connection/mysql-driver';
import { epochMillisToIso, sqlTimestampToIso } from './iso-timestamps';

export { epochMillisToIso, sqlTimestampToIso } from './iso-timestamps';

export type Decoder = (raw: unknown) => unknown;
export type Encoder = (value: unknown) => unknown;

const identity: Decoder = (raw) => (raw === undefined ? null : raw);

export function decoderFor(field: ColumnField, dialect: Dialect): Decoder {
  switch (field.type) {
    case 'increments':
    case 'integer':
      return decodeInteger;
    case 'float':
    case 'decimal':
      return decodeNumber;
    case 'biginteger':
      return (raw) => (raw === null || raw === undefined ? null : String(raw));
    case 'boolean':
      return decodeBoolean;
    case 'datetime':
    case 'timestamp':
      return decodeDateTime;
    case 'date':
      return decodeDate;
    case 'time':
      return decodeTime;
    case 'json':
      // SQLite and MySQL/MariaDB hand JSON back as text (mysql-driver.ts keeps MySQL 8's parsed form out).
      return dialect === 'postgres' ? decodeJsonValue : decodeJsonText;
    default:
      return identity;
  }
}

export function encoderFor(field: ColumnField, dialect: Dialect): Encoder {
  switch (field.type) {
    case 'boolean':
      return dialect === 'sqlite' ? (v) => (v === null ? null : v ? 1 : 0) : (v) => (v === null ? null : Boolean(v));
    case 'datetime':
    case 'timestamp':
      if (dialect === 'mysql') return (v) => nullable(v, (d) => mysqlDateTime(toDate(d)));
      return dialect === 'sqlite' ? (v) => nullable(v, (d) => toDate(d).getTime()) : (v) => nullable(v, (d) => toDate(d).toISOString());
    case 'json':
      return (v) => (v === null || v === undefined ? null : JSON.stringify(v));
    case 'biginteger':
      return (v) => nullable(v, (n) => String(n));
    case 'time':
      return (v) => nullable(v, (t) => normalizeTime(String(t)));
    case 'string':
    case 'text':
    case 'richtext':
    case 'email':
    case 'password':
    case 'uid':
    case 'enumeration':
      // Strapi's string fields store the value's text (`toDB`): server code writes `related_id: 7` and reads "7"
      // (SQLite would otherwise keep the number as REAL, "7.0", and PostgreSQL would refuse it).
      return (v) => (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : v === undefined ? null : v);
    default:
      return (v) => (v === undefined ? null : v);
  }
}

function nullable(value: unknown, convert: (value: unknown) => unknown): unknown {
  return value === null || value === undefined ? null : convert(value);
}

/**
 * Years both databases store: Postgres has no year 0 and its ISO input
 * cannot take JavaScript's six-digit years, so anything outside 1..9999
 * would be a database error (a 500) rather than a value.
 */
export function isStorableYear(date: Date): boolean {
  const year = date.getUTCFullYear();
  return year >= 1 && year <= 9999;
}

export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  const text = String(value);
  // SQL-style "YYYY-MM-DD HH:MM:SS" without zone is UTC, as Strapi writes it.
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(text) && !/[zZ]|[+-]\d{2}:?\d{2}$/.test(text)) {
    return new Date(`${text.replace(' ', 'T')}Z`);
  }
  if (/^\d+$/.test(text)) return new Date(Number(text));
  return new Date(text);
}

function decodeInteger(raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  return typeof raw === 'number' ? raw : Number(raw);
}

function decodeNumber(raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  return typeof raw === 'number' ? raw : Number(raw);
}

function decodeBoolean(raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'number') return raw !== 0;
  return raw === '1' || raw === 'true' || raw === 't';
}

function decodeDateTime(raw: unknown): unknown {
  if (raw === null || raw === undefined || raw === '') return null;
  if (typeof raw === 'string') {
    const iso = sqlTimestampToIso(raw);
    if (iso !== undefined) return iso;
  }
  if (typeof raw === 'number') {
    // Epoch milliseconds, how SQLite stores them.
    const iso = epochMillisToIso(raw);
    if (iso !== undefined) return iso;
  }
  const date = typeof raw === 'number' ? new Date(raw) : toDate(raw);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function decodeDate(raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(raw)) return raw;
  const date = toDate(raw);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}

function decodeTime(raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  return normalizeTime(String(raw));
}

/** `HH:mm`, `HH:mm:ss`, `HH:mm:ss.S…` → `HH:mm:ss.SSS`, as Strapi answers. */
export function normalizeTime(text: string): string {
  const match = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?/.exec(text);
  if (!match) return text;
  const [, hours, minutes, seconds = '00', fraction = ''] = match;
  return `${hours}:${minutes}:${seconds}.${fraction.padEnd(3, '0').slice(0, 3)}`;
}

function decodeJsonText(raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function decodeJsonValue(raw: unknown): unknown {
  return raw === undefined ? null : raw;
}
