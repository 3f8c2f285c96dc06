/**
 * The entity service: trusted, transport-free CRUD on content types. It
 * validates writes, keeps timestamps and draft/publish state, checks unique
 * attributes, and runs every write with its hooks in one transaction. It does
 * not know who is calling — the content API operations add that.
 */
import { ValidationError, type ValidationIssue } from '@tessera/errors';
import type { Database, Entity, EntityMetadata, EntityQuery, Page, QueryParams } from '@tessera/database';
import { buildEntryValidator, type EntryValidator } from './validate-entry';
import { buildComponentsValidator } from './validate-components';

export interface FindParams extends QueryParams {
  /** A compiled query; when given, the other query parameters are ignored. */
  query?: EntityQuery;
  start?: number;
  limit?: number;
}

export interface WriteOptions {
  /** What to read back after the write (every column when omitted). */
  query?: EntityQuery;
}

export class EntityService {
  private readonly validators = new Map<string, EntryValidator>();

  constructor(private readonly db: Database) {
    for (const [uid, entity] of db.metadata) {
      if (entity.kind === 'component') continue;
      const own = buildEntryValidator(entity);
      const components = buildComponentsValidator(entity, db.metadata);
      this.validators.set(uid, (data, mode) => components(own(data, mode)));
    }
  }

  async findMany(uid: string, params: FindParams = {}): Promise<Entity[]> {
    const repository = this.db.query(uid);
    const query = params.query ?? repository.plan(params);
    return repository.findMany({ query, page: pageOf(params) });
  }

  async count(uid: string, params: FindParams = {}): Promise<number> {
    const repository = this.db.query(uid);
    return repository.count({ query: params.query ?? repository.plan(params) });
  }

  async findOne(uid: string, id: number, params: FindParams = {}): Promise<Entity | null> {
    const repository = this.db.query(uid);
    return repository.findOne({ query: params.query ?? repository.plan(params), id });
  }

  /** The single type's entry (the first row), or null. */
  async findSingle(uid: string, params: FindParams = {}): Promise<Entity | null> {
    const [entry] = await this.findMany(uid, { ...params, start: 0, limit: 1 });
    return entry ?? null;
  }

  async create(uid: string, data: unknown, options: WriteOptions = {}): Promise<Entity> {
    const entity = this.db.entity(uid);
    const values = this.validate(uid, data, 'create');
    const now = new Date();
    values.createdAt = now;
    values.updatedAt = now;
    if (entity.draftAndPublish && !('publishedAt' in values)) values.publishedAt = now;
    return this.db.transaction(async () => {
      await this.checkUnique(entity, values, null);
      return this.db.query(uid).create({ data: values, query: options.query });
    });
  }

  async update(uid: string, id: number, data: unknown, options: WriteOptions = {}): Promise<Entity> {
    const entity = this.db.entity(uid);
    const values = this.validate(uid, data, 'update');
    values.updatedAt = new Date();
    return this.db.transaction(async () => {
      await this.checkUnique(entity, values, id);
      return this.db.query(uid).update({ id, data: values, query: options.query });
    });
  }

  async delete(uid: string, id: number, options: WriteOptions = {}): Promise<Entity> {
    return this.db.query(uid).delete({ id, query: options.query });
  }

  private validate(uid: string, data: unknown, mode: 'create' | 'update'): Record<string, unknown> {
    const validator = this.validators.get(uid);
    if (!validator) throw new ValidationError(`${uid} is not a content type`);
    return validator(data, mode);
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

function pageOf(params: FindParams): Page | undefined {
  if (params.limit === undefined && params.start === undefined) return undefined;
  return { limit: params.limit, offset: params.start ?? 0 };
}
