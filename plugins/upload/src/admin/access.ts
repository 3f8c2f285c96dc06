/**
 * Upload's RBAC actions (Strapi's names) and what the admin controllers ask
 * of the signed-in admin's ability beyond the routes' `admin::hasPermissions`
 * policy: whether an action is granted at all, whether it is granted on one
 * file (its conditions, such as `admin::is-creator`, decided on the file and
 * its creator), and the conditions of a list as filters.
 */
import type Koa from 'koa';
import { ForbiddenError } from '@tessera/errors';
import type { App } from '@tessera/core';
import { FILE_UID } from '@tessera/database';
import { adminAbility } from '@tessera/plugin-admin';
import type { Editor } from '../services/upload';

export const ACTIONS = {
  read: 'plugin::upload.read',
  readSettings: 'plugin::upload.settings.read',
  create: 'plugin::upload.assets.create',
  update: 'plugin::upload.assets.update',
  download: 'plugin::upload.assets.download',
  copyLink: 'plugin::upload.assets.copy-link',
  configureView: 'plugin::upload.configure-view',
} as const;

export type UploadAction = (typeof ACTIONS)[keyof typeof ACTIONS];

/** The signed-in admin, as the editor of what it writes (`createdBy`/`updatedBy`). */
export function editorOf(ctx: Koa.Context): Editor {
  return { id: adminAbility(ctx).userId };
}

/** Whether the admin holds `action` on files at all (Strapi's permissions manager `isAllowed`); `subjectless` for view actions. */
export function mayAct(ctx: Koa.Context, action: UploadAction, subjectless = false): boolean {
  return subjectless ? adminAbility(ctx).can(action) : adminAbility(ctx).can(action, FILE_UID);
}

/**
 * 403 unless `action` is granted on this file: a permission whose conditions (`admin::is-creator`, …) the file
 * meets, decided in one query on the file's row (Strapi's `findEntityAndCheckPermissions`).
 */
export async function checkFile(app: App, ctx: Koa.Context, action: UploadAction, fileId: number): Promise<void> {
  const access = adminAbility(ctx).access(action, FILE_UID);
  if (!access) throw new ForbiddenError();
  if (access.filters && (await app.db.query(FILE_UID).count({ where: { $and: [{ id: fileId }, access.filters] } })) === 0) throw new ForbiddenError();
}

/** The conditions of `action` as a filter on files (undefined: every file); 403 when the action is not granted. */
export function fileConditions(ctx: Koa.Context, action: UploadAction): Record<string, unknown> | undefined {
  const access = adminAbility(ctx).access(action, FILE_UID);
  if (!access) throw new ForbiddenError();
  return access.filters;
}

/**
 * 403 unless `action` is granted on every one of these files that exists. Strapi checks only the route's action on
 * its bulk routes, so an Author could delete or move anyone's files there; here the conditions hold on them too.
 */
export async function checkFiles(app: App, ctx: Koa.Context, action: UploadAction, fileIds: number[]): Promise<void> {
  if (fileIds.length === 0) return;
  const filters = fileConditions(ctx, action);
  if (!filters) return;
  const files = app.db.query(FILE_UID);
  const [existing, allowed] = await Promise.all([
    files.count({ where: { id: { $in: fileIds } } }),
    files.count({ where: { $and: [{ id: { $in: fileIds } }, filters] } }),
  ]);
  if (allowed < existing) throw new ForbiddenError();
}
