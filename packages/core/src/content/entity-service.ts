/**
 * The entity service: trusted, transport-free CRUD on content types, with
 * Strapi v4's signatures (`strapi.entityService.findMany(uid, { filters })`,
 * `create(uid, { data })`). It validates writes, keeps timestamps and
 * draft/publish state, checks unique attributes, runs every write with its
 * hooks in one transaction, and announces each committed write as a content
 * event. It does not know who is calling — the content API adds that — so it
 * reads drafts and private attributes unless told otherwise. Plugins' write
 * rules (write-rules.ts) run inside each write's transaction.
 */
import { ValidationError, type ValidationIssue } from '@tessera/errors';
import { entryId, pagePagination, pageWindow, withSearch, type Database, type PagePagination, type Entity, type EntityMetadata, type EntryBudget, type ReadPlan, type QueryParams, type QuerySource, type WriteParams } from '@tessera/database';
import { buildEntryValidator, type EntryValidator, type UnknownKeys } from './validate-entry';
import { buildComponentsValidator } from './validate-components';
import type { ContentEventName } from './content-events';
import type { QueryParameter } from './query-parameters';
import { WriteRules, type WriteRule } from './write-rules';
import { Caller } from '../auth/caller';
import { serverPage, serverPageRequest, type PaginationParams } from './pagination';
import { declaredFilters } from './query-parameters';
import { componentsPopulate, missingRequired } from './publication-requirements';
import { decorate, isDecorated, type EntityServiceDecorator } from './entity-service-decorations';
import { isAuthorshipStamp, stampedAdminId } from './authorship';

export interface FindParams extends QueryParams, PaginationParams {
  /** Strapi accepts pagination nested or at the top level. */
  pagination?: PaginationParams;
  /** The i18n plugin's parameter, as in Strapi v4: a code, `all`, or absent for the default locale. */
  locale?: string;
  /** Strapi's search (search-filter.ts): every text column, private ones too, as Strapi's engine searches for server code. */
  _q?: unknown;
  /** A compiled plan (what the content API passes); replaces filters/sort/fields/populate/publicationState. */
  query?: ReadPlan;
  /** With `query`: the parameters it was compiled from, for lifecycle hooks. */
  source?: QuerySource;
  /** Bounds the entries of the answer, populated ones included (the content API's reads through decorators). */
  budget?: EntryBudget;
}

/** Strapi's `{ data, fields, populate }`, or the repository's compiled read-back (what the content API passes). */
export interface EntityWriteParams extends Omit<WriteParams, 'data'> {
  data: unknown;
  fields?: unknown;
  populate?: unknown;
  /**
   * `refuse`: a key that is no attribute is a 400, in components and dynamic-zone blocks too (the content API, for
   * clients). Server code's unknown keys are dropped at every depth, as Strapi's query engine drops them (a plugin
   * logging `{ status, timestamp }` into a type without `timestamp`; the panel's `__temp_key__` on each block).
   */
  unknownKeys?: 'refuse';
}

export interface EntityPage {
  results: Entity[];
  pagination: PagePagination;
}

/** Told of each committed write, once, after commit. */
export type ContentEventSink = (name: ContentEventName, uid: string, entry: Entity) => Promise<void>;

/**
 * Told of each write inside its transaction, before commit (the webhooks'
 * outbox): what it writes commits or rolls back with the write, and a
 * throw rolls the write back.
 */
export interface WriteRecorder {
  /** Before a delete, while the entry still exists: whatever the recorder needs to describe it afterwards. */
  beforeDelete(uid: string, id: number): Promise<unknown>;
  written(name: ContentEventName, uid: string, entry: Entity, before?: unknown): Promise<void>;
}


export class EntityService {
  private readonly validators = new Map<string, EntryValidator>();
  private readonly rules: WriteRules;
  private readonly decorationListeners: Array<() => void> = [];

  constructor(
    private readonly db: Database,
    private readonly announce: ContentEventSink = async () => undefined,
    /** Parameters plugins declared (`locale`): server code passes them as Strapi v4 code does, with the same meaning. */
    private readonly parameters: readonly QueryParameter[] = [],
    /** Rules plugins declared (`app.writeRules`) for the writes of some types. */
    rules: readonly WriteRule[] = [],
    /** Told of each write inside its transaction (the webhooks' outbox). */
    private readonly recorder?: WriteRecorder,
  ) {
    this.rules = new WriteRules(rules);
    for (const [uid, entity] of db.metadata) {
      if (entity.kind === 'component') continue;
      const own = buildEntryValidator(entity);
      const components = buildComponentsValidator(entity, db.metadata);
      this.validators.set(uid, (data, mode, draft, unknownKeys) => components(own(data, mode, draft, unknownKeys), draft, unknownKeys));
    }
  }

