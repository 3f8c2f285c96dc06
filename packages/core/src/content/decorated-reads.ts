/**
 * The content API's reads once the entity service is decorated
 * (entity-service-decorations.ts), made as Strapi's core API service makes
 * them: through `findMany`/`findOne`/`count` of the decorated service, so a
 * plugin's decorator (strapi-plugin-soft-delete's `wrapParams`) changes what
 * REST and GraphQL answer, as on Strapi.
 *
 * The caller's parameters were checked and compiled first, as on the direct
 * path (content-api.ts), so the same requests are refused. The decorators get
 * Strapi's parameters with the publication state the caller may have, the
 * page as `start`/`limit`, and the request's entry budget; the answer is then
 * cut to what the caller may see (clean-output.ts), as Strapi's controller
 * sanitizes it.
 */
import type { Database, Entity, EntryBudget, Page, ReadPlan } from '@tessera/database';
import type { Caller } from '../auth/caller';
import type { EntityService, FindParams } from './entity-service';
import { cleanOutput } from './clean-output';

export interface DecoratedRead {
  uid: string;
  /** The request's parameters (known ones only). */
  params: Record<string, unknown>;
  /** Their compiled plan for this caller: its publication state is the one the decorators get. */
  query: ReadPlan;
  caller: Caller;
  budget: EntryBudget;
}

export class DecoratedReads {
  constructor(
    private readonly service: EntityService,
    private readonly db: Database,
  ) {}

  async find(read: DecoratedRead, page: Page, withCount: boolean): Promise<{ results: Entity[]; total: number | undefined }> {
    const params = fetchParams(read);
    const [results, total] = await Promise.all([
      this.service.findMany(read.uid, { ...params, start: page.offset, limit: page.limit }),
      withCount ? this.service.count(read.uid, params) : undefined,
    ]);
    return { results: this.visible(read, Array.isArray(results) ? results : []) as Entity[], total };
  }

  async findOne(read: DecoratedRead, id: number): Promise<Entity | null> {
    return this.visible(read, await this.service.findOne(read.uid, id, fetchParams(read))) as Entity | null;
  }

  /** A single type's entry (the entity service answers it, or null, for a single type's findMany). */
  async findSingle(read: DecoratedRead): Promise<Entity | null> {
    const entry = await this.service.findMany(read.uid, fetchParams(read));
    return this.visible(read, Array.isArray(entry) ? (entry[0] ?? null) : entry) as Entity | null;
  }

  private visible(read: DecoratedRead, data: unknown): unknown {
    return cleanOutput(data, this.db.entity(read.uid), this.db, read.caller);
  }
}

function fetchParams(read: DecoratedRead): FindParams {
  const { pagination: _page, ...params } = read.params;
  return { ...params, publicationState: read.query.publicationState, budget: read.budget };
}
