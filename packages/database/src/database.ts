/**
 * The database: connection, metadata, schema sync, repositories and
 * lifecycles for one app. Created by the kernel; no global state.
 */
import { randomUUID } from 'node:crypto';
import { ConfigurationError } from '@tessera/errors';
import type { Knex } from 'knex';
import { Connection } from './connection/connection';
import { strapiKnex } from './connection/strapi-knex';
import { describeDatabase, type ResolvedDatabaseConfig } from './connection/config';
import { buildMetadata, type EntityMetadata, type Metadata } from './metadata/metadata';
import type { Component, ContentType } from './model/types';
import { planTables, syncSchema, type SyncReport } from './schema/sync';
import { analyzeUnanalysedTables } from './schema/planner-statistics';
import { largeUnsearchedTypes } from './schema/search-advice';
import { EntityReader } from './sql/reader';
import { EntityWriter } from './sql/writer';
import { LinksWriter } from './sql/links-writer';
import { Lifecycles, type LifecycleModel } from './lifecycles';
import { EntityRepository, type EngineParts } from './repository';
import { advisoryLock } from './relations/link-sql';
import { fillNull } from './sql/fill-null';
import { fileLinks, type FileLink } from './relations/media-links';
import type { TableDefinition } from './schema/declared-tables';
import { WindowCounters } from './counters/window-counters';
import { PageMarks } from './sql/page-marks';
import { CountCache } from './sql/count-cache';
import { withMysqlSyncLock, withPostgresSyncLock, withSqliteSyncLock } from './schema/sync-lock';
import { mysqlDriverOptions } from './connection/mysql-driver';
import { postgresClientConfig } from './connection/postgres-driver';
import { WriteNotifications, writeChannel, type WriteNotificationTarget } from './connection/write-notifications';
import { MysqlWriteVersions } from './connection/mysql-write-versions';

export interface DatabaseModel {
  contentTypes: ContentType[];
  components: Component[];
  /** Tables plugins own, synced with the rest (schema/declared-tables.ts). */
  tables?: TableDefinition[];
}

export class Database {
  /** Tessera's own connection: pooled statements, transactions, write tracking (connection/connection.ts). */
  readonly sql: Connection;
  /** `strapi.db.connection`: a knex instance running on `sql`, for Strapi code (connection/strapi-knex.ts). */
  readonly connection: Knex;
  readonly metadata: Metadata;
  readonly lifecycles = new Lifecycles();
  readonly description: string;
  /** List totals, reused until a write to a type they depend on commits (here or in another process). */
  readonly counts: CountCache;
  private readonly parts: EngineParts;
  private readonly repositories = new Map<string, EntityRepository>();
  private notifications: WriteNotifications | MysqlWriteVersions | undefined;
  private readonly writeListeners = new Set<(uid: string) => void>();
  private readonly declaredTables: TableDefinition[];

  constructor(
    private readonly config: ResolvedDatabaseConfig,
    model: DatabaseModel,
  ) {
    this.metadata = buildMetadata(model.contentTypes, model.components);
    this.declaredTables = model.tables ?? [];
    this.sql = new Connection(config);
    this.connection = strapiKnex(this.sql, () => {
      for (const uid of this.metadata.keys()) this.sql.markWritten(uid);
    });
    this.sql.readExactIntegers(bigIntegerColumns(this.metadata));
    this.description = describeDatabase(config);
    const connection = this.sql;
    this.counts = new CountCache({
      hasCountHooks: (uid) => this.lifecycles.has(uid, 'beforeCount', 'afterCount'),
      inTransaction: () => connection.inTransaction(),
      changedElsewhere: connection.dialect === 'sqlite' ? () => connection.sqliteChangedSinceLastCheck() : undefined,
      heardUpToNow: connection.dialect === 'sqlite' ? undefined : () => this.otherProcessesHeard(),
    });
    this.parts = {
      models: lifecycleModels(model, this.metadata),
      connection: this.sql,
      metadata: this.metadata,
      reader: new EntityReader(this.sql, this.metadata, new PageMarks(this.counts)),
      writer: new EntityWriter(this.sql),
      links: new LinksWriter(this.sql, this.metadata),
      lifecycles: this.lifecycles,
    };
    for (const [uid, entity] of this.metadata) this.repositories.set(uid, new EntityRepository(this.parts, entity));
    connection.onCommittedWrite((uid) => this.committedWrite(uid));
    if (connection.dialect !== 'sqlite') connection.confirmWritesHeardWith(() => this.otherProcessesHeard());
  }

  /**
   * Hears of every committed write, by content type uid: this process's at
   * once, other processes' as their notifications arrive (PostgreSQL; MySQL by polling). Caches
   * of plugins (roles and permissions, say) subscribe here to stay coherent;
   * the uid `*` means "anything may have changed" (the notification channel was
   * down and is back).
   */
  onCommittedWrite(listener: (uid: string) => void): () => void {
    this.writeListeners.add(listener);
    return () => this.writeListeners.delete(listener);
  }

  private committedWrite(uid: string): void {
    this.sql.writeFinished();
    this.counts.written(uid);
    for (const listener of this.writeListeners) listener(uid);
  }

