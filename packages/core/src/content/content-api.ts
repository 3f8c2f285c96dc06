/**
 * Content API operations: find, findOne, create, update, delete — and their
 * single-type forms — for a caller. Transport-free: REST and GraphQL both
 * call these. Each operation (1) scopes to the caller (who may preview
 * drafts, which populated types they may read, which types a write may link
 * to), (2) validates and compiles the query parameters, (3) runs the entity
 * service, whose writes carry the lifecycle hooks in a transaction. Private
 * attributes never reach a result: the read plan never selects them.
 */
import { closest, ForbiddenError, NotFoundError, ValidationError } from '@tessera/errors';
import { EntryBudget, FILE_UID, entryId, withSearch, type Database, type Entity, type EntityMetadata, type ReadPlan, type QueryParams, type QuerySource } from '@tessera/database';
import { Caller } from '../auth/caller';
import type { AuthState } from '../types';
import type { EntityService } from './entity-service';
import { paginationMeta, parsePagination, toPage, type PaginationConfig, type PaginationMeta } from './pagination';
import { PlanCache } from './plan-cache';
import { declaredFilters, type QueryParameter, type QueryParameterContext } from './query-parameters';
import { LinkPermissions, type CanRead } from './link-permissions';
import { DecoratedReads, type DecoratedRead } from './decorated-reads';

export interface ContentApiConfig extends PaginationConfig {
  /** Reject unknown top-level query parameters and populate keys. */
  strictParams: boolean;
  /** Let anonymous callers use `publicationState=preview`. */
  publicPreview: boolean;
  /** The most entries one answer may hold, every populate level and the page included (a 400 past it). */
  maxPopulatedEntries: number;
}

/** Query parameters as parsed from a request (qs) or built by GraphQL. */
export type RequestParams = Record<string, unknown>;

export interface OperationContext {
  /** Who asks (auth/caller.ts): the request's caller, or `Caller.server` for trusted server code. */
  caller?: Caller;
  /**
   * Or the request's `ctx.state.auth` (Strapi's authenticated state), for app code that has no `Caller` at hand (a
   * custom GraphQL resolver passing `context.state.auth`): the caller is built from it.
   */
  auth?: AuthState;
  params?: RequestParams;
  /** The transport's own page-size limits (GraphQL has its own `defaultLimit`/`maxLimit`); REST's when omitted. */
  limits?: Partial<PaginationConfig>;
  /**
   * The request's entry budget when it runs several reads (a GraphQL document): they share it. Without one,
   * each operation's answer gets `maxPopulatedEntries` of its own.
   */
  budget?: EntryBudget;
}

export interface FindResult {
  results: Entity[];
  pagination: PaginationMeta;
}

/** Strapi v4's own parameters; plugins declare theirs (i18n's `locale`) in `app.queryParameters`. */
const CORE_PARAMETERS = ['filters', 'sort', 'fields', 'populate', 'pagination', 'publicationState', '_q'];
const PAGINATION_KEYS = ['page', 'pageSize', 'start', 'limit', 'withCount'];

export class ContentApi {
  private readonly plans: PlanCache;
  private readonly known: ReadonlySet<string>;
  private readonly linkPermissions: LinkPermissions;
  private readonly decoratedReads: DecoratedReads;

  constructor(
    private readonly db: Database,
    private readonly entityService: EntityService,
    readonly config: ContentApiConfig,
    /** Parameters plugins declared (`app.queryParameters`), applied to every read. */
    private readonly extraParameters: QueryParameter[] = [],
  ) {
    this.plans = new PlanCache(db);
    this.known = new Set([...CORE_PARAMETERS, ...extraParameters.map((parameter) => parameter.name)]);
    this.linkPermissions = new LinkPermissions(db.metadata);
    this.decoratedReads = new DecoratedReads(entityService, db);
  }

  /** An entry budget for one request that runs several reads (`OperationContext.budget`). */
  requestBudget(): EntryBudget {
    return new EntryBudget(this.config.maxPopulatedEntries);
  }

