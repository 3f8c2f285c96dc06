/**
 * Upload's admin routes, declared as Strapi 4.26.2's upload plugin declares
 * them (`server/routes/admin.js` and `view-configuration.js`): the same
 * paths under `/upload`, handlers and policies — `admin::isAuthenticatedAdmin`,
 * then `admin::hasPermissions` with the route's actions. `POST /upload`
 * streams its multipart body itself (the `multipart` route middleware), as
 * the content API's upload route does.
 */
import type { RouteConfig } from '@tessera/core';
import { HAS_PERMISSIONS, IS_AUTHENTICATED_ADMIN as AUTHENTICATED } from '@tessera/plugin-admin';
import { ACTIONS, type UploadAction } from './access';

function route(method: RouteConfig['method'], path: string, handler: string, actions: UploadAction[] = []): RouteConfig {
  const policies: NonNullable<RouteConfig['config']>['policies'] = [AUTHENTICATED];
  if (actions.length > 0) policies.push({ name: HAS_PERMISSIONS, config: { actions } });
  return { method, path, handler, config: { policies } };
}

export const ADMIN_ROUTES: RouteConfig[] = [
  route('GET', '/settings', 'admin-settings.getSettings', [ACTIONS.readSettings]),
  route('PUT', '/settings', 'admin-settings.updateSettings', [ACTIONS.readSettings]),
  { ...route('POST', '/', 'admin-upload.upload'), config: { policies: [AUTHENTICATED], middlewares: ['multipart'] } },
  route('GET', '/files', 'admin-file.find', [ACTIONS.read]),
  route('GET', '/files/:id', 'admin-file.findOne', [ACTIONS.read]),
  route('DELETE', '/files/:id', 'admin-file.destroy', [ACTIONS.update]),
  route('GET', '/folders/:id', 'admin-folder.findOne', [ACTIONS.read]),
  route('GET', '/folders', 'admin-folder.find', [ACTIONS.read]),
  route('POST', '/folders', 'admin-folder.create', [ACTIONS.create]),
  route('PUT', '/folders/:id', 'admin-folder.update', [ACTIONS.update]),
  route('GET', '/folder-structure', 'admin-folder.getStructure', [ACTIONS.read]),
  route('POST', '/actions/bulk-delete', 'admin-folder-file.deleteMany', [ACTIONS.update]),
  route('POST', '/actions/bulk-move', 'admin-folder-file.moveMany', [ACTIONS.update]),
];

export const VIEW_CONFIGURATION_ROUTES: RouteConfig[] = [
  route('GET', '/configuration', 'view-configuration.findViewConfiguration'),
  route('PUT', '/configuration', 'view-configuration.updateViewConfiguration', [ACTIONS.configureView]),
];
