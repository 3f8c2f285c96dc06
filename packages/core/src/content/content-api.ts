/**
 * Content API operations: find, findOne, create, update, delete — and their
 * single-type forms — for a caller. Transport-free: REST and GraphQL both
 * call these. Each operation (1) scopes to the caller (who may preview
 * drafts, which populated types they may read), (2) validates and compiles
 * the query parameters, (3) runs the entity service, whose writes carry the
 * lifecycle hooks in a transaction. Private attributes never reach a result:
 * the compiled query never selects them.
 */
import { ForbiddenError, NotFoundError, ValidationError } from '@tessera/errors';
import type { Database, Entity, EntityQuery, QueryParams } from '@tessera/database';
import type { AuthState } from '../types';
import type { EntityService } from './entity-service';
import { paginationMeta, parsePagination, toPage, type PaginationConfig, type PaginationMeta } from './pagination';
import { searchFilter } from './search';
import { PlanCache } from './plan-cache';

export interface ContentApiConfig extends PaginationConfig {
  /** Reject unknown top-level query parameters and populate keys. */
  strictParams: boolean;
  /** Let anonymous callers use `publicationState=preview`. */
  publicPreview: boolean;
}

/** Query parameters as parsed from a request (qs) or built by GraphQL. */
export type RequestParams = Record<string, unknown>;

export interface OperationContext {
  auth: AuthState;
  params?: RequestParams;
}

export interface FindResult {
  results: Entity[];
  pagination: PaginationMeta;
}

const KNOWN_PARAMETERS = new Set(['filters', 'sort', 'fields', 'populate', 'pagination', 'publicationState', 'locale', '_q']);

export class ContentApi {
  private readonly plans: PlanCache;

  constructor(
    private readonly db: Database,
    private readonly entityService: EntityService,
    readonly config: ContentApiConfig,
  ) {
    this.plans = new PlanCache(db);
  }

  async find(uid: string, context: OperationContext): Promise<FindResult> {
    const params = this.knownParams(context.params);
    const query = this.compileRead(uid, params, context.auth);
    const pagination = parsePagination(params.pagination, this.config);
    const repository = this.db.query(uid);
    const [results, total] = await Promise.all([
      repository.findMany({ query, page: toPage(pagination) }),
      // The count reads the same plan: it ignores populate, and shares its compiled SQL.
      pagination.withCount ? repository.count({ query }) : Promise.resolve(undefined),
    ]);
    return { results, pagination: paginationMeta(pagination, total) };
  }

  async findOne(uid: string, id: unknown, context: OperationContext): Promise<Entity> {
    const params = this.knownParams(context.params);
    const query = this.compileRead(uid, params, context.auth);
    const entry = await this.db.query(uid).findOne({ query, id: parseId(id) });
    if (!entry) throw new NotFoundError();
    return entry;
  }

  async create(uid: string, data: unknown, context: OperationContext): Promise<Entity> {
    const query = this.compileForWrite(uid, this.knownParams(context.params), context.auth);
    return this.entityService.create(uid, requireData(data), { query });
  }

  async update(uid: string, id: unknown, data: unknown, context: OperationContext): Promise<Entity> {
    const query = this.compileForWrite(uid, this.knownParams(context.params), context.auth);
    return this.entityService.update(uid, parseId(id), requireData(data), { query });
  }

  async delete(uid: string, id: unknown, context: OperationContext): Promise<Entity> {
    const query = this.compileForWrite(uid, this.knownParams(context.params), context.auth);
    return this.entityService.delete(uid, parseId(id), { query });
  }

  /** A single type's entry; 404 when absent (or a draft under `live`). */
  async findSingle(uid: string, context: OperationContext): Promise<Entity> {
    const params = this.knownParams(context.params);
    const query = this.compileRead(uid, params, context.auth);
    const [entry] = await this.db.query(uid).findMany({ query, page: { limit: 1, offset: 0 } });
    if (!entry) throw new NotFoundError();
    return entry;
  }