  async find(uid: string, context: OperationContext): Promise<FindResult> {
    const caller = callerOf(context);
    const params = this.requestParams(uid, context.params, caller);
    const query = this.compileRead(uid, params, caller, 'collection');
    const source = this.hookSource(uid, params, caller, 'collection');
    const pagination = parsePagination(params.pagination, { ...this.config, ...context.limits });
    if (this.entityService.decorated) {
      const { results, total } = await this.decoratedReads.find(this.decoratedRead(uid, params, query, caller, context), toPage(pagination), pagination.withCount);
      return { results, pagination: paginationMeta(pagination, total) };
    }
    const repository = this.db.query(uid);
    const page = toPage(pagination);
    const read = { query, page, source, budget: context.budget };
    if (!pagination.withCount) return { results: await repository.findMany(read), pagination: paginationMeta(pagination, undefined) };
    // Totals are cached until a write they depend on; a missing one comes with the page, from one pass over the matching
    // rows (hooks, which must see the count as its own operation, get the page and the count apart).
    const [results, total] = this.db.lifecycles.hasReadHooks(uid)
      ? await Promise.all([repository.findMany(read), this.db.counts.count(query, () => repository.count({ query, source }))])
      : await this.db.counts.pageWithTotal(query, {
          page: (matching) => repository.findMany({ ...read, matching }),
          counted: async () => {
            const { entities, total } = await repository.findManyCounted(read);
            return { page: entities, total };
          },
          count: () => repository.count({ query, source }),
        });
    return { results, pagination: paginationMeta(pagination, total) };
  }

  async findOne(uid: string, id: unknown, context: OperationContext): Promise<Entity> {
    const caller = callerOf(context);
    const params = this.requestParams(uid, context.params, caller);
    const query = this.compileRead(uid, params, caller, 'entry');
    const source = this.hookSource(uid, params, caller, 'entry');
    const entry = this.entityService.decorated
      ? await this.decoratedReads.findOne(this.decoratedRead(uid, params, query, caller, context), parseId(id))
      : await this.db.query(uid).findOne({ query, id: parseId(id), source, budget: context.budget });
    if (!entry) throw new NotFoundError();
    return entry;
  }

  /**
   * Entries a transport already answered, read again by id to load more of
   * them at once (GraphQL's batch loader for links it could not populate).
   * As with findOne and a write's answer, the ids chose them: neither their
   * publication state nor the declared parameters (a locale) leave them out,
   * while populated links keep the request's publication state. Unknown ids
   * are missing from the result. Not plan-cached: every batch has its own ids.
   * With the request's budget, the parents are not counted again (the answer
   * holds them already), only the links loaded under them.
   */
  async findByIds(uid: string, ids: readonly number[], context: OperationContext): Promise<Entity[]> {
    const caller = callerOf(context);
    if (ids.length === 0) return [];
    const params = this.requestParams(uid, context.params, caller);
    const byIds = { id: { $in: [...ids] } };
    const filtered = { ...params, filters: params.filters === undefined ? byIds : { $and: [params.filters, byIds] } };
    const query = this.compile(uid, this.withDeclaredParameters(uid, filtered, caller, 'entry'), caller);
    return this.db.query(uid).findMany({ query: { ...query, publicationState: 'preview' }, page: { limit: ids.length, offset: 0 }, budget: context.budget?.forAnswered() });
  }

  async create(uid: string, data: unknown, context: OperationContext): Promise<Entity> {
    const caller = callerOf(context);
    const params = this.requestParams(uid, context.params, caller);
    const answer = this.writeAnswer(uid, params, caller);
    const values = this.withDeclaredData(uid, this.writableData(uid, data, caller), params, caller, 'collection');
    return this.entityService.create(uid, { data: values, ...answer, unknownKeys: 'refuse' });
  }

