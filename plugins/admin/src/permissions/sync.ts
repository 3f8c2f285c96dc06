/**
 * The admin permissions synced at boot, after every plugin has registered its
 * actions (Strapi 4.26.2 runs its admin bootstrap after the plugins'):
 *   1. the content manager's explorer actions get their subjects (the displayed
 *      content types; publish: those with draft and publish) and, with i18n,
 *      the `locales` property (on localized subjects only);
 *   2. a database without roles gets Strapi's three, Editor and Author with
 *      their default permissions (roles.ts);
 *   3. the Super Admin role is given every registered action (fields of every
 *      subject, every locale), keeping the rows it already has;
 *   4. permissions of actions no longer registered, of subjects an action no
 *      longer has, or missing every property their action needs, are deleted,
 *      and `fields` are trimmed to the attributes that still exist (Strapi's
 *      `cleanPermissionsInDatabase`).
 * One process at a time (a lock), in one transaction.
 */
import type { AdminAction, AdminActionProvider, App } from '@tessera/core';
import { ROLE_UID } from '../content-types';
import { createRolesIfNoneExist, SUPER_ADMIN_CODE } from '../roles';
import { PLUGIN_ACTIONS, PLUGIN_ORDER, ADMIN_ACTIONS } from './catalogue';
import { permissionStore, type PermissionInput } from './store';
import { permissionsWithFields } from './content-type-permissions';
import { cleanFields, displayedTypes, hasDraftAndPublish, isLocalized } from './subjects';

const CONTENT_TYPES_SECTION = 'contentTypes';
const LOCALE_UID = 'plugin::i18n.locale';

/** In the admin plugin's register: the catalogue's actions for the plugins this app has, and i18n's rule. */
export function registerActions(app: App): void {
  const { actionProvider } = app.admin.services.permission;
  for (const name of PLUGIN_ORDER) {
    if (!app.plugins.has(name)) continue;
    for (const action of PLUGIN_ACTIONS[name]) actionProvider.register(structuredClone(action));
  }
  for (const action of ADMIN_ACTIONS) actionProvider.register(structuredClone(action));
  if (app.plugins.has('i18n')) {
    // i18n's hook: `locales` applies to localized subjects only.
    actionProvider.hooks.appliesPropertyToSubject.register(({ property, subject }) => property !== 'locales' || isLocalized(app.contentTypes.find(subject)));
  }
}

/** Step 1: what the content manager and i18n complete once the content types are known. */
export function completeContentTypeActions(app: App): void {
  const { actionProvider } = app.admin.services.permission;
  const types = displayedTypes(app);
  for (const action of actionProvider.values()) {
    if (action.pluginName === 'content-manager' && action.section === CONTENT_TYPES_SECTION && action.subjects === undefined) {
      action.subjects = (action.uid === 'explorer.publish' ? types.filter(hasDraftAndPublish) : types).map((type) => type.uid);
    }
    if (app.plugins.has('i18n') && action.section === CONTENT_TYPES_SECTION) {
      const properties = action.options.applyToProperties ?? [];
      if (!properties.includes('locales')) action.options.applyToProperties = [...properties, 'locales'];
    }
  }
}

async function localeCodes(app: App): Promise<string[]> {
  if (!app.contentTypes.has(LOCALE_UID)) return [];
  return (await app.db.query(LOCALE_UID).findMany({ select: ['code'], orderBy: [{ id: 'asc' }] })).map((row) => String(row.code));
}

