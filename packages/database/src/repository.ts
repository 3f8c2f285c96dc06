/**
 * `db.query(uid)`: the query engine for one content type, with its
 * lifecycles. Each write — row, relations, components and every hook — runs
 * in one transaction, so a failure anywhere leaves nothing half-written.
 *
 * Every method takes either a compiled plan (`{ query }`, what the content
 * API passes) or Strapi v4's query-engine parameters (`{ where, filters, _q,
 * select, orderBy, limit, offset, populate }`, what app code passes), so Strapi code
 * calling `strapi.db.query(uid)` runs unchanged. The engine form is trusted
 * and not validated, as in Strapi.
 */
import { NotFoundError, ValidationError } from '@tessera/errors';
import type { Connection } from './connection/connection';
import type { ColumnField, EntityMetadata, Metadata } from './metadata/metadata';
import type { ReadPlan, Page } from './query/plan';
import { pageInteger, pagePagination, pageWindow, type PagePagination } from './query/page-and-id';
import { compileQuery, type CompileOptions, type QueryParams } from './query/compile-params';
import { fromEngineParams, hasNoCondition, hookParams, hookReadShape, idOfWhere, isCompiled, pageOf, resolveEngineParams, type CompiledParams, type EngineParams, type QuerySource, type RequestQueryParams, type ResolvedRead } from './query/engine-params';
import { withSearch } from './query/search-filter';
import { withDefaults, withTimestamps, withUpdatedAt } from './write-values';
import { morphToOneColumns } from './metadata/morph-to-one';
import type { Entity, EntityReader } from './sql/reader';
import type { EntryBudget } from './sql/entry-budget';
import type { EntityWriter } from './sql/writer';
import type { LinksWriter } from './sql/links-writer';
import type { LifecycleAction, LifecycleModel, Lifecycles } from './lifecycles';

export interface FindManyParams {
  query: ReadPlan;
  page?: Page;
  /** The parameters the plan was compiled from: shown to lifecycle hooks, compiled again when a hook changes them. */
  source?: QuerySource;
  /** The entries the answer may still hold (one request's, shared by its reads); else the plan's `maxEntries`. */
  budget?: EntryBudget;
  /** How many entries match `query`, when the caller holds that total: the reader may choose the page's plan by it. */
  matching?: number;
}

export interface FindOneParams {
  query: ReadPlan;
  id: number;
  source?: QuerySource;
  budget?: EntryBudget;
}

export interface WriteParams {
  /** Attribute values (columns, relations, components), validated by the caller. */
  data: Record<string, unknown>;
  /** What to read back; every column when omitted. */
  query?: ReadPlan;
  source?: QuerySource;
}

type HookedAction = 'FindMany' | 'FindOne' | 'Count' | 'Create' | 'Update' | 'Delete';
/** Each action's before and after hook names, made once. */
const HOOKS = Object.fromEntries(
  (['FindMany', 'FindOne', 'Count', 'Create', 'Update', 'Delete'] as const).map((action) => [action, [`before${action}`, `after${action}`]]),
) as Record<HookedAction, [LifecycleAction, LifecycleAction]>;

/** An operation's parameters once its before hooks ran: Strapi's shape, and whether hooks changed what to read. */
interface Prepared {
  params: EngineParams;
  changed: boolean;
}

/** Strapi v4's write parameters: `data` plus what to read back. */
export interface EngineWriteParams extends EngineParams {
  data: Record<string, unknown>;
}


export interface EngineParts {
  /** What lifecycle events show as `event.model`, by uid. */
  models: Map<string, LifecycleModel>;
  connection: Connection;
  metadata: Metadata;
  reader: EntityReader;
  writer: EntityWriter;
  links: LinksWriter;
  lifecycles: Lifecycles;
}

export class EntityRepository {
  private readonly allColumnsQuery: ReadPlan;
  /** Columns whose schema declares a `default` (withDefaults), found once. */
  private readonly defaulted: ColumnField[];
  /** Read-back plans that also read drafts, one per plan (see previewOf). */
  private readonly previewPlans = new WeakMap<ReadPlan, ReadPlan>();

