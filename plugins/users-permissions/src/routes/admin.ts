/**
 * Strapi 4.26.2's users-permissions admin routes (server/routes/admin/*), declared as Strapi declares them: a router
 * of type `admin`, mounted at `/users-permissions/…` (no `/api`), its callers admins (the admin strategy), each
 * settings route behind `admin::hasPermissions` with the plugin's admin action. The panel's Settings → Users &
 * Permissions pages call them (the actions are registered by the admin plugin's catalogue, for the plugins an app
 * runs). The same role handlers answer the content API's `/api/users-permissions/roles`, where
 * a role's permission (`plugin::users-permissions.role.find`, …) decides instead.
 */
import type { RouteConfig } from '@tessera/core';

const allowed = (action: string) => ({ policies: [{ name: 'admin::hasPermissions', config: { actions: [`plugin::users-permissions.${action}`] } }] });

export const adminRoutes: RouteConfig[] = [
  { method: 'GET', path: '/roles/:id', handler: 'role.findOne', config: allowed('roles.read') },
  { method: 'GET', path: '/roles', handler: 'role.find', config: allowed('roles.read') },
  { method: 'POST', path: '/roles', handler: 'role.createRole', config: allowed('roles.create') },
  { method: 'PUT', path: '/roles/:role', handler: 'role.updateRole', config: allowed('roles.update') },
  { method: 'DELETE', path: '/roles/:role', handler: 'role.deleteRole', config: allowed('roles.delete') },

  { method: 'GET', path: '/email-templates', handler: 'settings.getEmailTemplate', config: allowed('email-templates.read') },
  { method: 'PUT', path: '/email-templates', handler: 'settings.updateEmailTemplate', config: allowed('email-templates.update') },
  { method: 'GET', path: '/advanced', handler: 'settings.getAdvancedSettings', config: allowed('advanced-settings.read') },
  { method: 'PUT', path: '/advanced', handler: 'settings.updateAdvancedSettings', config: allowed('advanced-settings.update') },
  { method: 'GET', path: '/providers', handler: 'settings.getProviders', config: allowed('providers.read') },
  { method: 'PUT', path: '/providers', handler: 'settings.updateProviders', config: allowed('providers.update') },

  { method: 'GET', path: '/permissions', handler: 'permissions.getPermissions' },
  { method: 'GET', path: '/policies', handler: 'permissions.getPolicies' },
  { method: 'GET', path: '/routes', handler: 'permissions.getRoutes' },
];
