/**
 * `db.query(uid)`: the query engine for one content type, with its
 * lifecycles. Each write — row, relations, components and every hook — runs
 * in one transaction, so a failure anywhere leaves nothing half-written.
 *
 * Every method takes either a compiled plan (`{ query }`, what the content
 * API passes) or Strapi v4's query-engine parameters (`{ where, select,
 * orderBy, limit, offset, populate }`, what app code passes), so Strapi code
 * calling `strapi.db.query(uid)` runs unchanged. The engine form is trusted
 * and not validated, as in Strapi.
 */
import { NotFoundError } from '@tessera/errors';
import type { Connection } from './connection/connection';
import type { ColumnField, EntityMetadata, Metadata } from './metadata/metadata';
import type { EntityQuery, Page } from './query/plan';
import { compileQuery, type CompileOptions, type QueryParams } from './query/compile-params';
import { idOfWhere, isCompiled, resolveEngineParams, type EngineParams, type ResolvedRead } from './query/engine-params';
import type { Entity, EntityReader } from './sql/reader';
import type { EntityWriter } from './sql/writer';
import type { LinksWriter } from './sql/links-writer';
import type { LifecycleAction, Lifecycles } from './lifecycles';

export interface FindManyParams {
  query: EntityQuery;
  page?: Page;
}

export interface FindOneParams {
  query: EntityQuery;
  id: number;
}

export interface WriteParams {
  /** Attribute values (columns, relations, components), validated by the caller. */
  data: Record<string, unknown>;
  /** What to read back; every column when omitted. */
  query?: EntityQuery;
}

/** Strapi v4's write parameters: `data` plus what to read back. */
export interface EngineWriteParams extends EngineParams {
  data: Record<string, unknown>;
}

export interface EngineParts {
  connection: Connection;
  metadata: Metadata;
  reader: EntityReader;
  writer: EntityWriter;
  links: LinksWriter;
  lifecycles: Lifecycles;
}

export class EntityRepository {
  private readonly allColumnsQuery: EntityQuery;

  constructor(
    private readonly parts: EngineParts,
    readonly entity: EntityMetadata,
  ) {
    this.allColumnsQuery = {
      entity,
      fields: entity.allColumns,
      where: null,
      sort: [{ path: [], field: entity.columns.get('id')!, direction: 'asc' }],
      populate: new Map(),
      publicationState: 'preview',
    };
  }

  /** Compiles Strapi-style parameters against this entity (see compile-params.ts). */
  plan(params: QueryParams = {}, options: CompileOptions = {}): EntityQuery {
    return compileQuery(params, this.entity, this.parts.metadata, { defaultPublicationState: 'preview', ...options });
  }

  /** Every column (private ones included), drafts included: for trusted internal reads. */
  get everything(): EntityQuery {
    return this.allColumnsQuery;
  }

  async findMany(params: FindManyParams | EngineParams = {}): Promise<Entity[]> {
    const { query, page } = this.resolve(params);
    return this.around('FindMany', params, () => this.parts.reader.findMany(query, page));
  }

  /** By id (`{ query, id }`), or the first entry matching Strapi's `{ where }`. */
  async findOne(params: FindOneParams | EngineParams): Promise<Entity | null> {
    if (isCompiled(params) && 'id' in params) return this.around('FindOne', params, () => this.parts.reader.findById(params.query, params.id));
    const { query, page } = this.resolve(params);
    return this.around('FindOne', params, async () => (await this.parts.reader.findMany(query, { limit: 1, offset: page?.offset ?? 0 }))[0] ?? null);
  }

  async count(params: { query: EntityQuery } | EngineParams = {}): Promise<number> {
    const { query } = this.resolve(params);
    return this.around('Count', params, () => this.parts.reader.count(query));
  }