  constructor(
    private readonly parts: EngineParts,
    readonly entity: EntityMetadata,
  ) {
    this.defaulted = [...entity.columns.values()].filter((field) => field.attribute.default !== undefined);
    this.allColumnsQuery = {
      entity,
      fields: entity.serverColumns,
      where: null,
      sort: [{ path: [], field: entity.columns.get('id')!, direction: 'asc' }],
      populate: new Map(),
      publicationState: 'preview',
    };
  }

  /** Compiles Strapi-style parameters against this entity (see compile-params.ts). */
  plan(params: QueryParams = {}, options: CompileOptions = {}): ReadPlan {
    return compileQuery(params, this.entity, this.parts.metadata, { defaultPublicationState: 'preview', ...options });
  }

  /** Every column (private ones included; not the authorship stamps), drafts included: for trusted internal reads. */
  get everything(): ReadPlan {
    return this.allColumnsQuery;
  }

  async findMany(params: FindManyParams | EngineParams = {}): Promise<Entity[]> {
    const compiled = isCompiled(params) ? (params as FindManyParams) : undefined;
    // `return await`: an async function that returns a promise resolves through two more queued jobs.
    return await this.around('FindMany', params, (prepared) => {
      const { query, page } = this.read(params, prepared);
      return this.parts.reader.findMany(query, page, compiled?.budget, compiled?.matching);
    });
  }

  /** By id (`{ query, id }`), or the first entry matching Strapi's `{ where }`. */
  async findOne(params: FindOneParams | EngineParams): Promise<Entity | null> {
    const budget = isCompiled(params) && 'id' in params ? params.budget : undefined;
    return await this.around('FindOne', params, async (prepared) => {
      const { query, page } = this.read(params, prepared);
      // A hook's changes were compiled with the id in `where`: read it as the first match.
      if (isCompiled(params) && 'id' in params && !prepared.changed) return this.parts.reader.findById(query, params.id, budget);
      return (await this.parts.reader.findMany(query, { limit: 1, offset: page?.offset ?? 0 }, budget))[0] ?? null;
    });
  }

  async count(params: { query: ReadPlan; source?: QuerySource } | EngineParams = {}): Promise<number> {
    return await this.around('Count', params, (prepared) => this.parts.reader.count(this.read(params, prepared).query));
  }

  /** A page and its total from one statement (reader.ts `findManyCounted`); no lifecycles: for types without read hooks. */
  async findManyCounted(params: FindManyParams & { page: Page }): Promise<{ entities: Entity[]; total: number }> {
    return this.parts.reader.findManyCounted(params.query, params.page, params.budget);
  }

  /** Strapi's `findWithCount(params)`: `[entries, total]`, the total ignoring `limit`/`offset`. */
  async findWithCount(params: EngineParams = {}): Promise<[Entity[], number]> {
    return Promise.all([this.findMany(params), this.count(params)]);
  }

  /** Strapi's `findPage({ page = 1, pageSize = 10, ...params })`: `{ results, pagination: { page, pageSize, pageCount, total } }`. */
  async findPage(params: EngineParams & { page?: number | string; pageSize?: number | string } = {}): Promise<{ results: Entity[]; pagination: PagePagination }> {
    const { page: rawPage = 1, pageSize: rawPageSize = 10, ...rest } = params;
    const page = pageInteger(rawPage);
    const pageSize = pageInteger(rawPageSize);
    if (page === undefined || pageSize === undefined || pageSize < 1) throw new ValidationError('page and pageSize must be integers, pageSize at least 1');
    const query = { ...rest, ...pageWindow(page, pageSize) };
    const [results, total] = await Promise.all([this.findMany(query), this.count(query)]);
    return { results, pagination: pagePagination(page, pageSize, total) };
  }