  async update(uid: string, id: unknown, data: unknown, context: OperationContext): Promise<Entity> {
    const caller = callerOf(context);
    const answer = this.writeAnswer(uid, this.requestParams(uid, context.params, caller), caller);
    return this.entityService.update(uid, parseId(id), { data: this.writableData(uid, data, caller), ...answer, unknownKeys: 'refuse' });
  }

  async delete(uid: string, id: unknown, context: OperationContext): Promise<Entity> {
    const caller = callerOf(context);
    const answer = this.writeAnswer(uid, this.requestParams(uid, context.params, caller), caller);
    return this.entityService.delete(uid, parseId(id), answer);
  }

  /** A single type's entry; 404 when absent (or a draft under `live`). */
  async findSingle(uid: string, context: OperationContext): Promise<Entity> {
    const caller = callerOf(context);
    const params = this.requestParams(uid, context.params, caller);
    const query = this.compileRead(uid, params, caller, 'single');
    const source = this.hookSource(uid, params, caller, 'single');
    const entry = this.entityService.decorated
      ? await this.decoratedReads.findSingle(this.decoratedRead(uid, params, query, caller, context))
      : (await this.db.query(uid).findMany({ query, page: { limit: 1, offset: 0 }, source, budget: context.budget }))[0];
    if (!entry) throw new NotFoundError();
    return entry;
  }

  /** A read for the decorated entity service (decorated-reads.ts): compiled above for the caller, with its budget. */
  private decoratedRead(uid: string, params: RequestParams, query: ReadPlan, caller: Caller, context: OperationContext): DecoratedRead {
    return { uid, params, query, caller, budget: context.budget ?? this.requestBudget() };
  }

  /** PUT on a single type: updates the entry, or creates it when absent (the declared parameters choose which entry). */
  async upsertSingle(uid: string, data: unknown, context: OperationContext): Promise<Entity> {
    const caller = callerOf(context);
    const params = this.requestParams(uid, context.params, caller);
    const answer = this.writeAnswer(uid, params, caller);
    const values = this.writableData(uid, data, caller);
    // Look-up and create in one locked transaction: concurrent PUTs on an absent entry must create it once.
    return this.db.transaction(async () => {
      await this.db.lock([`single:${uid}`]);
      const existing = await this.firstId(uid, params, caller);
      if (existing !== null) return this.entityService.update(uid, existing, { data: values, ...answer, unknownKeys: 'refuse' });
      return this.entityService.create(uid, { data: this.withDeclaredData(uid, values, params, caller, 'single'), ...answer, unknownKeys: 'refuse' });
    });
  }

  async deleteSingle(uid: string, context: OperationContext): Promise<Entity> {
    const caller = callerOf(context);
    const params = this.requestParams(uid, context.params, caller);
    const answer = this.writeAnswer(uid, params, caller);
    // Under the same lock as PUT: a DELETE and a PUT answer as if one ran after the other.
    return this.db.transaction(async () => {
      await this.db.lock([`single:${uid}`]);
      const existing = await this.firstId(uid, params, caller);
      if (existing === null) throw new NotFoundError();
      return this.entityService.delete(uid, existing, answer);
    });
  }

  /** The single type's entry the declared parameters select (drafts included), or null. */
  private async firstId(uid: string, params: RequestParams, caller: Caller): Promise<number | null> {
    const repository = this.db.query(uid);
    const { filters } = this.withDeclaredParameters(uid, {}, caller, 'single', params);
    const selected = filters === undefined ? repository.everything : repository.plan({ filters }, { allowPrivate: true });
    const idOnly: ReadPlan = { ...selected, fields: [repository.entity.columns.get('id')!] };
    const [entry] = await repository.findMany({ query: idOnly, page: { limit: 1, offset: 0 } });
    return entry ? entry.id : null;
  }

