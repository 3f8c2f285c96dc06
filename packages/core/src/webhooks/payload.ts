/**
 * What a webhook receives about an entry, as Strapi v4's content manager
 * sends it: the entry with its components and dynamic zones (every level),
 * media, and relations — the related entries when
 * `server.webhooks.populateRelations` is true (Strapi's default), `{ count }`
 * when it is false — with private attributes removed at every level.
 * The populate plans are built once per type.
 *
 * Bounded, because it is read inside the write's transaction: the read is
 * refused past the content API's entry budget (`api.rest.maxPopulatedEntries`,
 * as a REST read of the same populate would be), and the JSON may not pass
 * `server.webhooks.maxPayloadBytes`. Past either bound the payload steps down
 * — relations as `{ count }`, then the entry's own fields, then `{ id }` —
 * with a warning, and the write goes on: a webhook never fails a write. The
 * relations are counted before they are read, so an entry linked to more
 * entries than the budget costs the write a count, not a read of them all.
 */
import type { Database, Entity, ReadPlan, Metadata } from '@tessera/database';
import { FILE_UID } from '@tessera/database';
import { publicEntry } from '../content/content-events';

/** Components may nest; the query engine's populate depth bound is 10, a relation and media add one. */
const MAX_COMPONENT_DEPTH = 8;

/** Bytes a payload's envelope (`event`, `createdAt`, `model`, `uid`) may take besides the entry. */
const ENVELOPE_BYTES = 1024;

export interface PayloadBounds {
  /** The entry budget of one read (`api.rest.maxPopulatedEntries`). */
  maxEntries: number;
  /** The most bytes of JSON a payload may take (`server.webhooks.maxPayloadBytes`). */
  maxBytes: number;
}

/** The populates tried in turn: the configured one, relations counted, none. */
type Shape = 'relations' | 'counted' | 'bare';

export class PayloadReader {
  private readonly plans = new Map<string, ReadPlan>();

  constructor(
    private readonly db: () => Database,
    private readonly populateRelations: boolean,
    private readonly bounds: PayloadBounds,
    private readonly warn: (message: string) => void,
  ) {}

  /**
   * The entry `id` of `uid` as a webhook shows it, read in the current transaction, within the bounds; null when it
   * is gone. The relations are counted first, so related entries past the budget are never read: the step down
   * costs a count, not a refused read of `maxPopulatedEntries` rows.
   */
  async entry(uid: string, id: number): Promise<Record<string, unknown> | null> {
    let why = '';
    const counted = await this.read(uid, id, 'counted');
    if (counted === null) return null;
    if (counted === OVER_BUDGET) why = this.overBudget();
    else if (this.populateRelations) {
      const full = countsIn(counted) < this.bounds.maxEntries ? await this.read(uid, id, 'relations') : OVER_BUDGET;
      if (full === null) return null;
      if (full === OVER_BUDGET) why = this.overBudget();
      else if (this.fits(full)) return full;
      else why = this.overBytes();
    }
    if (counted !== OVER_BUDGET) {
      if (this.fits(counted)) return this.stepped(uid, id, counted, why, 'counted');
      why = this.overBytes();
    }
    const bare = await this.read(uid, id, 'bare');
    if (bare === null) return null;
    if (bare !== OVER_BUDGET && this.fits(bare)) return this.stepped(uid, id, bare, why, 'bare');
    this.warn(`webhooks: the payload of ${uid} ${id} would hold ${this.overBytes()}: sent as { id } only`);
    return { id };
  }

  /** One read of the entry in `shape`, as a webhook shows it; OVER_BUDGET when the entry budget refused it. */
  private async read(uid: string, id: number, shape: Shape): Promise<Record<string, unknown> | null | typeof OVER_BUDGET> {
    const db = this.db();
    try {
      const entry = await db.query(uid).findOne({ query: { ...this.plan(uid, shape), maxEntries: this.bounds.maxEntries }, id });
      return entry ? publicEntry(uid, entry, db.metadata) : null;
    } catch (error) {
      if (overBudget(error)) return OVER_BUDGET;
      throw error;
    }
  }

  private fits(shown: Record<string, unknown>): boolean {
    return Buffer.byteLength(JSON.stringify(shown)) + ENVELOPE_BYTES <= this.bounds.maxBytes;
  }

  /** A smaller shape than configured, with a warning saying why (none when the configured shape is this one). */
  private stepped(uid: string, id: number, shown: Record<string, unknown>, why: string, shape: Shape): Record<string, unknown> {
    if (why) this.warn(`webhooks: the payload of ${uid} ${id} would hold ${why}: sent with ${SHAPE_NAMES[shape]}`);
    return shown;
  }

  private overBudget(): string {
    return `more than ${this.bounds.maxEntries} entries (api.rest.maxPopulatedEntries)`;
  }

  private overBytes(): string {
    return `more than ${this.bounds.maxBytes} bytes (server.webhooks.maxPayloadBytes)`;
  }

  /** A file row as `media.*` events show it (Strapi: the row, sanitised). */
  media(file: Entity): Record<string, unknown> {
    return publicEntry(FILE_UID, file, this.db().metadata);
  }

  private plan(uid: string, shape: Shape): ReadPlan {
    let plan = this.plans.get(`${shape} ${uid}`);
    if (!plan) {
      const db = this.db();
      const populate = shape === 'bare' ? {} : deepPopulate(uid, db.metadata, shape === 'relations', 0);
      plan = db.query(uid).plan({ populate, publicationState: 'preview' }, { allowPrivate: true });
      this.plans.set(`${shape} ${uid}`, plan);
    }
    return plan;
  }
}

const SHAPE_NAMES: Record<Shape, string> = { relations: 'its relations', counted: 'relations as { count }', bare: 'its own fields only' };

/** A read the entry budget refused. */
const OVER_BUDGET = Symbol('over the entry budget');

/** The related entries a `counted` read found: the sum of its `{ count }` values, at every level. */
function countsIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countsIn(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1 && keys[0] === 'count' && typeof record.count === 'number') return record.count;
  return keys.reduce((sum, key) => sum + countsIn(record[key]), 0);
}

/** The entry budget's refusal (sql/entry-budget.ts), told apart from any other error by its details. */
function overBudget(error: unknown): boolean {
  const details = (error as { details?: unknown } | null)?.details;
  return typeof details === 'object' && details !== null && 'maxPopulatedEntries' in details;
}

/** Strapi's `getDeepPopulate(uid, { countMany, countOne })` in the query engine's populate syntax. */
function deepPopulate(uid: string, metadata: Metadata, populateRelations: boolean, depth: number): Record<string, unknown> {
  const entity = metadata.get(uid);
  const populate: Record<string, unknown> = {};
  if (!entity) return populate;
  for (const [name, link] of entity.links) {
    if (link.private) continue;
    if (link.kind === 'relation') populate[name] = populateRelations ? true : { count: true };
    else if (link.kind === 'media') populate[name] = true;
    else if (depth >= MAX_COMPONENT_DEPTH) continue;
    else if (link.kind === 'component') populate[name] = nested(deepPopulate(link.components[0]!, metadata, populateRelations, depth + 1));
    else {
      const on: Record<string, unknown> = {};
      for (const component of link.components) on[component] = nested(deepPopulate(component, metadata, populateRelations, depth + 1));
      populate[name] = { on };
    }
  }
  return populate;
}

function nested(populate: Record<string, unknown>): true | { populate: Record<string, unknown> } {
  return Object.keys(populate).length === 0 ? true : { populate };
}
