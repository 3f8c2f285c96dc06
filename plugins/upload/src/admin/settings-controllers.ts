/**
 * The media library's settings (Strapi's `admin-settings`: the image options
 * stored as `plugin_upload_settings`, settings.ts) and its view configuration
 * (Strapi's `view-configuration`: page size and sort of the library, stored as
 * `plugin_upload_view_configuration`, defaulted at bootstrap as Strapi does).
 */
import type Koa from 'koa';
import { ForbiddenError } from '@tessera/errors';
import { requestBody, type App, type KernelContext } from '@tessera/core';
import { ACTIONS, mayAct } from './access';
import { Issues, objectBody, required, typeMessage } from './checks';
import { MAX_PAGE_SIZE } from './file-query';

/** Strapi's `ALLOWED_SORT_STRINGS`, in its order (the first is the default). */
export const ALLOWED_SORTS = ['createdAt:DESC', 'createdAt:ASC', 'name:ASC', 'name:DESC', 'updatedAt:DESC', 'updatedAt:ASC'];
export const DEFAULT_VIEW_CONFIGURATION = { pageSize: 10, sort: ALLOWED_SORTS[0] };

const viewRow = (app: App) => app.store({ type: 'plugin', name: 'upload', key: 'view_configuration' });

/** Bootstrap, as Strapi's: a row missing or lacking a key gets the defaults under what it has. */
export async function ensureViewConfiguration(app: App): Promise<void> {
  const stored = await viewRow(app).get({});
  const current = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as Record<string, unknown>) : null;
  if (current && Object.keys(DEFAULT_VIEW_CONFIGURATION).every((key) => key in current)) return;
  await viewRow(app).set({ value: { ...DEFAULT_VIEW_CONFIGURATION, ...(current ?? {}) } });
}

function checkBooleans(raw: unknown, keys: string[]): Record<string, boolean> {
  const body = objectBody(raw);
  const issues = new Issues();
  const out: Record<string, boolean> = {};
  for (const key of keys) {
    const value = body[key];
    if (value === undefined || value === null) issues.add([key], required(key));
    else if (typeof value !== 'boolean') issues.add([key], typeMessage(key, 'boolean', value));
    else out[key] = value;
  }
  issues.throwIfAny();
  // The panel's third option, kept when sent (Strapi stores the whole body); nothing else is stored.
  if (typeof body.autoOrientation === 'boolean') out.autoOrientation = body.autoOrientation;
  return out;
}

function checkViewConfiguration(raw: unknown): { pageSize: number; sort?: string } {
  const body = objectBody(raw);
  const issues = new Issues();
  const { pageSize, sort } = body;
  if (pageSize === undefined || pageSize === null) issues.add(['pageSize'], required('pageSize'));
  else if (typeof pageSize !== 'number' || Number.isNaN(pageSize)) issues.add(['pageSize'], typeMessage('pageSize', 'number', pageSize));
  else if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) issues.add(['pageSize'], `pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  if (sort !== undefined && !(typeof sort === 'string' && ALLOWED_SORTS.includes(sort))) {
    issues.add(['sort'], `sort must be one of the following values: ${ALLOWED_SORTS.join(', ')}`);
  }
  issues.throwIfAny();
  return sort === undefined ? { pageSize: pageSize as number } : { pageSize: pageSize as number, sort: sort as string };
}

export function adminSettingsControllers({ app }: KernelContext) {
  const upload = () => app.plugin('upload')!.service('upload');
  return {
    'admin-settings': {
      async getSettings(ctx: Koa.Context) {
        if (!mayAct(ctx, ACTIONS.readSettings)) throw new ForbiddenError();
        ctx.body = { data: await upload().getSettings() };
      },
      async updateSettings(ctx: Koa.Context) {
        if (!mayAct(ctx, ACTIONS.readSettings)) throw new ForbiddenError();
        const data = checkBooleans(requestBody(ctx), ['sizeOptimization', 'responsiveDimensions']);
        await upload().setSettings(data);
        ctx.body = { data };
      },
    },
    'view-configuration': {
      async findViewConfiguration(ctx: Koa.Context) {
        ctx.body = { data: await viewRow(app).get({}) };
      },
      async updateViewConfiguration(ctx: Koa.Context) {
        if (!mayAct(ctx, ACTIONS.configureView, true)) throw new ForbiddenError();
        const data = checkViewConfiguration(requestBody(ctx));
        await viewRow(app).set({ value: data });
        ctx.body = { data };
      },
    },
  };
}
