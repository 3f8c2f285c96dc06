/**
 * `createdBy`/`updatedBy` in the content manager's answers: the admin users named by an entry's
 * `created_by_id`/`updated_by_id` (Strapi's admin authorship columns), as Strapi populates them —
 * `{ id, firstname, lastname, username }`, or null. Two queries for any number of entries: the stamps, then the
 * admins they name.
 */
import type { App } from '@tessera/core';


const ADMIN_USER = 'admin::user';
const AUTHOR_FIELDS = ['id', 'firstname', 'lastname', 'username'];

export type Author = Record<string, unknown> | null;

export async function authorsOf(app: App, uid: string, ids: number[]): Promise<Map<number, { createdBy: Author; updatedBy: Author }>> {
  const found = new Map<number, { createdBy: Author; updatedBy: Author }>();
  if (ids.length === 0) return found;
  const stamps = await app.db.query(uid).findMany({ where: { id: { $in: ids } }, select: ['id', 'createdBy', 'updatedBy'] });
  const adminIds = new Set<number>();
  for (const row of stamps) for (const key of ['createdBy', 'updatedBy']) if (typeof row[key] === 'number') adminIds.add(row[key] as number);
  const admins = new Map<number, Author>();
  if (adminIds.size > 0) {
    const rows = await app.db.query(ADMIN_USER).findMany({ where: { id: { $in: [...adminIds] } }, select: AUTHOR_FIELDS });
    for (const row of rows) admins.set(row.id, Object.fromEntries(AUTHOR_FIELDS.map((field) => [field, row[field] ?? null])));
  }
  for (const row of stamps) {
    const author = (key: string): Author => (typeof row[key] === 'number' ? admins.get(row[key] as number) ?? null : null);
    found.set(row.id, { createdBy: author('createdBy'), updatedBy: author('updatedBy') });
  }
  return found;
}

/**
 * Each shaped entry with its authors after its own attributes, as Strapi's answers list them; the relations a
 * plugin added (`late`: i18n's `localizations`) come after the authors, as in Strapi's attribute order.
 */
export async function withAuthors(app: App, uid: string, entries: Array<Record<string, unknown> & { id?: unknown }>, late: string[] = []): Promise<Array<Record<string, unknown>>> {
  const ids = entries.map((entry) => entry.id).filter((id): id is number => typeof id === 'number');
  const authors = await authorsOf(app, uid, ids);
  return entries.map((entry) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(entry)) if (!late.includes(key)) out[key] = value;
    Object.assign(out, authors.get(entry.id as number) ?? { createdBy: null, updatedBy: null });
    for (const key of late) if (key in entry) out[key] = entry[key];
    return out;
  });
}

