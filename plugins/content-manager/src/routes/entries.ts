/**
 * The content manager's entry routes (Strapi 4.26.2's `server/routes/admin.js`: collection types, single types,
 * relation pickers) on the plugin's admin router: the kernel authenticates them with the admin strategy only (the
 * content API's credentials are never admitted) and `admin::isAuthenticatedAdmin` requires a signed-in admin.
 * What the admin may do with the route's `:model` is decided by the handlers (entries/access.ts), as Strapi's
 * content-manager `hasPermissions` policy and permission checker decide it.
 */
import type { RouteConfig } from '@tessera/core';
import { IS_AUTHENTICATED_ADMIN } from '@tessera/plugin-admin';

const route = (method: RouteConfig['method'], path: string, handler: string): RouteConfig => ({
  method,
  path,
  handler,
  config: { policies: [IS_AUTHENTICATED_ADMIN] },
});

const C = '/collection-types/:model';
const S = '/single-types/:model';

export const ENTRY_ROUTES: RouteConfig[] = [
  route('GET', '/relations/:model/:targetField', 'relations.findAvailable'),
  route('GET', '/relations/:model/:id/:targetField', 'relations.findExisting'),
  route('GET', S, 'single-types.find'),
  route('PUT', S, 'single-types.createOrUpdate'),
  route('DELETE', S, 'single-types.delete'),
  route('POST', `${S}/actions/publish`, 'single-types.publish'),
  route('POST', `${S}/actions/unpublish`, 'single-types.unpublish'),
  route('GET', `${S}/actions/countDraftRelations`, 'single-types.countDraftRelations'),
  route('GET', C, 'collection-types.find'),
  route('POST', C, 'collection-types.create'),
  route('POST', `${C}/clone/:sourceId`, 'collection-types.clone'),
  route('POST', `${C}/auto-clone/:sourceId`, 'collection-types.autoClone'),
  route('POST', `${C}/actions/bulkDelete`, 'collection-types.bulkDelete'),
  route('POST', `${C}/actions/bulkPublish`, 'collection-types.bulkPublish'),
  route('POST', `${C}/actions/bulkUnpublish`, 'collection-types.bulkUnpublish'),
  route('GET', `${C}/actions/countManyEntriesDraftRelations`, 'collection-types.countManyEntriesDraftRelations'),
  route('GET', `${C}/:id`, 'collection-types.findOne'),
  route('PUT', `${C}/:id`, 'collection-types.update'),
  route('DELETE', `${C}/:id`, 'collection-types.delete'),
  route('POST', `${C}/:id/actions/publish`, 'collection-types.publish'),
  route('POST', `${C}/:id/actions/unpublish`, 'collection-types.unpublish'),
  route('GET', `${C}/:id/actions/countDraftRelations`, 'collection-types.countDraftRelations'),
];