  /** Strapi v4's `strapi.entityService.decorate` (entity-service-decorations.ts). */
  decorate(decorator: EntityServiceDecorator): this {
    decorate(this, decorator);
    for (const listener of this.decorationListeners) listener();
    return this;
  }

  /** Has a decorator replaced methods? The content API then reads through them too (content-api.ts). */
  get decorated(): boolean {
    return isDecorated(this);
  }

  /** `listener` runs after each decoration. */
  onDecorate(listener: () => void): void {
    this.decorationListeners.push(listener);
  }

  /** Entries of a collection type (all of them unless paginated); a single type's entry, or null. */
  async findMany(uid: string, params: FindParams = {}): Promise<Entity[] | Entity | null> {
    const repository = this.db.query(uid);
    const entries = await repository.findMany({ query: this.plan(uid, params), page: serverPage(params), source: this.source(uid, params), budget: params.budget });
    if (repository.entity.kind === 'singleType') return entries[0] ?? null;
    return entries;
  }

  /** Entries with Strapi's page meta (page 1 of 10 by default). */
  async findPage(uid: string, params: FindParams = {}): Promise<EntityPage> {
    const { page, pageSize } = serverPageRequest(params);
    const repository = this.db.query(uid);
    const query = this.plan(uid, params);
    const source = this.source(uid, params);
    // The page and its total in one pass over the matching rows (the content manager's lists); hooks see both apart.
    const window = pageWindow(page, pageSize);
    const [results, total] = this.db.lifecycles.hasReadHooks(uid)
      ? await Promise.all([repository.findMany({ query, page: window, source }), repository.count({ query, source })])
      : await repository.findManyCounted({ query, page: window }).then(({ entities, total }) => [entities, total] as const);
    return { results, pagination: pagePagination(page, pageSize, total) };
  }

  async count(uid: string, params: FindParams = {}): Promise<number> {
    return this.db.query(uid).count({ query: this.plan(uid, params), source: this.source(uid, params) });
  }

  async findOne(uid: string, id: number | string, params: FindParams = {}): Promise<Entity | null> {
    return this.db.query(uid).findOne({ query: this.plan(uid, params, true), id: toId(id), source: this.source(uid, params, true), budget: params.budget });
  }

  async create(uid: string, params: EntityWriteParams): Promise<Entity> {
    const entity = this.db.entity(uid);
    const ruled = this.rules.of(uid).length > 0;
    const data = params.unknownKeys === 'refuse' ? params.data : attributesOnly(entity, params.data);
    const callerKeys = params.unknownKeys === 'refuse' ? undefined : otherKeys(entity, params.data);
    // Without rules the data is checked before the transaction opens; rules prepare it inside, then it is checked.
    const unknownKeys = params.unknownKeys ?? 'drop';
    const checked = ruled ? undefined : this.createValues(uid, data, unknownKeys);
    return this.db.transaction(async () => {
      const values = checked ?? this.createValues(uid, await this.rules.prepareCreate(uid, data), unknownKeys);
      await this.checkUnique(entity, values, null);
      const created = await this.db.query(uid).create({ data: withCallerKeys(values, callerKeys), query: this.readBack(uid, params), source: this.writeSource(params) });
      if (ruled) await this.rules.afterCreate(uid, created.id, values);
      await this.afterCommit('entry.create', uid, created);
      return created;
    });
  }

  async update(uid: string, id: number | string, params: EntityWriteParams): Promise<Entity> {
    const entity = this.db.entity(uid);
    const entryId = toId(id);
    const ruled = this.rules.of(uid).length > 0;
    const data = params.unknownKeys === 'refuse' ? params.data : attributesOnly(entity, params.data);
    const callerKeys = params.unknownKeys === 'refuse' ? undefined : otherKeys(entity, params.data);
    const unknownKeys = params.unknownKeys ?? 'drop';
    const checked = ruled ? undefined : this.updateValues(uid, data, unknownKeys);
    return this.db.transaction(async () => {
      const values = checked ?? this.updateValues(uid, await this.rules.prepareUpdate(uid, entryId, data), unknownKeys);
      if (entity.draftAndPublish) await this.checkRequiredWhenPublished(entity, entryId, values);
      await this.checkUnique(entity, values, entryId);
      const wasPublished = 'publishedAt' in values && entity.draftAndPublish ? await this.isPublished(uid, entryId) : undefined;
      const updated = await this.db.query(uid).update({ id: entryId, data: withCallerKeys(values, callerKeys), query: this.readBack(uid, params), source: this.writeSource(params) });
      if (ruled) await this.rules.afterUpdate(uid, entryId, values);
      await this.afterCommit(updateEventName(wasPublished, values.publishedAt), uid, updated);
      return updated;
    });
  }