  /**
   * PostgreSQL: tell other processes of committed writes and hear theirs
   * (LISTEN/NOTIFY), so caches stay coherent across processes and hosts.
   */
  async listenForWrites(): Promise<void> {
    if (this.dialect === 'mysql') return this.pollForWrites();
    if (this.dialect !== 'postgres' || this.notifications) return;
    const channel = writeChannel(this.sql.schema);
    const sender = randomUUID();
    this.sql.notifyWritesOn(channel, sender);
    this.notifications = new WriteNotifications(postgresClientConfig(this.config), channel, sender, this.notificationTarget());
    await this.notifications.start();
  }

  /** MySQL/MariaDB: the same through a polled table of write versions (no LISTEN/NOTIFY there). */
  private async pollForWrites(): Promise<void> {
    if (this.notifications) return;
    const versions = new MysqlWriteVersions(mysqlDriverOptions(this.config.mysql!, this.config.acquireTimeoutMs), this.notificationTarget());
    this.notifications = versions;
    this.sql.announceWritesWith((types) => versions.bump(this.sql, types));
    await versions.start();
  }

  /** Once every other process's write committed before the call is heard (heard-barrier.ts); at once before listening starts. */
  private async otherProcessesHeard(): Promise<void> {
    await this.notifications?.heardUpToNow();
  }

  private notificationTarget(): WriteNotificationTarget {
    return {
      written: (uid) => {
        this.sql.remoteWriteHeard();
        this.committedWrite(uid);
      },
      setCoherent: (coherent) => {
        this.counts.setCoherent(coherent);
        this.sql.setWritesHeard(coherent);
        // Back after an outage: notifications may have been missed, so every cache hears "anything changed".
        if (coherent) for (const listener of this.writeListeners) listener('*');
      },
    };
  }

  get dialect() {
    return this.sql.dialect;
  }

  /** Creates missing tables, columns and indexes; never drops anything. */
  async sync(): Promise<SyncReport> {
    // Several processes booting at once: one syncs, the others wait and then find nothing to do.
    const sync = () => syncSchema(this.sql, this.metadata, this.declaredTables);
    if (this.dialect === 'sqlite') return withSqliteSyncLock(this.config.sqlite!.filename, sync);
    if (this.dialect === 'mysql') {
      const options = mysqlDriverOptions(this.config.mysql!, this.config.acquireTimeoutMs);
      return withMysqlSyncLock(options, `tessera:schema-sync:${this.config.mysql!.database ?? ''}`, sync);
    }
    return withPostgresSyncLock(postgresClientConfig(this.config), `tessera:schema-sync:${this.sql.schema ?? 'public'}`, sync);
  }

  /** PostgreSQL: analyses the model's tables that hold rows but were never analysed (planner-statistics.ts); returns their names. */
  async analyzeUnanalysedTables(): Promise<string[]> {
    return analyzeUnanalysedTables(this.sql, [...planTables(this.metadata, this.dialect, this.declaredTables).keys()]);
  }

  /** Content types of LARGE_TYPE rows or more whose text attributes have no search option (schema/search-advice.ts). */
  largeUnsearchedTypes(): Promise<string[]> {
    return largeUnsearchedTypes(this.sql, this.metadata);
  }

  query(uid: string): EntityRepository {
    const repository = this.repositories.get(uid);
    if (!repository) throw new ConfigurationError(`no content type or component "${uid}"`);
    return repository;
  }

  entity(uid: string): EntityMetadata {
    return this.query(uid).entity;
  }

  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  /** Inside a transaction: waits for, then holds until commit, a lock on each name (see advisoryLock). */
  lock(names: string[]): Promise<void> {
    return advisoryLock(this.sql, names);
  }

  /** The entries linked to each of `fileIds` (`populate=related` on files), in each file's link order. */
  fileLinks(fileIds: number[]): Promise<FileLink[]> {
    return fileLinks(this.sql, fileIds);
  }

  /** Fixed-window counters in a table declared with `windowCounterTable` (rate limits shared by every process). */
  windowCounters(table: string): WindowCounters {
    return new WindowCounters(this.sql, table);
  }

  /** Gives `attribute` the value `value` on every row of `uid` where it is NULL, in one statement (a boot-time data step); returns how many rows. */
  fillNull(uid: string, attribute: string, value: unknown): Promise<number> {
    return fillNull(this.sql, this.entity(uid), attribute, value);
  }

  async destroy(): Promise<void> {
    await this.notifications?.stop();
    await this.sql.destroy();
  }
}

function bigIntegerColumns(metadata: Metadata): string[] {
  const columns = new Set<string>();
  for (const entity of metadata.values()) {
    for (const field of entity.columns.values()) if (field.type === 'biginteger') columns.add(field.column);
  }
  return [...columns];
}

/** `event.model` of each content type and component, made once: Strapi's uid, names, table and attributes. */
function lifecycleModels(model: DatabaseModel, metadata: Metadata): Map<string, LifecycleModel> {
  const models = new Map<string, LifecycleModel>();
  for (const type of [...model.contentTypes, ...model.components]) {
    const entity = metadata.get(type.uid);
    if (!entity) continue;
    const attributes: Record<string, unknown> = { id: { type: 'increments' }, ...type.attributes };
    for (const name of ['createdAt', 'updatedAt', 'publishedAt']) {
      const column = entity.columns.get(name);
      if (column && attributes[name] === undefined) attributes[name] = column.attribute;
    }
    models.set(type.uid, { uid: type.uid, singularName: entity.singularName, tableName: entity.tableName, kind: entity.kind, attributes });
  }
  return models;
}