  async create(params: WriteParams | EngineWriteParams): Promise<Entity> {
    return this.inWriteTransaction(() =>
      this.around('Create', params, async (prepared) => {
        const { columns, links } = this.split(prepared.params.data ?? {});
        await this.parts.links.lockBeforeInsert(this.entity, links);
        const readQuery = this.readQuery(this.readBackOf(params, prepared));
        const { id, row } = await this.parts.writer.insert(this.entity, withTimestamps(this.entity, withDefaults(this.defaulted, columns)), this.returningFor(readQuery, 'insert'));
        await this.parts.links.write(this.entity, id, links, 'create');
        return this.answer(id, prepared, () => (row ? this.parts.reader.fromRow(readQuery, row) : this.readBack(id, readQuery)));
      }),
    );
  }

  /**
   * Updates and returns the entry. Whether it exists is decided by the row's own UPDATE inside the
   * transaction (a concurrent delete may commit while we wait): no row changed is a 404, and hooks do not fire.
   * Strapi's form (`{ where, data }`) updates the first match, and answers null when none matches.
   */
  async update(params: WriteParams & { id: number }): Promise<Entity>;
  async update(params: EngineWriteParams): Promise<Entity | null>;
  async update(params: (WriteParams & { id: number }) | EngineWriteParams): Promise<Entity | null> {
    return this.inWriteTransaction(() =>
      this.around('Update', params, async (prepared) => {
        const id = 'id' in params ? params.id : await this.firstMatch(prepared.params, 'Update');
        if (id === undefined) return null;
        const { columns, links } = this.split(prepared.params.data ?? {});
        // Relation locks before the row, as a delete takes them: the other order could deadlock.
        await this.parts.links.lock(this.entity, links);
        const readQuery = this.readQuery(this.readBackOf(params, prepared));
        const { changed, row } = await this.parts.writer.update(this.entity, id, columns, this.returningFor(readQuery, 'update'));
        // A `where` naming a missing id finds nothing, as when it is searched for: null, as Strapi answers.
        if (changed === 0 && !('id' in params)) return null;
        if (changed === 0) throw new NotFoundError();
        await this.parts.links.write(this.entity, id, links, 'update');
        return this.answer(id, prepared, () => (row ? this.parts.reader.fromRow(readQuery, row) : this.readBack(id, readQuery)));
      }),
    );
  }

