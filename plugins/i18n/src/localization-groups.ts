/**
 * Groups of localizations: the entries of one content in different locales,
 * each linked to every other through `localizations`, sharing the values of
 * the type's shared (non-localized) fields. This is the one place that reads
 * and writes groups; the operations that create localizations and the write
 * rule (localized-writes.ts) call it, inside their write's transaction.
 *
 * It writes through the query engine (`db.query`), which runs no write rule:
 * keeping a group consistent never triggers itself.
 */
import type { App, Entity } from '@tessera/core';
import { LOCALE_ATTRIBUTE, LOCALIZATIONS_ATTRIBUTE, sharedAttributes, type SharedAttributes } from './localized-types';

/** An entry of a group: its id and locale. */
export interface GroupMember {
  id: number;
  locale: unknown;
}

export class LocalizationGroups {
  private readonly shared = new Map<string, SharedAttributes>();

  constructor(private readonly app: App) {}

  /** The shared attributes of a localized type (computed once). */
  sharedOf(uid: string): SharedAttributes {
    let attributes = this.shared.get(uid);
    if (!attributes) this.shared.set(uid, (attributes = sharedAttributes(this.app.contentTypes.get(uid))));
    return attributes;
  }

  /** Whether `data` writes a shared field of `uid`. */
  writesShared(uid: string, data: Record<string, unknown>): boolean {
    const { columns, links } = this.sharedOf(uid);
    return [...columns, ...links].some((name) => data[name] !== undefined);
  }

  /** Entry `id` and the other entries of its group, or null when there is no entry `id`. */
  async groupOf(uid: string, id: number): Promise<GroupMember[] | null> {
    const entry = await this.app.db.query(uid).findOne({
      where: { id },
      select: ['id', LOCALE_ATTRIBUTE],
      populate: { [LOCALIZATIONS_ATTRIBUTE]: { select: ['id', LOCALE_ATTRIBUTE] } },
    });
    if (!entry) return null;
    return [entry, ...((entry[LOCALIZATIONS_ATTRIBUTE] as Entity[] | undefined) ?? [])].map((member) => ({ id: member.id, locale: member[LOCALE_ATTRIBUTE] }));
  }

  /** Every entry of a single type (its entries are one content in several locales), by id. */
  async singleTypeEntries(uid: string): Promise<GroupMember[]> {
    const entries = await this.app.db.query(uid).findMany({ select: ['id', LOCALE_ATTRIBUTE], orderBy: { id: 'asc' } });
    return entries.map((entry) => ({ id: entry.id, locale: entry[LOCALE_ATTRIBUTE] }));
  }

  /** The shared values of an entry, in the form a write takes (components without ids, media as ids). */
  async sharedValues(uid: string, id: number): Promise<Record<string, unknown>> {
    const { columns, links } = this.sharedOf(uid);
    if (columns.length === 0 && links.length === 0) return {};
    const populate = Object.fromEntries(links.map((name) => [name, true]));
    const entry = await this.app.db.query(uid).findOne({ where: { id }, select: ['id', ...columns], populate });
    if (!entry) return {};
    const values: Record<string, unknown> = {};
    for (const name of columns) values[name] = entry[name];
    for (const name of links) values[name] = writable(this.app.contentTypes.get(uid).attributes[name]?.type, entry[name]);
    return values;
  }

  /** Links every entry of `group` with every other one. */
  async link(uid: string, group: number[]): Promise<void> {
    const repository = this.app.db.query(uid);
    for (const id of group) await repository.update({ where: { id }, data: { [LOCALIZATIONS_ATTRIBUTE]: group.filter((other) => other !== id) } });
  }

  /** Copies entry `id`'s shared values to `members` (the rest of its group). */
  async spreadShared(uid: string, id: number, members: number[]): Promise<void> {
    if (members.length === 0) return;
    const values = await this.sharedValues(uid, id);
    if (Object.keys(values).length === 0) return;
    const repository = this.app.db.query(uid);
    const updatedAt = new Date();
    for (const member of members) await repository.update({ where: { id: member }, data: { ...values, updatedAt } });
  }
}

/** A read value in the form a write takes: media as ids, components without their ids. */
function writable(type: string | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'media') return Array.isArray(value) ? value.map((file) => (file as Entity).id) : (value as Entity).id;
  return withoutIds(value);
}

function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (key !== 'id') copy[key] = withoutIds(item);
  return copy;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