  async create(params: WriteParams | EngineWriteParams): Promise<Entity> {
    const readQuery = 'query' in params ? params.query : this.readBackQuery(params as EngineWriteParams);
    return this.inWriteTransaction(() =>
      this.around('Create', params, async () => {
        const { columns, links } = this.split(params.data);
        await this.parts.links.lockBeforeInsert(this.entity, links);
        const id = await this.parts.writer.insert(this.entity, this.withTimestamps(columns));
        await this.parts.links.write(this.entity, id, links, 'create');
        return this.readBack(id, readQuery);
      }),
    );
  }

  /**
   * Updates and returns the entry. Whether it exists is decided by the row's own UPDATE inside the
   * transaction (a concurrent delete may commit while we wait): no row changed is a 404, and hooks do not fire.
   */
  async update(params: WriteParams & { id: number }): Promise<Entity>;
  async update(params: EngineWriteParams): Promise<Entity | null>;
  async update(params: (WriteParams & { id: number }) | EngineWriteParams): Promise<Entity | null> {
    if (!('id' in params)) return this.updateWhere(params);
    return this.inWriteTransaction(() =>
      this.around('Update', params, async () => {
        const { columns, links } = this.split(params.data);
        // Relation locks before the row, as a delete takes them: the other order could deadlock.
        await this.parts.links.lock(this.entity, links);
        if ((await this.parts.writer.update(this.entity, params.id, columns)) === 0) throw new NotFoundError();
        await this.parts.links.write(this.entity, params.id, links, 'update');
        return this.readBack(params.id, params.query);
      }),
    );
  }

  /**
   * Deletes and returns the entry as it was (read with `query`). The row is locked before it is read, so
   * the entry answered is the one this transaction deletes; of concurrent deletes of one entry exactly one
   * succeeds, the others are 404s (and fire no after-hooks).
   */
  async delete(params: { id: number; query?: EntityQuery }): Promise<Entity>;
  async delete(params: EngineParams): Promise<Entity | null>;
  async delete(params: { id: number; query?: EntityQuery } | EngineParams): Promise<Entity | null> {
    if (!('id' in params)) return this.deleteWhere(params);
    return this.inWriteTransaction(() =>
      this.around('Delete', params, async () => {
        await this.parts.links.lockOwned(this.entity);
        if (!(await this.parts.writer.lockRow(this.entity, params.id, 'delete'))) throw new NotFoundError();
        const before = await this.parts.reader.findById(params.query ?? this.allColumnsQuery, params.id);
        if (!before) throw new NotFoundError();
        await this.parts.links.deleteOwned(this.entity, params.id);
        if ((await this.parts.writer.delete(this.entity, params.id)) === 0) throw new NotFoundError();
        return before;
      }),
    );
  }

  /** Strapi's `createMany({ data: [...] })`: every entry in one transaction. */
  async createMany(params: { data: Array<Record<string, unknown>> }): Promise<{ count: number; ids: number[] }> {
    return this.inWriteTransaction(async () => {
      const ids: number[] = [];
      for (const data of params.data) ids.push((await this.create({ data, query: this.idOnlyQuery })).id);
      return { count: ids.length, ids };
    });
  }

  private async updateWhere(params: EngineWriteParams): Promise<Entity | null> {
    return this.inWriteTransaction(async () => {
      const id = await this.firstMatch(params.where);
      if (id === undefined) return null;
      return this.update({ id, data: params.data, query: this.readBackQuery(params) });
    });
  }

  /** Strapi's `updateMany({ where, data })`: columns only, as in Strapi; returns how many rows it changed. */
  async updateMany(params: { where?: Record<string, unknown>; data: Record<string, unknown> }): Promise<{ count: number }> {
    return this.inWriteTransaction(async () => {
      const ids = await this.matchingIds(params.where);
      const { columns } = this.split(params.data);
      for (const id of ids) await this.parts.writer.update(this.entity, id, this.withUpdatedAt(columns));
      return { count: ids.length };
    });
  }

  private async deleteWhere(params: EngineParams): Promise<Entity | null> {
    return this.inWriteTransaction(async () => {
      const id = await this.firstMatch(params.where);
      if (id === undefined) return null;
      return this.delete({ id, query: this.readBackQuery(params) });
    });
  }

