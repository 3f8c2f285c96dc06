/**
 * Strapi's admin authorship stamps (`createdBy`, `updatedBy`: `created_by_id`, `updated_by_id`). Server code may
 * write them, as Strapi's entity service lets its content manager do (`setCreatorFields`): an admin user's id, or
 * `{ id }`. The content API never passes them on (its writes refuse unknown keys and the validator drops system
 * fields), so a client cannot claim an author.
 */
const STAMPS = new Set(['createdBy', 'updatedBy']);

export function isAuthorshipStamp(key: string): boolean {
  return STAMPS.has(key);
}

/** The admin id a stamp names, or undefined for anything else (dropped, as other system fields are). */
export function stampedAdminId(value: unknown): number | null | undefined {
  if (value === null) return null;
  const id = typeof value === 'object' && !Array.isArray(value) ? (value as { id?: unknown }).id : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
