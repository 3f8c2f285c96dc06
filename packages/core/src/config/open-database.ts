/**
 * The app's database from `config/database`: connected and its schema synced (additively), with one log line
 * for what changed. Refuses the usual slip when moving to PostgreSQL: `DATABASE_URL` set while the client is
 * still SQLite.
 */
import { ConfigurationError } from '@tessera/errors';
import { Database, LARGE_TYPE, resolveDatabaseConfig, type DatabaseConfig, type DatabaseModel } from '@tessera/database';
import type { Logger } from '../logger';

const DEFAULT_DATABASE: DatabaseConfig = { connection: { client: 'sqlite', connection: { filename: '.tmp/data.db' } } } as DatabaseConfig;

export async function openDatabase(
  config: DatabaseConfig | undefined,
  appDir: string,
  model: DatabaseModel,
  log: Logger,
): Promise<Database> {
  const resolved = resolveDatabaseConfig(config ?? DEFAULT_DATABASE, appDir);
  if (resolved.dialect === 'sqlite' && process.env.DATABASE_URL) {
    throw new ConfigurationError('DATABASE_URL is set, but the database client is SQLite: set DATABASE_CLIENT=postgres to use that server, or unset DATABASE_URL', 'config/database');
  }
  const database = new Database(resolved, model);
  try {
    await database.sql.learnServer();
    const report = await database.sync();
    // One line at info; what exactly changed at debug.
    if (report.changes.length > 0) log.info(`schema: ${report.summary}`);
    for (const change of report.changes) log.debug(`schema: ${change}`);
    for (const warning of report.warnings) log.warn(`schema: ${warning}`);
    // Statistics help the planner; lacking the right to gather them (another role owns a table) must not stop the boot.
    const analysed = await database.analyzeUnanalysedTables().catch((error: Error) => {
      log.warn(`database: could not analyse the tables PostgreSQL has no statistics for (${error.message}); plans may be slower until it does`);
      return [];
    });
    // Advice, once per boot: a failed check must not stop it.
    for (const uid of await database.largeUnsearchedTypes().catch(() => [])) {
      log.warn(`search: ${uid} holds ${LARGE_TYPE.toLocaleString('en-US')} entries or more and no search option: a $contains/$containsi/_q filter on its text attributes reads every row; see docs/content-api.md, Search and index options`);
    }
    if (analysed.length > 0) log.info(`database: analysed ${analysed.length} tables PostgreSQL had no statistics for (its plans need them): ${analysed.join(', ')}`);
  } catch (error) {
    throw new ConfigurationError(`cannot prepare the database (${database.description}): ${(error as Error).message}`);
  }
  return database;
}
