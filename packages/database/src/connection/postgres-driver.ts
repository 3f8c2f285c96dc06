/**
 * PostgreSQL through `pg`: the client settings every connection gets (the
 * pool's, the LISTEN connection's, the sync lock's) and the type parsers that
 * read values as Tessera wants them.
 */
import type { ClientBase, ClientConfig, QueryArrayConfig, QueryArrayResult, QueryConfig, QueryResult } from 'pg';
import type { ResolvedDatabaseConfig } from './config';

const PG_OID = { INT8: 20, NUMERIC: 1700, DATE: 1082, TIMESTAMP: 1114, TIMESTAMPTZ: 1184 };

export function postgresClientConfig(config: ResolvedDatabaseConfig): ClientConfig {
  const pg = config.postgres!;
  const base: ClientConfig = pg.connectionString
    ? { connectionString: pg.connectionString }
    : { host: pg.host ?? '127.0.0.1', port: pg.port ?? 5432, database: pg.database, user: pg.user, password: pg.password };
  if (pg.ssl !== undefined) base.ssl = pg.ssl as ClientConfig['ssl'];
  return {
    ...base,
    types: { getTypeParser: postgresTypeParser } as ClientConfig['types'],
    // A server that does not answer (down, restarting) fails the connect in bounded time: a 503, not a hang.
    // pg.Pool also bounds the wait for a free client by it.
    connectionTimeoutMillis: config.acquireTimeoutMs,
    // No JIT compilation: it pays off for long analytical queries, never for a content API's short ones.
    // A plan with many joins (a deep sort path, tables not yet analysed) crosses jit_above_cost and then
    // spends seconds compiling for a query that runs in a millisecond — per request.
    options: '-c jit=off',
  };
}

/**
 * Postgres values come back as Tessera wants them: timestamps without zone
 * read as UTC, dates as plain `YYYY-MM-DD`, numerics and bigints as strings
 * (the codec decides the JS type per attribute).
 */
function postgresTypeParser(oid: number, format?: string): (value: string) => unknown {
  if (oid === PG_OID.TIMESTAMP) return utcTimestamp;
  if (oid === PG_OID.DATE || oid === PG_OID.INT8 || oid === PG_OID.NUMERIC) return asText;
  // pg asks for a parser for every column of every result: the driver's own types are looked up once, not per
  // call (a require() per column cost a quarter of a PostgreSQL get-one). Loaded on first use, not at the top:
  // a SQLite app never loads the pg driver (faster boot).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  pgTypes ??= (require('pg') as typeof import('pg')).types;
  return pgTypes.getTypeParser(oid, (format ?? 'text') as 'text');
}

/**
 * The type parsers of a read whose rows the codec decodes (`Connection.values`):
 * timestamps stay PostgreSQL's text, which the codec turns into Strapi's ISO string with slices
 * (iso-timestamps.ts `sqlTimestampToIso`). Parsing each into a Date only to print it again cost an eighth of a
 * populate=* request. Every other read — app code's raw SQL included — still gets Dates, as from knex.
 */
export const DECODED_READ_TYPES = {
  getTypeParser: (oid: number, format?: string) => (oid === PG_OID.TIMESTAMP ? asText : postgresTypeParser(oid, format)),
} as ClientConfig['types'];

let pgTypes: typeof import('pg').types | undefined;
const utcTimestamp = (value: string): Date => new Date(`${value.replace(' ', 'T')}Z`);
const asText = (value: string): string => value;

/**
 * Runs one query through pg's callback API. pg's promise API (`client.query(config)` without a callback) sets the
 * query's callback after creating the query, and with that every row of every answer outlived two young-generation
 * collections under load. Measured in a bare pg loop, 32 concurrent 25-row reads: ~45 KB promoted to the old
 * generation per query with the callback set late, none with it passed at creation; on the bench's PostgreSQL list,
 * 11% of Tessera's time went to garbage collection against the bare-pg baseline's 4%.
 *
 * A failure's stack is taken again here, as pg's promise API does, so it leads back through the awaiting callers
 * (V8's async frames) rather than ending in the socket's read callback.
 */
export async function pgQuery(client: ClientBase, config: QueryArrayConfig): Promise<QueryArrayResult>;
export async function pgQuery(client: ClientBase, config: QueryConfig | string): Promise<QueryResult>;
export async function pgQuery(client: ClientBase, config: QueryConfig | QueryArrayConfig | string): Promise<QueryResult | QueryArrayResult> {
  try {
    return await new Promise((resolve, reject) => {
      const done = (error: Error | undefined, result: QueryResult | QueryArrayResult): void => (error ? reject(error) : resolve(result));
      if (typeof config === 'string') client.query(config, done);
      else client.query(config as QueryConfig, done);
    });
  } catch (error) {
    if (error instanceof Error) Error.captureStackTrace(error);
    throw error;
  }
}
