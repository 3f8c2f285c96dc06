/**
 * The content manager's model routes (content types, components, their view configurations, uid fields), declared
 * as Strapi 4.26.2's content-manager `server/routes/admin.js` declares them, policies included: the kernel admits
 * only a signed-in admin on the admin router (the content API's credentials never), and saving a content type's view
 * is further checked in its controller (the configure-view action), as Strapi checks it. The entry routes live in
 * routes/entries.ts.
 */
import type { RouteConfig } from '@tessera/core';
import { IS_AUTHENTICATED_ADMIN } from '@tessera/plugin-admin';

const route = (method: RouteConfig['method'], path: string, handler: string, policies: string[] = []): RouteConfig => ({ method, path, handler, config: { policies } });

export const LAYOUT_ROUTES: RouteConfig[] = [
  route('GET', '/init', 'init.getInitData'),
  route('GET', '/content-types', 'content-types.findContentTypes'),
  route('GET', '/content-types-settings', 'content-types.findContentTypesSettings'),
  route('GET', '/content-types/:uid/configuration', 'content-types.findContentTypeConfiguration'),
  route('PUT', '/content-types/:uid/configuration', 'content-types.updateContentTypeConfiguration', [IS_AUTHENTICATED_ADMIN]),
  route('GET', '/components', 'components.findComponents'),
  route('GET', '/components/:uid/configuration', 'components.findComponentConfiguration'),
  route('PUT', '/components/:uid/configuration', 'components.updateComponentConfiguration'),
  route('POST', '/uid/generate', 'uid.generateUID'),
  route('POST', '/uid/check-availability', 'uid.checkUIDAvailability'),
];