  /**
   * Deletes and returns the entry as it was (read with `query`). The row is locked before it is read, so
   * the entry answered is the one this transaction deletes; of concurrent deletes of one entry exactly one
   * succeeds, the others are 404s (and fire no after-hooks). Strapi's form (`{ where }`) deletes the first match.
   */
  async delete(params: { id: number; query?: ReadPlan; source?: QuerySource }): Promise<Entity>;
  async delete(params: EngineParams): Promise<Entity | null>;
  async delete(params: { id: number; query?: ReadPlan; source?: QuerySource } | EngineParams): Promise<Entity | null> {
    return this.inWriteTransaction(() =>
      this.around('Delete', params, async (prepared) => {
        const id = 'id' in params ? params.id : await this.firstMatch(prepared.params, 'Delete');
        if (id === undefined) return null;
        await this.parts.links.lockOwned(this.entity);
        if (!(await this.parts.writer.lockRow(this.entity, id, 'delete'))) throw new NotFoundError();
        const before = await this.answer(id, prepared, () => this.parts.reader.findById(this.readBackOf(params, prepared) ?? this.allColumnsQuery, id));
        await this.parts.links.deleteOwned(this.entity, id);
        if ((await this.parts.writer.delete(this.entity, id)) === 0) throw new NotFoundError();
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

  /**
   * Strapi's `updateMany({ where, data })`: columns only, as in Strapi; returns how many rows it changed.
   * `filters` and `_q` narrow it as they narrow a read (Strapi 4.26.2's updateMany ignores them and so
   * updates every row: docs/compatibility.md).
   */
  async updateMany(params: Pick<EngineParams, 'where' | 'filters' | '_q'> & { data: Record<string, unknown> }): Promise<{ count: number }> {
    return this.inWriteTransaction(async () => {
      const ids = await this.matchingIds(params);
      const { columns } = this.split(params.data);
      for (const id of ids) await this.parts.writer.update(this.entity, id, withUpdatedAt(this.entity, columns));
      return { count: ids.length };
    });
  }

  /**
   * Strapi's `deleteMany({ where })`: each match with its links; returns how many. `filters` and `_q` narrow
   * it (Strapi 4.26.2's deleteMany ignores them and deletes every row: docs/compatibility.md).
   */
  async deleteMany(params: Pick<EngineParams, 'where' | 'filters' | '_q'> = {}): Promise<{ count: number }> {
    return this.inWriteTransaction(async () => {
      const ids = await this.matchingIds(params);
      for (const id of ids) await this.delete({ id, query: this.idOnlyQuery });
      return { count: ids.length };
    });
  }

  /**
   * The entry a write answers, read through the findOne hooks: Strapi's entity manager reads a written (or
   * about-to-be-deleted) entry back with its own findOne, so a hook that reshapes what is read (decrypting a
   * field, say) shapes what writes answer too. Costs nothing when no findOne hook is subscribed.
   */
  private answer(id: number, prepared: Prepared, read: () => Promise<Entity | null>): Promise<Entity> {
    const { select, populate } = prepared.params;
    return this.around('FindOne', { where: { id }, select, populate }, async () => {
      const entity = await read();
      if (!entity) throw new NotFoundError();
      return entity;
    });
  }

  /** A write's transaction, marked as writing this type: caches hear of it once it commits. */
  private inWriteTransaction<T>(work: () => Promise<T>): Promise<T> {
    return this.parts.connection.transaction(() => {
      this.parts.connection.markWritten(this.entity.uid);
      return work();
    });
  }

  /** What to read: the caller's plan, or (Strapi's form, or a plan a hook changed) compiled from the hooks' parameters. */
  private read(original: object, prepared: Prepared): ResolvedRead {
    if (!isCompiled(original)) return resolveEngineParams(prepared.params, this.trusted);
    const compiled = original as CompiledParams & { query: ReadPlan };
    if (!prepared.changed) return { query: compiled.query, page: compiled.page };
    return { query: (compiled.source?.compile ?? this.trusted)(fromEngineParams(prepared.params)), page: pageOf(prepared.params) };
  }

  /** What a write reads back: its plan, or Strapi's `select`/`populate`. */
  private readBackOf(original: object, prepared: Prepared): ReadPlan | undefined {
    const compiled = 'query' in original ? (original as CompiledParams) : undefined;
    if (compiled && !prepared.changed) return compiled.query;
    const { select, populate } = prepared.params;
    if (select === undefined && populate === undefined) return compiled?.query;
    return (compiled?.source?.compile ?? this.trusted)(fromEngineParams({ select, populate }));
  }

  /** Server code's parameters compiled: private attributes allowed, `_q` searched over every column (search-filter.ts). */
  private readonly trusted = (params: RequestQueryParams): ReadPlan => {
    const { _q, ...rest } = params;
    return this.plan({ ...rest, filters: withSearch(rest.filters, _q, this.entity, 'server') }, { allowPrivate: true, serverCode: true });
  };

  /**
   * The entry Strapi's `update`/`delete({ where })` act on: the first match. A call that names no condition is
   * refused, as Strapi refuses it, rather than acting on whichever row comes first.
   */
  private async firstMatch(params: EngineParams, action: 'Update' | 'Delete'): Promise<number | undefined> {
    if (hasNoCondition(params) && (params._q === undefined || params._q === '')) throw new ValidationError(`${action} requires a where parameter`);
    const { where } = params;
    const direct = params.filters === undefined && params._q === undefined ? idOfWhere(where) : undefined;
    if (direct !== undefined && Object.keys(where ?? {}).length === 1) return direct;
    const [first] = await this.matchingIds(params, 1);
    return first;
  }

  private async matchingIds(params: Pick<EngineParams, 'where' | 'filters' | '_q'>, limit?: number): Promise<number[]> {
    const { where, filters, _q } = params;
    const query = { ...this.trusted(fromEngineParams({ where, filters, _q })), fields: this.idOnlyQuery.fields };
    const rows = await this.parts.reader.findMany(query, limit === undefined ? undefined : { limit, offset: 0 });
    return rows.map((row) => row.id);
  }

  private get idOnlyQuery(): ReadPlan {
    return { ...this.allColumnsQuery, fields: [this.entity.columns.get('id') as ColumnField] };
  }

  /**
   * The columns a write returns (RETURNING) so that the entry it answers is not read again: the row's own
   * columns, which links (in other tables) never change. MySQL has no RETURNING and MariaDB has it on INSERT only,
   * and a read-back query with conditions must apply them: those read the row back.
   */
  private returningFor(readQuery: ReadPlan, write: 'insert' | 'update'): string[] | undefined {
    const { connection } = this.parts;
    const returns = write === 'insert' ? connection.insertReturning : connection.dialect !== 'mysql';
    if (!returns || readQuery.where) return undefined;
    return readQuery.fields.map((field) => field.column);
  }

  /** How an entry just written is read back: whatever its state (the caller just wrote it). */
  private readQuery(query?: ReadPlan): ReadPlan {
    return this.previewOf(query ?? this.allColumnsQuery);
  }

  private async readBack(id: number, query?: ReadPlan): Promise<Entity> {
    const entity = await this.parts.reader.findById(this.readQuery(query), id);
    if (!entity) throw new NotFoundError();
    return entity;
  }

  /**
   * The plan reading drafts too. The same object for the same plan: the reader keeps a plan's SQL per plan
   * object, so a new copy per write would build the read-back's SQL through knex on every write.
   */
  private previewOf(query: ReadPlan): ReadPlan {
    if (query.publicationState === 'preview') return query;
    let preview = this.previewPlans.get(query);
    if (!preview) {
      preview = { ...query, publicationState: 'preview' };
      this.previewPlans.set(query, preview);
    }
    return preview;
  }

  private split(data: Record<string, unknown>): { columns: Record<string, unknown>; links: Record<string, unknown> } {
    const columns: Record<string, unknown> = {};
    const links: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(data)) {
      const morph = this.entity.morphToOne.get(name);
      if (this.entity.links.has(name)) links[name] = value;
      else if (morph) Object.assign(columns, morphToOneColumns(morph, value));
      else columns[name] = value;
    }
    return { columns, links };
  }

  /**
   * Runs an operation between its before and after hooks; straight away when no subscriber handles either.
   * Hooks see Strapi's parameters: the caller's own object in Strapi's form, or, for a compiled plan, the
   * parameters it was compiled from. A plan whose parameters a hook changed is compiled again.
   */
  private around<R>(action: HookedAction, params: object, work: (prepared: Prepared) => Promise<R>): Promise<R> {
    const [before, after] = HOOKS[action];
    if (!this.parts.lifecycles.has(this.entity.uid, before, after)) return work({ params: params as EngineParams, changed: false });
    return this.withHooks(before, after, params, work);
  }

  private async withHooks<R>(before: LifecycleAction, after: LifecycleAction, params: object, work: (prepared: Prepared) => Promise<R>): Promise<R> {
    const { lifecycles } = this.parts;
    const uid = this.entity.uid;
    const compiled = 'query' in params || 'id' in params;
    const eventParams = compiled ? hookParams(params as CompiledParams) : (params as EngineParams);
    const shown = compiled ? hookReadShape(eventParams) : '';
    const model = this.parts.models.get(uid) ?? { uid, singularName: this.entity.singularName, tableName: this.entity.tableName, kind: this.entity.kind, attributes: {} };
    const states = await lifecycles.run({ action: before, model, params: eventParams as Record<string, unknown> });
    const result = await work({ params: eventParams, changed: compiled && hookReadShape(eventParams) !== shown });
    await lifecycles.run({ action: after, model, params: eventParams as Record<string, unknown>, result }, states);
    return result;
  }
}