  /** Strapi's `deleteMany({ where })`: each match with its links; returns how many. */
  async deleteMany(params: { where?: Record<string, unknown> } = {}): Promise<{ count: number }> {
    return this.inWriteTransaction(async () => {
      const ids = await this.matchingIds(params.where);
      for (const id of ids) await this.delete({ id, query: this.idOnlyQuery });
      return { count: ids.length };
    });
  }

  /** A write's transaction, marked as writing this type: caches hear of it once it commits. */
  private inWriteTransaction<T>(work: () => Promise<T>): Promise<T> {
    return this.parts.connection.transaction(() => {
      this.parts.connection.markWritten(this.entity.uid);
      return work();
    });
  }

  private resolve(params: object): ResolvedRead {
    if (isCompiled(params)) return { query: params.query, page: (params as FindManyParams).page };
    return resolveEngineParams(params as EngineParams, (query) => this.plan(query, { allowPrivate: true }));
  }

  private readBackQuery(params: EngineParams): EntityQuery | undefined {
    if (params.select === undefined && params.populate === undefined) return undefined;
    return this.plan({ fields: params.select, populate: params.populate }, { allowPrivate: true });
  }

  private async firstMatch(where: Record<string, unknown> | undefined): Promise<number | undefined> {
    const direct = idOfWhere(where);
    if (direct !== undefined && Object.keys(where ?? {}).length === 1) return direct;
    const [first] = await this.matchingIds(where, 1);
    return first;
  }

  private async matchingIds(where: Record<string, unknown> | undefined, limit?: number): Promise<number[]> {
    const query = { ...this.plan({ filters: where }, { allowPrivate: true }), fields: this.idOnlyQuery.fields };
    const rows = await this.parts.reader.findMany(query, limit === undefined ? undefined : { limit, offset: 0 });
    return rows.map((row) => row.id);
  }

  private get idOnlyQuery(): EntityQuery {
    return { ...this.allColumnsQuery, fields: [this.entity.columns.get('id') as ColumnField] };
  }

  /** Strapi's query engine stamps new rows; values the caller gave win. */
  private withTimestamps(columns: Record<string, unknown>): Record<string, unknown> {
    if (!this.entity.columns.has('createdAt')) return columns;
    const now = new Date();
    return { createdAt: now, updatedAt: now, ...columns };
  }

  private withUpdatedAt(columns: Record<string, unknown>): Record<string, unknown> {
    return this.entity.columns.has('updatedAt') && columns.updatedAt === undefined ? { ...columns, updatedAt: new Date() } : columns;
  }

  private async readBack(id: number, query?: EntityQuery): Promise<Entity> {
    // Read back whatever the state: the caller just wrote it.
    const readQuery = { ...(query ?? this.allColumnsQuery), publicationState: 'preview' as const };
    const entity = await this.parts.reader.findById(readQuery, id);
    if (!entity) throw new NotFoundError();
    return entity;
  }

  private split(data: Record<string, unknown>): { columns: Record<string, unknown>; links: Record<string, unknown> } {
    const columns: Record<string, unknown> = {};
    const links: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(data)) {
      if (this.entity.links.has(name)) links[name] = value;
      else columns[name] = value;
    }
    return { columns, links };
  }

  private async around<P extends object, R>(action: 'FindMany' | 'FindOne' | 'Count' | 'Create' | 'Update' | 'Delete', params: P, work: () => Promise<R>): Promise<R> {
    const { lifecycles } = this.parts;
    const before = `before${action}` as LifecycleAction;
    const after = `after${action}` as LifecycleAction;
    const uid = this.entity.uid;
    if (!lifecycles.has(uid, before) && !lifecycles.has(uid, after)) return work();
    const model = { uid, tableName: this.entity.tableName };
    const state: Record<string, unknown> = {};
    const eventParams = params as unknown as Record<string, unknown>;
    await lifecycles.run({ action: before, model, params: eventParams, state });
    const result = await work();
    await lifecycles.run({ action: after, model, params: eventParams, result, state });
    return result;
  }
}
