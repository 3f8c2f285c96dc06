/**
 * i18n's admin routes, declared as Strapi 4.26.2's i18n plugin declares them
 * (`server/routes/admin`): the same paths under `/i18n`, handlers and policies —
 * `admin::isAuthenticatedAdmin`, then the content manager's `hasPermissions`
 * with the route's locale action where Strapi has one. Until a content
 * manager registers that policy, the admin's own `hasPermissions` stands in:
 * with no `:model` in these paths both ask the same (`can(action)`).
 */
import type { App, RouteConfig } from '@tessera/core';
import { HAS_PERMISSIONS, IS_AUTHENTICATED_ADMIN } from '@tessera/plugin-admin';

const CONTENT_MANAGER_HAS_PERMISSIONS = 'plugin::content-manager.hasPermissions';

export function adminRoutes(app: App): RouteConfig[] {
  const hasPermissions = app.policies.has(CONTENT_MANAGER_HAS_PERMISSIONS) ? CONTENT_MANAGER_HAS_PERMISSIONS : HAS_PERMISSIONS;
  const route = (method: RouteConfig['method'], path: string, handler: string, action?: string): RouteConfig => {
    const policies: NonNullable<RouteConfig['config']>['policies'] = [IS_AUTHENTICATED_ADMIN];
    if (action) policies.push({ name: hasPermissions, config: { actions: [action] } });
    return { method, path, handler, config: { policies } };
  };
  return [
    route('GET', '/iso-locales', 'iso-locales.listIsoLocales', 'plugin::i18n.locale.read'),
    route('GET', '/locales', 'locales.listLocales'),
    route('POST', '/locales', 'locales.createLocale', 'plugin::i18n.locale.create'),
    route('PUT', '/locales/:id', 'locales.updateLocale', 'plugin::i18n.locale.update'),
    route('DELETE', '/locales/:id', 'locales.deleteLocale', 'plugin::i18n.locale.delete'),
    route('POST', '/content-manager/actions/get-non-localized-fields', 'content-types.getNonLocalizedAttributes'),
  ];
}
