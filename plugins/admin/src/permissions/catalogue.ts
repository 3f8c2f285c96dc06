/**
 * The admin permission actions Strapi 4.26.2 registers, for the plugins
 * Tessera has: the admin's own (`@strapi/admin` config/admin-actions; its
 * data-transfer tokens' are registered with the transfer routes,
 * transfer-tokens/actions.ts) and those the
 * upload, users-permissions, i18n, email and content-type-builder plugins
 * register in their bootstrap — registered here for them when the app has
 * that plugin, so the plugins need no admin code. The content manager's are
 * the kernel's (core strapi/admin.ts). Same names, sections, categories and
 * sub-categories as Strapi's, which the panel's role editor groups by.
 */
import type { AdminActionDefinition } from '@tessera/core';

const admin = (uid: string, displayName: string, category: string, subCategory?: string, extra: Partial<AdminActionDefinition> = {}): AdminActionDefinition => ({
  uid,
  displayName,
  pluginName: 'admin',
  section: 'settings',
  category,
  ...(subCategory === undefined ? {} : { subCategory }),
  ...extra,
});

const alias = (subject: string) => ({ aliases: [{ actionId: 'plugin::content-manager.explorer.read', subjects: [subject] }] });

export const ADMIN_ACTIONS: AdminActionDefinition[] = [
  admin('marketplace.read', 'Access the marketplace', 'plugins and marketplace', 'marketplace'),
  admin('webhooks.create', 'Create', 'webhooks'),
  admin('webhooks.read', 'Read', 'webhooks'),
  admin('webhooks.update', 'Update', 'webhooks'),
  admin('webhooks.delete', 'Delete', 'webhooks'),
  admin('users.create', 'Create (invite)', 'users and roles', 'users'),
  admin('users.read', 'Read', 'users and roles', 'users', alias('admin::user')),
  admin('users.update', 'Update', 'users and roles', 'users'),
  admin('users.delete', 'Delete', 'users and roles', 'users'),
  admin('roles.create', 'Create', 'users and roles', 'roles'),
  admin('roles.read', 'Read', 'users and roles', 'roles', alias('admin::role')),
  admin('roles.update', 'Update', 'users and roles', 'roles'),
  admin('roles.delete', 'Delete', 'users and roles', 'roles'),
  admin('api-tokens.access', 'Access the API tokens settings page', 'api tokens', 'api Tokens'),
  admin('api-tokens.create', 'Create (generate)', 'api tokens', 'general'),
  admin('api-tokens.read', 'Read', 'api tokens', 'general'),
  admin('api-tokens.update', 'Update', 'api tokens', 'general'),
  admin('api-tokens.regenerate', 'Regenerate', 'api tokens', 'general'),
  admin('api-tokens.delete', 'Delete (revoke)', 'api tokens', 'general'),
  admin('project-settings.update', 'Update the project level settings', 'project'),
  admin('project-settings.read', 'Read the project level settings', 'project'),
];

const plugin = (pluginName: string, uid: string, displayName: string, subCategory?: string, extra: Partial<AdminActionDefinition> = {}): AdminActionDefinition => ({
  section: 'plugins',
  displayName,
  uid,
  pluginName,
  ...(subCategory === undefined ? {} : { subCategory }),
  ...extra,
});

const i18nLocale = (verb: string, displayName: string, extra: Partial<AdminActionDefinition> = {}): AdminActionDefinition => ({
  section: 'settings',
  category: 'Internationalization',
  subCategory: 'Locales',
  pluginName: 'i18n',
  displayName,
  uid: `locale.${verb}`,
  ...extra,
});

/** By plugin name: what each registers, in Strapi's order. */
export const PLUGIN_ACTIONS: Record<string, AdminActionDefinition[]> = {
  'content-type-builder': [plugin('content-type-builder', 'read', 'Read')],
  email: [{ section: 'settings', category: 'email', displayName: 'Access the Email Settings page', uid: 'settings.read', pluginName: 'email' }],
  upload: [
    plugin('upload', 'read', 'Access the Media Library'),
    plugin('upload', 'assets.create', 'Create (upload)', 'assets'),
    plugin('upload', 'assets.update', 'Update (crop, details, replace) + delete', 'assets'),
    plugin('upload', 'assets.download', 'Download', 'assets'),
    plugin('upload', 'assets.copy-link', 'Copy link', 'assets'),
    plugin('upload', 'configure-view', 'Configure view'),
    { section: 'settings', displayName: 'Access the Media Library settings page', uid: 'settings.read', category: 'media library', pluginName: 'upload' },
  ],
  'users-permissions': [
    plugin('users-permissions', 'roles.create', 'Create', 'roles'),
    plugin('users-permissions', 'roles.read', 'Read', 'roles', alias('plugin::users-permissions.role')),
    plugin('users-permissions', 'roles.update', 'Update', 'roles'),
    plugin('users-permissions', 'roles.delete', 'Delete', 'roles'),
    plugin('users-permissions', 'providers.read', 'Read', 'providers'),
    plugin('users-permissions', 'providers.update', 'Edit', 'providers'),
    plugin('users-permissions', 'email-templates.read', 'Read', 'emailTemplates'),
    plugin('users-permissions', 'email-templates.update', 'Edit', 'emailTemplates'),
    plugin('users-permissions', 'advanced-settings.read', 'Read', 'advancedSettings'),
    plugin('users-permissions', 'advanced-settings.update', 'Edit', 'advancedSettings'),
  ],
  i18n: [
    i18nLocale('create', 'Create'),
    i18nLocale('read', 'Read', alias('plugin::i18n.locale')),
    i18nLocale('update', 'Update'),
    i18nLocale('delete', 'Delete'),
  ],
};

/** Strapi's bootstrap order (plugins in the order Strapi loads them, then the admin's own). */
export const PLUGIN_ORDER = ['content-type-builder', 'email', 'upload', 'users-permissions', 'i18n'];
