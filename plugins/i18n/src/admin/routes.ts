/**
 * i18n's admin routes, declared as Strapi 4.26.2's i18n plugin declares them
 * (`server/routes/admin`): the same paths under `/i18n`, handlers and policies —
 * `admin::isAuthenticatedAdmin`, then the content manager's `hasPermissions`
 * with the route's locale action where Strapi has one (the content manager is
 * on whenever the admin is; an API-only app serves none of these routes).
 */
import type { RouteConfig } from '@tessera/core';
import { IS_AUTHENTICATED_ADMIN } from '@tessera/plugin-admin';

const CONTENT_MANAGER_HAS_PERMISSIONS = 'plugin::content-manager.hasPermissions';

const route = (method: RouteConfig['method'], path: string, handler: string, action?: string): RouteConfig => {
  const policies: NonNullable<RouteConfig['config']>['policies'] = [IS_AUTHENTICATED_ADMIN];
  if (action) policies.push({ name: CONTENT_MANAGER_HAS_PERMISSIONS, config: { actions: [action] } });
  return { method, path, handler, config: { policies } };
};

export const adminRoutes: RouteConfig[] = [
  route('GET', '/iso-locales', 'iso-locales.listIsoLocales', 'plugin::i18n.locale.read'),
  route('GET', '/locales', 'locales.listLocales'),
  route('POST', '/locales', 'locales.createLocale', 'plugin::i18n.locale.create'),
  route('PUT', '/locales/:id', 'locales.updateLocale', 'plugin::i18n.locale.update'),
  route('DELETE', '/locales/:id', 'locales.deleteLocale', 'plugin::i18n.locale.delete'),
  route('POST', '/content-manager/actions/get-non-localized-fields', 'content-types.getNonLocalizedAttributes'),
];
