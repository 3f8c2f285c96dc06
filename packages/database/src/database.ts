/**
 * The database: connection, metadata, schema sync, repositories and
 * lifecycles for one app. Created by the kernel; no global state.
 */
import { ConfigurationError } from '@tessera/errors';
import { Connection } from './connection/connection';
import { describeDatabase, type ResolvedDatabaseConfig } from './connection/config';
import { buildMetadata, type EntityMetadata, type Metadata } from './metadata/metadata';
import type { Component, ContentType } from './model/types';
import { syncSchema, type SyncReport } from './schema/sync';
import { EntityReader } from './sql/reader';
import { EntityWriter } from './sql/writer';
import { LinksWriter } from './sql/links-writer';
import { Lifecycles } from './lifecycles';
import { EntityRepository, type EngineParts } from './repository';
import { advisoryLock } from './relations/link-sql';

export interface DatabaseModel {
  contentTypes: ContentType[];
  components: Component[];
}

export class Database {
  readonly connection: Connection;
  readonly metadata: Metadata;
  readonly lifecycles = new Lifecycles();
  readonly description: string;
  private readonly parts: EngineParts;
  private readonly repositories = new Map<string, EntityRepository>();

  constructor(config: ResolvedDatabaseConfig, model: DatabaseModel) {
    this.metadata = buildMetadata(model.contentTypes, model.components);
    this.connection = new Connection(config);
    this.connection.readExactIntegers(bigIntegerColumns(this.metadata));
    this.description = describeDatabase(config);
    this.parts = {
      connection: this.connection,
      metadata: this.metadata,
      reader: new EntityReader(this.connection, this.metadata),
      writer: new EntityWriter(this.connection),
      links: new LinksWriter(this.connection, this.metadata),
      lifecycles: this.lifecycles,
    };
    for (const [uid, entity] of this.metadata) this.repositories.set(uid, new EntityRepository(this.parts, entity));
  }

  get dialect() {
    return this.connection.dialect;
  }

  /** Creates missing tables, columns and indexes; never drops anything. */
  async sync(): Promise<SyncReport> {
    return syncSchema(this.connection, this.metadata);
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
    return this.connection.transaction(work);
  }

  /** Inside a transaction: waits for, then holds until commit, a lock on each name (see advisoryLock). */
  lock(names: string[]): Promise<void> {
    return advisoryLock(this.connection, names);
  }

  async destroy(): Promise<void> {
    await this.connection.destroy();
  }
}

function bigIntegerColumns(metadata: Metadata): string[] {
  const columns = new Set<string>();
  for (const entity of metadata.values()) {
    for (const field of entity.columns.values()) if (field.type === 'biginteger') columns.add(field.column);
  }
  return [...columns];
}