  /** A read plan: the same parameters and read scope give the same (shared) plan. */
  private compileRead(uid: string, params: RequestParams, caller: Caller, operation: QueryParameterContext['operation']): ReadPlan {
    const { pagination: _pagination, ...planParams } = this.withDeclaredParameters(uid, params, caller, operation);
    return this.plans.get(uid, planParams, caller, () => this.compile(uid, planParams, caller));
  }

  /**
   * When a read hook listens on the type: the parameters the plan came from, shown to the hooks in Strapi's
   * shape, and compiled again under this caller's rules when a hook changes them (strapi-plugin-populate-deep
   * turns `populate=deep` into a populate tree). Nothing is built when no hook listens.
   */
  private hookSource(uid: string, params: RequestParams, caller: Caller, operation: QueryParameterContext['operation']): QuerySource | undefined {
    if (!this.db.lifecycles.hasReadHooks(uid)) return undefined;
    const { pagination: _pagination, ...planParams } = this.withDeclaredParameters(uid, params, caller, operation);
    return { params: planParams, compile: (changed) => this.compile(uid, this.previewChecked(uid, changed as RequestParams, caller), caller) };
  }

  /**
   * Each declared parameter (present or not: a plugin may have a default)
   * becomes filters ANDed with the request's. They are merged before the
   * plan-cache look-up, so the key covers them.
   */
  private withDeclaredParameters(
    uid: string,
    params: RequestParams,
    caller: Caller,
    operation: QueryParameterContext['operation'],
    values: RequestParams = params,
  ): RequestParams {
    const filters = declaredFilters(this.extraParameters, params.filters, values, { uid, caller, operation });
    return filters === params.filters ? params : { ...params, filters };
  }

  /**
   * A create's data with the values declared parameters default (the data's own values win), published now unless
   * it says `publishedAt` (Strapi's core API service does this; its entity service, server code's, does not).
   */
  private withDeclaredData(uid: string, data: unknown, params: RequestParams, caller: Caller, operation: QueryParameterContext['operation']): unknown {
    let values = data as Record<string, unknown>;
    for (const parameter of this.extraParameters) {
      const defaults = parameter.data?.(params[parameter.name], { uid, caller, operation });
      if (defaults !== undefined) values = { ...defaults, ...values };
    }
    if (this.db.entity(uid).draftAndPublish && values.publishedAt === undefined) values = { ...values, publishedAt: new Date() };
    return values;
  }

  /**
   * What a write answers with: the entry written (or deleted) whatever its
   * state, while populated relations keep the request's publication state —
   * a write never becomes a way to read someone else's drafts.
   */
  private writeAnswer(uid: string, params: RequestParams, caller: Caller): { query: ReadPlan; source?: QuerySource } {
    // Cached as reads are (under its own key: a list is never a read's parameters), so the read-back's SQL is built
    // once too. The key holds the read scope, not the caller: preview was checked where the parameters came in.
    const query = this.plans.get(uid, ['write answer', params], caller, () => ({ ...this.compile(uid, params, caller), publicationState: 'preview' }));
    if (!this.db.lifecycles.hasWriteHooks(uid)) return { query };
    // Write hooks see what is read back as Strapi's `select`/`populate`; a change is compiled under this caller's rules.
    const source = { params: { fields: params.fields, populate: params.populate }, compile: (changed: QueryParams) => ({ ...this.compile(uid, this.previewChecked(uid, changed as RequestParams, caller), caller), publicationState: 'preview' as const }) };
    return { query, source };
  }

  /**
   * Compiles the caller's parameters: drafts only for those allowed, populate only into readable types, and
   * every answer (reads and a write's read-back alike) bounded to `maxPopulatedEntries` entries.
   */
  private compile(uid: string, params: RequestParams, caller: Caller): ReadPlan {
    const entity = this.db.entity(uid);
    const queryParams: QueryParams = {
      filters: mergeSearch(params.filters, params._q, entity),
      sort: params.sort,
      fields: params.fields,
      populate: params.populate,
      publicationState: params.publicationState,
    };
    const plan = this.db.query(uid).plan(queryParams, {
      strictParams: this.config.strictParams,
      canRead: this.readableBy(caller),
      defaultPublicationState: 'live',
    });
    return { ...plan, maxEntries: this.config.maxPopulatedEntries };
  }

