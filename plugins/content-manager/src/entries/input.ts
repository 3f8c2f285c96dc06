/**
 * What of a panel's body an entry write uses (Strapi's `sanitizeCreateInput`/`sanitizeUpdateInput`): the type's
 * writable attributes the admin may write, but those the schema hides from admins (hidden-fields.ts), nothing else. The panel sends the whole entry back on save (`id`,
 * timestamps, `createdBy`, relations as `{ connect, disconnect }`): what is not writable is dropped here, and the
 * authorship stamps are then set from the signed-in admin, never from the body.
 */
import { ValidationError, printValue } from '@tessera/errors';
import type { EntityMetadata, Metadata } from '@tessera/database';
import type { HiddenFields } from './hidden-fields';

const NOT_WRITABLE = new Set(['id', 'createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy']);

export type WriteBody = Record<string, unknown>;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as an object (a missing body is an empty one). */
export function bodyObject(body: unknown): WriteBody {
  if (body === undefined || body === null) return {};
  if (!isRecord(body)) throw ValidationError.forField([], `this must be a \`object\` type, but the final value was: \`${printValue(body)}\`.`);
  return body;
}

/** The writable attributes of `body` that `fields` (null: all) permits; components keep their own permitted fields. */
export function writableInput(body: WriteBody, entity: EntityMetadata, metadata: Metadata, hidden: HiddenFields, fields: string[] | null, prefix = ''): WriteBody {
  const out: WriteBody = {};
  const hiddenHere = hidden(entity.uid);
  const permitted = (name: string): boolean => fields === null || fields.some((field) => field === prefix + name || field.startsWith(`${prefix}${name}.`));
  for (const [key, value] of Object.entries(body)) {
    if (NOT_WRITABLE.has(key) || hiddenHere.has(key) || !permitted(key)) continue;
    const column = entity.columns.get(key);
    const link = entity.links.get(key);
    if (column && !column.system) out[key] = value;
    else if (link?.kind === 'component' && fields !== null) out[key] = componentInput(value, link.components[0], metadata, hidden, fields, `${prefix}${key}.`);
    else if (link) out[key] = value;
  }
  return out;
}

function componentInput(value: unknown, uid: string, metadata: Metadata, hidden: HiddenFields, fields: string[], prefix: string): unknown {
  const component = metadata.get(uid);
  if (!component) return value;
  // A component's id stays: it names the component the write updates in place (its untouched relations kept).
  const one = (item: unknown): unknown => (isRecord(item) ? { ...(item.id === undefined ? {} : { id: item.id }), ...writableInput(item, component, metadata, hidden, fields, prefix) } : item);
  return Array.isArray(value) ? value.map(one) : one(value);
}
