/**
 * Rules a plugin adds to the writes of some content types (i18n: an entry's
 * locale, and the fields its localizations share), declared in
 * `app.writeRules` during `register`. The entity service — so every
 * content-API write, REST and GraphQL alike, and every `strapi.entityService`
 * write of server code — calls them inside the write's transaction: a
 * `prepare` step gets the data asked for and returns the data to write (it
 * never changes its argument), an `after` step gets the entry's id and the
 * data written. What a rule writes itself goes through the query engine
 * (`db.query`), which calls no rule, so nothing loops and nothing needs
 * marking. A rule that throws rolls the whole write back.
 */

/** A write's data, by attribute name. */
export type WriteData = Record<string, unknown>;

export interface WriteRule {
  /** Whether the rule governs writes of this content type (asked once per type). */
  appliesTo(uid: string): boolean;
  /** Before a create's validation: the data to create. */
  prepareCreate?(uid: string, data: WriteData): Promise<WriteData> | WriteData;
  /** Once the entry exists (same transaction). */
  afterCreate?(uid: string, id: number, data: WriteData): Promise<void>;
  /** Before an update's validation: the data to write on entry `id`. */
  prepareUpdate?(uid: string, id: number, data: WriteData): Promise<WriteData> | WriteData;
  /** Once entry `id` is updated (same transaction); `data` is what was written. */
  afterUpdate?(uid: string, id: number, data: WriteData): Promise<void>;
}

/** The rules of each content type, chosen once. */
export class WriteRules {
  private readonly byType = new Map<string, readonly WriteRule[]>();

  constructor(private readonly rules: readonly WriteRule[]) {}

  of(uid: string): readonly WriteRule[] {
    let rules = this.byType.get(uid);
    if (!rules) this.byType.set(uid, (rules = this.rules.filter((rule) => rule.appliesTo(uid))));
    return rules;
  }

  async prepareCreate(uid: string, data: unknown): Promise<unknown> {
    let prepared = data;
    for (const rule of this.of(uid)) if (rule.prepareCreate && isRecord(prepared)) prepared = await rule.prepareCreate(uid, prepared);
    return prepared;
  }

  async afterCreate(uid: string, id: number, data: WriteData): Promise<void> {
    for (const rule of this.of(uid)) await rule.afterCreate?.(uid, id, data);
  }

  async prepareUpdate(uid: string, id: number, data: unknown): Promise<unknown> {
    let prepared = data;
    for (const rule of this.of(uid)) if (rule.prepareUpdate && isRecord(prepared)) prepared = await rule.prepareUpdate(uid, id, prepared);
    return prepared;
  }

  async afterUpdate(uid: string, id: number, data: WriteData): Promise<void> {
    for (const rule of this.of(uid)) await rule.afterUpdate?.(uid, id, data);
  }
}

function isRecord(value: unknown): value is WriteData {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