  /**
   * A create's validated values, stamped. Only `publishedAt: null` spares the required values; without
   * `publishedAt` the entry is still a draft (Strapi 4's entity service sets none: its core API service, the content
   * API here, is what publishes a create by default), so server code that seeds without it makes drafts, as on Strapi.
   */
  private createValues(uid: string, data: unknown, unknownKeys: UnknownKeys): Record<string, unknown> {
    const entity = this.db.entity(uid);
    const draft = entity.draftAndPublish && isRecord(data) && data.publishedAt === null;
    const values = this.validate(uid, ignorePublishedAt(entity, data), 'create', draft, unknownKeys);
    const now = new Date();
    values.createdAt = now;
    values.updatedAt = now;
    return values;
  }

  /** An update's validated values; with draft & publish, whether `required` applies depends on the stored entry (checked in the transaction). */
  private updateValues(uid: string, data: unknown, unknownKeys: UnknownKeys): Record<string, unknown> {
    const entity = this.db.entity(uid);
    const values = this.validate(uid, ignorePublishedAt(entity, data), 'update', entity.draftAndPublish, unknownKeys);
    values.updatedAt = new Date();
    return values;
  }

  async delete(uid: string, id: number | string, params: Omit<EntityWriteParams, 'data'> = {}): Promise<Entity> {
    return this.db.transaction(async () => {
      const before = await this.recorder?.beforeDelete(uid, toId(id));
      const deleted = await this.db.query(uid).delete({ id: toId(id), query: this.readBack(uid, params), source: this.writeSource(params) });
      await this.afterCommit('entry.delete', uid, deleted, before);
      return deleted;
    });
  }

  private plan(uid: string, params: FindParams, byId = false): ReadPlan {
    if (params.query) return params.query;
    const { sort, fields, populate, publicationState } = params;
    const filters = withSearch(this.withParameters(uid, params, byId), params._q, this.db.entity(uid), 'server');
    return this.db.query(uid).plan({ filters, sort, fields, populate, publicationState }, { allowPrivate: true, dropUnknownFilterKeys: true });
  }

  /** Server code's parameters, for lifecycle hooks to see in Strapi's shape (a compiled plan brings its own `source`). */
  private source(uid: string, params: FindParams, byId = false): QuerySource | undefined {
    if (params.query) return params.source;
    if (!this.db.lifecycles.hasReadHooks(uid)) return undefined;
    const { sort, fields, populate, publicationState, _q } = params;
    return { params: { filters: this.withParameters(uid, params, byId), sort, fields, populate, publicationState, _q } };
  }

  private writeSource(params: Omit<EntityWriteParams, 'data'>): QuerySource | undefined {
    if (params.query) return params.source;
    return params.fields === undefined && params.populate === undefined ? undefined : { params: { fields: params.fields, populate: params.populate } };
  }

  /** The filters, ANDed with those of the plugins' parameters (i18n: `locale`, the default locale when absent). */
  private withParameters(uid: string, params: FindParams, byId: boolean): unknown {
    const operation = byId ? 'entry' : this.db.entity(uid).kind === 'singleType' ? 'single' : 'collection';
    return declaredFilters(this.parameters, params.filters, params as Record<string, unknown>, { uid, caller: Caller.server, operation });
  }

  private readBack(uid: string, params: Omit<EntityWriteParams, 'data'>): ReadPlan | undefined {
    if (params.query) return params.query;
    if (params.fields === undefined && params.populate === undefined) return undefined;
    return this.db.query(uid).plan({ fields: params.fields, populate: params.populate }, { allowPrivate: true });
  }

  private async isPublished(uid: string, id: number): Promise<boolean | undefined> {
    const repository = this.db.query(uid);
    const current = await repository.findOne({ query: repository.everything, id });
    return current ? current.publishedAt !== null && current.publishedAt !== undefined : undefined;
  }

  /** Records the write in its transaction (the outbox), and queues its event: announced only once that commits. */
  private async afterCommit(name: ContentEventName, uid: string, entry: Entity, before?: unknown): Promise<void> {
    await this.recorder?.written(name, uid, entry, before);
    return this.db.sql.afterCommit(() => this.announce(name, uid, entry));
  }

  private validate(uid: string, data: unknown, mode: 'create' | 'update', draft: boolean, unknownKeys: UnknownKeys): Record<string, unknown> {
    const validator = this.validators.get(uid);
    if (!validator) throw new ValidationError(`${uid} is not a content type`);
    return validator(data, mode, draft, unknownKeys);
  }

