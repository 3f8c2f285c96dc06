/**
 * `ref`, `refId`, `field` on an upload: link the new files to an entry's
 * media attribute. The attach operation, for a caller (REST's and GraphQL's
 * adapters pass the request's, Strapi-style server calls `Caller.server`):
 * checked before any byte is stored (the caller may update the entry, which
 * exists); read and written through the entity service, so the media writer
 * (`files_related_morphs`) does the linking: a single media field gets the
 * new file, a multiple one gets the new files appended.
 */
import { ForbiddenError, ValidationError } from '@tessera/errors';
import { parseId, type App, type Caller } from '@tessera/core';

export interface LinkTarget {
  uid: string;
  id: number;
  field: string;
  multiple: boolean;
}

export async function linkTarget(app: App, fields: Record<string, string | string[]>, caller: Caller): Promise<LinkTarget | null> {
  const ref = single(fields.ref);
  const refId = single(fields.refId);
  const field = single(fields.field);
  if (ref === undefined && refId === undefined && field === undefined) return null;
  if (!ref || !refId || !field) throw new ValidationError('ref, refId and field go together');
  const contentType = app.contentTypes.find(ref);
  if (!contentType || ref.startsWith('admin::') || ref.startsWith('plugin::upload.')) throw ValidationError.forField(['ref'], `ref: unknown content type ${ref}`);
  const attribute = contentType.attributes[field] as { type?: string; multiple?: boolean } | undefined;
  if (attribute?.type !== 'media') throw ValidationError.forField(['field'], `field: ${ref} has no media attribute ${field}`);
  // Attaching a file changes the entry: the caller must be allowed to update it.
  if (!caller.may(`${ref}.update`)) throw new ForbiddenError();
  let id: number;
  try {
    id = parseId(refId);
  } catch {
    throw ValidationError.forField(['refId'], 'refId must be an entry id');
  }
  // Server code's read (the entity service): whatever its state or locale, the id names the entry to attach to.
  const exists = await app.entityService.findOne(ref, id, { fields: ['id'] });
  if (!exists) throw ValidationError.forField(['refId'], `refId: ${ref} has no entry ${id}`);
  return { uid: ref, id, field, multiple: attribute.multiple === true };
}

export async function linkFiles(app: App, target: LinkTarget, fileIds: number[]): Promise<void> {
  let ids = fileIds.slice(-1);
  if (target.multiple) {
    const entry = await app.entityService.findOne(target.uid, target.id, { populate: { [target.field]: { fields: ['id'] } }, fields: ['id'] });
    const current = ((entry?.[target.field] as Array<{ id: number }> | null) ?? []).map((file) => file.id);
    ids = [...current, ...fileIds];
  }
  await app.entityService.update(target.uid, target.id, { data: { [target.field]: ids } });
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
