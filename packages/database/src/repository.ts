/**
 * `db.query(uid)`: the query engine for one content type, with its
 * lifecycles. Each write — row, relations, components and every hook — runs
 * in one transaction, so a failure anywhere leaves nothing half-written.
 */
import { NotFoundError } from '@tessera/errors';
import type { Connection } from './connection/connection';
import type { ColumnField, EntityMetadata, Metadata } from './metadata/metadata';
import type { EntityQuery, Page } from './query/plan';
import { compileQuery, type CompileOptions, type QueryParams } from './query/compile-params';
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

  async findMany(params: FindManyParams): Promise<Entity[]> {
    return this.around('FindMany', params, () => this.parts.reader.findMany(params.query, params.page));
  }

  async findOne(params: FindOneParams): Promise<Entity | null> {
    return this.around('FindOne', params, () => this.parts.reader.findById(params.query, params.id));
  }

  async count(params: { query: EntityQuery }): Promise<number> {
    return this.around('Count', params, () => this.parts.reader.count(params.query));
  }

  async create(params: WriteParams): Promise<Entity> {
    return this.parts.connection.transaction(() =>
      this.around('Create', params, async () => {
        const { columns, links } = this.split(params.data);
        const id = await this.parts.writer.insert(this.entity, columns);
        await this.parts.links.write(this.entity, id, links, 'create');
        return this.readBack(id, params.query);
      }),
    );
  }

  async update(params: WriteParams & { id: number }): Promise<Entity> {
    return this.parts.connection.transaction(() =>
      this.around('Update', params, async () => {
        const { columns, links } = this.split(params.data);
        // Locks first, then the existence check: a delete holding them may commit while we wait.
        await this.parts.links.lock(this.entity, links);
        await this.requireExisting(params.id);
        await this.parts.writer.update(this.entity, params.id, columns);
        await this.parts.links.write(this.entity, params.id, links, 'update');
        return this.readBack(params.id, params.query);
      }),
    );
  }

  /** Deletes and returns the entry as it was (read with `query`). */
  async delete(params: { id: number; query?: EntityQuery }): Promise<Entity> {
    return this.parts.connection.transaction(() =>
      this.around('Delete', params, async () => {
        const before = await this.parts.reader.findById(params.query ?? this.allColumnsQuery, params.id);
        if (!before) throw new NotFoundError();
        await this.parts.links.deleteOwned(this.entity, params.id);
        await this.parts.writer.delete(this.entity, params.id);
        return before;
      }),
    );
  }

  private async requireExisting(id: number): Promise<void> {
    const idOnly: EntityQuery = { ...this.allColumnsQuery, fields: [this.entity.columns.get('id') as ColumnField] };
    if (!(await this.parts.reader.findById(idOnly, id))) throw new NotFoundError();
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
