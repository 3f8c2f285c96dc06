/**
 * What a webhook receives about an entry, as Strapi v4's content manager
 * sends it: the entry with its components and dynamic zones (every level),
 * media, and relations — the related entries when
 * `server.webhooks.populateRelations` is true (Strapi's default), `{ count }`
 * when it is false — with private attributes removed at every level.
 * The populate plan is built once per type.
 */
import type { Database, Entity, ReadPlan, Metadata } from '@tessera/database';
import { FILE_UID } from '@tessera/database';
import { publicEntry } from '../content/content-events';

/** Components may nest; the query engine's populate depth bound is 10, a relation and media add one. */
const MAX_COMPONENT_DEPTH = 8;

export class PayloadReader {
  private readonly plans = new Map<string, ReadPlan>();

  constructor(
    private readonly db: () => Database,
    private readonly populateRelations: boolean,
  ) {}

  /** The entry `id` of `uid` as a webhook shows it, read in the current transaction; null when it is gone. */
  async entry(uid: string, id: number): Promise<Record<string, unknown> | null> {
    const db = this.db();
    const entry = await db.query(uid).findOne({ query: this.plan(uid), id });
    return entry ? publicEntry(uid, entry, db.metadata) : null;
  }

  /** A file row as `media.*` events show it (Strapi: the row, sanitised). */
  media(file: Entity): Record<string, unknown> {
    return publicEntry(FILE_UID, file, this.db().metadata);
  }

  private plan(uid: string): ReadPlan {
    let plan = this.plans.get(uid);
    if (!plan) {
      const db = this.db();
      const populate = deepPopulate(uid, db.metadata, this.populateRelations, 0);
      plan = db.query(uid).plan({ populate, publicationState: 'preview' }, { allowPrivate: true });
      this.plans.set(uid, plan);
    }
    return plan;
  }
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