  /**
   * `required` on an update of a draft & publish entry: publishing (setting
   * `publishedAt`) needs the whole resulting entry complete; an update of a
   * published entry may not clear a required value; a draft may.
   */
  private async checkRequiredWhenPublished(entity: EntityMetadata, id: number, values: Record<string, unknown>): Promise<void> {
    if (values.publishedAt === null) return;
    const publishing = values.publishedAt !== undefined;
    const cleared = missingRequired(entity, values, this.db.metadata, true);
    if (!publishing && cleared.length === 0) return;
    const stored = await this.readForRequired(entity, id);
    if (!stored) return; // the update itself answers 404
    if (publishing) {
      const issues = missingRequired(entity, { ...stored, ...values }, this.db.metadata);
      if (issues.length > 0) throw ValidationError.fromIssues(issues);
    } else if (stored.publishedAt !== null && cleared.length > 0) {
      throw ValidationError.fromIssues(cleared);
    }
  }

  /** The stored entry, draft or not, with every column and component (private ones included). */
  private async readForRequired(entity: EntityMetadata, id: number): Promise<Entity | null> {
    const repository = this.db.query(entity.uid);
    const params = { publicationState: 'preview', populate: componentsPopulate(entity, this.db.metadata) };
    return repository.findOne({ query: repository.plan(params, { allowPrivate: true }), id });
  }

  /** Unique attributes are checked here so the answer is a clear 400 on every database. */
  private async checkUnique(entity: EntityMetadata, values: Record<string, unknown>, currentId: number | null): Promise<void> {
    const issues: ValidationIssue[] = [];
    for (const field of entity.columns.values()) {
      if (!field.attribute.unique || values[field.name] === undefined || values[field.name] === null) continue;
      const repository = this.db.query(entity.uid);
      const filters: Record<string, unknown> = { [field.name]: { $eq: values[field.name] } };
      if (currentId !== null) filters.id = { $ne: currentId };
      const taken = await repository.count({ query: repository.plan({ filters }, { allowPrivate: true }) });
      if (taken > 0) issues.push({ path: [field.name], message: 'This attribute must be unique', name: 'ValidationError' });
    }
    if (issues.length > 0) throw ValidationError.fromIssues(issues);
  }
}

/** The data's keys that are attributes of the type (columns, relations, components, media); others dropped. */
function attributesOnly(entity: { columns: ReadonlyMap<string, unknown>; links: ReadonlyMap<string, unknown> }, data: unknown): unknown {
  if (!isRecord(data)) return data;
  const known = Object.keys(data).filter((key) => entity.columns.has(key) || entity.links.has(key));
  if (known.length === Object.keys(data).length) return data;
  return Object.fromEntries(known.map((key) => [key, data[key]]));
}

/**
 * The data's other keys (`publishAt` that an admin panel's field adds to the content manager's form; the admin
 * authorship stamps, authorship.ts): Strapi's entity service validates the attributes and hands the rest on to the
 * query engine, so lifecycle hooks see them (@webbio/strapi-plugin-scheduler schedules from them).
 */
function otherKeys(entity: { columns: ReadonlyMap<string, unknown>; links: ReadonlyMap<string, unknown> }, data: unknown): Record<string, unknown> | undefined {
  if (!isRecord(data)) return undefined;
  let others: Record<string, unknown> | undefined;
  for (const key of Object.keys(data)) {
    if (isAuthorshipStamp(key) && entity.columns.has(key) && stampedAdminId(data[key]) !== undefined) (others ??= {})[key] = stampedAdminId(data[key]);
    // publishedAt on a type without draft & publish is dropped, as Strapi drops it (ignorePublishedAt).
    if (entity.columns.has(key) || entity.links.has(key) || key === 'publishedAt') continue;
    (others ??= {})[key] = data[key];
  }
  return others;
}

function withCallerKeys(values: Record<string, unknown>, others: Record<string, unknown> | undefined): Record<string, unknown> {
  return others === undefined ? values : { ...others, ...values };
}

/**
 * Strapi v4 drops `publishedAt` on a type without draft & publish (seeds written for one schema keep working on
 * another); through the content API every other unknown key stays a 400.
 */
function ignorePublishedAt(entity: { draftAndPublish: boolean }, data: unknown): unknown {
  if (entity.draftAndPublish || !isRecord(data) || !('publishedAt' in data)) return data;
  const { publishedAt: _ignored, ...rest } = data;
  return rest;
}

/** A write that flips the draft state is a publish or an unpublish; any other is an update. */
function updateEventName(wasPublished: boolean | undefined, publishedAt: unknown): ContentEventName {
  if (wasPublished === false && publishedAt !== null && publishedAt !== undefined) return 'entry.publish';
  if (wasPublished === true && publishedAt === null) return 'entry.unpublish';
  return 'entry.update';
}

/** An id server code passes: a 400 when it cannot be one (query/page-and-id.ts's rule; a path id is the content API's 404). */
function toId(id: number | string): number {
  const parsed = entryId(id);
  if (parsed === undefined) throw new ValidationError(`Invalid id ${JSON.stringify(id)}`);
  return parsed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
