/**
 * The builder's admin routes as Strapi 4.26.2's content-type-builder declares them (`server/routes/admin.js`),
 * mounted at `/content-type-builder` on the admin router: every one needs a signed-in admin holding
 * `plugin::content-type-builder.read` (Strapi's `admin::hasPermissions` policy), and the writes refuse outside
 * development (development.ts). Strapi 4.26.2 has no `update-schema` route and no GET of component categories.
 */
import type { RouteConfig } from '@tessera/core';

export const READ_ACTION = 'plugin::content-type-builder.read';

const route = (method: RouteConfig['method'], path: string, handler: string): RouteConfig => ({
  method,
  path,
  handler,
  config: { policies: [{ name: 'admin::hasPermissions', config: { actions: [READ_ACTION] } }] },
});

export const ADMIN_ROUTES: RouteConfig[] = [
  route('GET', '/reserved-names', 'builder.getReservedNames'),
  route('GET', '/content-types', 'content-types.getContentTypes'),
  route('GET', '/content-types/:uid', 'content-types.getContentType'),
  route('POST', '/content-types', 'content-types.createContentType'),
  route('PUT', '/content-types/:uid', 'content-types.updateContentType'),
  route('DELETE', '/content-types/:uid', 'content-types.deleteContentType'),
  route('GET', '/components', 'components.getComponents'),
  route('GET', '/components/:uid', 'components.getComponent'),
  route('POST', '/components', 'components.createComponent'),
  route('PUT', '/components/:uid', 'components.updateComponent'),
  route('DELETE', '/components/:uid', 'components.deleteComponent'),
  route('PUT', '/component-categories/:name', 'component-categories.editCategory'),
  route('DELETE', '/component-categories/:name', 'component-categories.deleteCategory'),
];