/** Step 3: every registered action for the Super Admin (Strapi's `resetSuperAdminPermissions`, with i18n's locales). */
async function resetSuperAdminPermissions(app: App): Promise<void> {
  const role = await app.db.query(ROLE_UID).findOne({ where: { code: SUPER_ADMIN_CODE }, select: ['id'] });
  if (!role) return;
  const { actionProvider } = app.admin.services.permission;
  const actions = actionProvider.values().filter((action) => action.section !== 'internal');
  const wanted = permissionsWithFields(app, actions.filter((action) => action.section === CONTENT_TYPES_SECTION));
  for (const action of actions.filter((each) => each.section !== CONTENT_TYPES_SECTION)) {
    if (Array.isArray(action.subjects)) wanted.push(...action.subjects.map((subject) => ({ action: action.actionId, subject })));
    else wanted.push({ action: action.actionId });
  }
  const locales = await localeCodes(app);
  for (const permission of wanted) {
    if (await actionProvider.appliesToProperty('locales', permission.action, permission.subject)) {
      permission.properties = { ...permission.properties, locales };
    }
  }
  await permissionStore(app).assign(role.id, wanted);
}

/** Step 4: Strapi's `cleanPermissionsInDatabase`. */
async function cleanPermissions(app: App, actionProvider: AdminActionProvider): Promise<void> {
  const store = permissionStore(app);
  const stale: number[] = [];
  for (const permission of await store.all()) {
    const action = actionProvider.get(permission.action);
    const properties = permission.properties as Record<string, unknown>;
    const required = action?.options.applyToProperties ?? null;
    let missingAll = Array.isArray(required);
    for (const property of required ?? []) {
      const applies = await actionProvider.appliesToProperty(property, permission.action, permission.subject);
      if (!(applies && properties[property] == null)) missingAll = false;
    }
    const badSubject = Array.isArray(action?.subjects) && !action!.subjects!.includes(permission.subject ?? '');
    if (!action || !actionProvider.has(permission.action) || badSubject || missingAll) {
      stale.push(permission.id);
      continue;
    }
    const cleaned = cleanedProperties(app, action, permission.subject, properties);
    if (cleaned) await store.setProperties(permission.id, cleaned);
  }
  await store.remove(stale);
}

/** The properties with `fields` trimmed (Strapi's `cleanPermissionFields`), or null when nothing changes. */
function cleanedProperties(app: App, action: AdminAction, subject: string | null, properties: Record<string, unknown>): Record<string, unknown> | null {
  const fields = properties.fields;
  if (!action.options.applyToProperties?.includes('fields')) {
    if (fields === undefined) return null;
    const { fields: _dropped, ...rest } = properties;
    return rest;
  }
  const type = subject === null ? undefined : app.contentTypes.find(subject);
  if (!type || !Array.isArray(fields)) return null;
  const next = cleanFields(app, type, fields.map(String));
  const same = next.length === fields.length && next.every((field) => fields.includes(field));
  return same ? null : { ...properties, fields: next };
}

/**
 * i18n's `syncSuperAdminPermissionsWithLocales`, run when a locale is created or deleted: the Super Admin's
 * permissions that take locales list every locale there is.
 */
export async function syncSuperAdminLocales(app: App): Promise<void> {
  const role = await app.db.query(ROLE_UID).findOne({ where: { code: SUPER_ADMIN_CODE }, select: ['id'] });
  if (!role) return;
  const { actionProvider } = app.admin.services.permission;
  const store = permissionStore(app);
  const locales = await localeCodes(app);
  const wanted: PermissionInput[] = [];
  for (const permission of await store.ofRole(role.id)) {
    const properties = permission.properties as Record<string, unknown>;
    const applies = await actionProvider.appliesToProperty('locales', permission.action, permission.subject);
    wanted.push({ ...permission, conditions: permission.conditions as string[], properties: applies ? { ...properties, locales } : properties } as PermissionInput);
  }
  await store.assign(role.id, wanted);
}

export async function syncPermissions(app: App): Promise<void> {
  completeContentTypeActions(app);
  await app.db.transaction(async () => {
    await app.db.lock(['admin:permissions-sync']);
    await createRolesIfNoneExist(app);
    await resetSuperAdminPermissions(app);
    await cleanPermissions(app, app.admin.services.permission.actionProvider);
  });
  if (app.contentTypes.has(LOCALE_UID)) {
    const resync = () => syncSuperAdminLocales(app);
    app.db.lifecycles.subscribe({ models: [LOCALE_UID], afterCreate: resync, afterDelete: resync });
  }
}