  /** What the caller may read: populate, relation filters and sorts, and relation writes all ask this. */
  private readableBy(caller: Caller): CanRead {
    // Files are part of the entry they are attached to: media follow the owner's permission (as in Strapi v4).
    return (target) => target === FILE_UID || caller.mayRead(target);
  }

  /** A write's `data`, once its relation, media and component keys are known to reach only readable types. */
  private writableData(uid: string, data: unknown, caller: Caller): unknown {
    const values = requireData(data);
    this.linkPermissions.check(uid, values, this.readableBy(caller));
    return values;
  }

  /**
   * Drafts only for callers who may see them (Caller.mayPreview): asked of the parameters wherever they come in,
   * the request's (requestParams) and those a lifecycle hook changed, before any plan is compiled or looked up.
   */
  private previewChecked(uid: string, params: RequestParams, caller: Caller): RequestParams {
    if (params.publicationState === 'preview' && !caller.mayPreview(uid, this.config.publicPreview)) throw new ForbiddenError();
    return params;
  }

  /** The request's parameters an operation knows (core and declared ones; strict mode refuses others), drafts checked. */
  private requestParams(uid: string, params: RequestParams | undefined, caller: Caller): RequestParams {
    return this.previewChecked(uid, this.knownParams(params), caller);
  }

  private knownParams(params: RequestParams = {}): RequestParams {
    const known: RequestParams = {};
    for (const [key, value] of Object.entries(params)) {
      if (this.known.has(key)) known[key] = value;
      else if (this.config.strictParams) throw unknownKey(key, this.known);
    }
    if (this.config.strictParams) checkPaginationKeys(known.pagination);
    return known;
  }
}

/** The operation's caller: the one given, or the one of the state given; an operation is never run for nobody. */
function callerOf(context: OperationContext): Caller {
  if (context.caller) return context.caller;
  if (context.auth) return Caller.of(context.auth);
  throw new TypeError('content API operations need a caller (`caller`, or the request\'s `auth`); server code passes Caller.server');
}

/** Strict mode: `pagination[pagesize]` is a typo, not a parameter to ignore. */
function checkPaginationKeys(pagination: unknown): void {
  if (typeof pagination !== 'object' || pagination === null) return;
  for (const key of Object.keys(pagination)) {
    if (!PAGINATION_KEYS.includes(key)) throw unknownKey(`pagination[${key}]`, PAGINATION_KEYS, key);
  }
}

/** `Invalid parameter <key>`, with the closest valid key when one is near. */
function unknownKey(shown: string, valid: Iterable<string>, typed: string = shown): ValidationError {
  const suggestion = closest(typed, valid);
  return new ValidationError(`Invalid parameter ${shown}${suggestion === undefined ? '' : `: did you mean ${suggestion}?`}`);
}

/** A client's `_q`: a string, searched over the public columns (search-filter.ts). */
function mergeSearch(filters: unknown, q: unknown, entity: EntityMetadata): unknown {
  if (q !== undefined && typeof q !== 'string') throw new ValidationError('Invalid parameter _q');
  return withSearch(filters, q, entity, 'public');
}

function requireData(data: unknown): unknown {
  if (data === undefined || data === null) throw new ValidationError('Missing "data" payload in the request body');
  if (typeof data !== 'object' || Array.isArray(data)) throw new ValidationError('Invalid "data" payload in the request body: expected an object');
  return data;
}

/** A path's id (query/page-and-id.ts's rule): one that cannot be an id names no entry, Strapi's 404. */
export function parseId(id: unknown): number {
  const parsed = entryId(typeof id === 'number' ? id : String(id));
  if (parsed === undefined) throw new NotFoundError();
  return parsed;
}
