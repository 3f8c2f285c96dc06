/**
 * The content type an entry route names (`:model`): one the content manager edits — an app's or a plugin's
 * collection or single type, not the admin's own, not one a plugin hides from the content manager
 * (`pluginOptions['content-manager'].visible: false`, as upload's files). Anything else is Strapi's answer for a
 * type the admin holds no permission on: 403.
 */
import type { App } from '@tessera/core';
import type { EntityMetadata } from '@tessera/database';
import { ForbiddenError } from '@tessera/errors';

export function editableType(app: App, uid: string): EntityMetadata {
  const entity = app.db.metadata.get(uid);
  if (!entity || entity.kind === 'component' || uid.startsWith('admin::') || uid.startsWith('strapi::')) throw new ForbiddenError();
  const contentType = app.contentTypes.find(uid);
  const options = contentType?.pluginOptions?.['content-manager'] as { visible?: unknown } | undefined;
  if (!contentType || options?.visible === false) throw new ForbiddenError();
  return entity;
}

/** A content type or component a relation route names (Strapi answers an unknown one with a 400). */
export function relationOwner(app: App, uid: string): EntityMetadata | null {
  const entity = app.db.metadata.get(uid);
  if (!entity || uid.startsWith('admin::') || uid.startsWith('strapi::')) return null;
  return entity;
}