  /** PUT on a single type: updates the entry, or creates it when absent. */
  async upsertSingle(uid: string, data: unknown, context: OperationContext): Promise<Entity> {
    const query = this.compileForWrite(uid, this.knownParams(context.params), context.auth);
    const values = requireData(data);
    // Look-up and create in one locked transaction: concurrent PUTs on an absent entry must create it once.
    return this.db.transaction(async () => {
      await this.db.lock([`single:${uid}`]);
      const existing = await this.firstId(uid);
      if (existing === null) return this.entityService.create(uid, values, { query });
      return this.entityService.update(uid, existing, values, { query });
    });
  }

  async deleteSingle(uid: string, context: OperationContext): Promise<Entity> {
    const query = this.compileForWrite(uid, this.knownParams(context.params), context.auth);
    const existing = await this.firstId(uid);
    if (existing === null) throw new NotFoundError();
    return this.entityService.delete(uid, existing, { query });
  }

  private async firstId(uid: string): Promise<number | null> {
    const repository = this.db.query(uid);
    const idOnly: EntityQuery = { ...repository.everything, fields: [repository.entity.columns.get('id')!] };
    const [entry] = await repository.findMany({ query: idOnly, page: { limit: 1, offset: 0 } });
    return entry ? entry.id : null;
  }

  /** A read plan: the same parameters and read scope give the same (shared) plan. */
  private compileRead(uid: string, params: RequestParams, auth: AuthState): EntityQuery {
    if (params.publicationState === 'preview' && !this.mayPreview(uid, auth)) throw new ForbiddenError();
    const { pagination: _pagination, ...planParams } = params;
    return this.plans.get(uid, planParams, auth, () => this.compile(uid, params, auth));
  }

  /**
   * What a write answers with: the entry written (or deleted) whatever its
   * state, while populated relations keep the request's publication state —
   * a write never becomes a way to read someone else's drafts.
   */
  private compileForWrite(uid: string, params: RequestParams, auth: AuthState): EntityQuery {
    return { ...this.compile(uid, params, auth), publicationState: 'preview' };
  }

  /** Compiles the caller's parameters: drafts only for those allowed, populate only into readable types. */
  private compile(uid: string, params: RequestParams, auth: AuthState): EntityQuery {
    const entity = this.db.entity(uid);
    if (params.publicationState === 'preview' && !this.mayPreview(uid, auth)) throw new ForbiddenError();
    const queryParams: QueryParams = {
      filters: mergeSearch(params.filters, params._q, entity),
      sort: params.sort,
      fields: params.fields,
      populate: params.populate,
      publicationState: params.publicationState,
    };
    return this.db.query(uid).plan(queryParams, {
      strictParams: this.config.strictParams,
      canRead: (target) => target.startsWith('api::') ? auth.ability.can(`${target}.find`) : true,
      defaultPublicationState: 'live',
    });
  }

  private mayPreview(uid: string, auth: AuthState): boolean {
    if (this.config.publicPreview) return true;
    return auth.strategy !== 'public' && auth.ability.can(`${uid}.find`);
  }

  private knownParams(params: RequestParams = {}): RequestParams {
    const known: RequestParams = {};
    for (const [key, value] of Object.entries(params)) {
      if (KNOWN_PARAMETERS.has(key)) known[key] = value;
      else if (this.config.strictParams) throw new ValidationError(`Invalid parameter ${key}`);
    }
    return known;
  }
}

function mergeSearch(filters: unknown, q: unknown, entity: Parameters<typeof searchFilter>[1]): unknown {
  if (q === undefined || q === '') return filters;
  if (typeof q !== 'string') throw new ValidationError('Invalid parameter _q');
  const search = searchFilter(q, entity);
  return filters === undefined ? search : { $and: [filters, search] };
}

function requireData(data: unknown): unknown {
  if (data === undefined || data === null) throw new ValidationError('Missing "data" payload in the request body');
  if (typeof data !== 'object' || Array.isArray(data)) throw new ValidationError('Invalid "data" payload in the request body: expected an object');
  return data;
}

/** Ids in paths are positive integers; anything else cannot exist. */
export function parseId(id: unknown): number {
  const text = String(id);
  if (!/^\d{1,15}$/.test(text)) throw new NotFoundError();
  return Number(text);
}
