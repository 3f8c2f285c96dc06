/**
 * Strapi's three default admin roles, created on a database that has no admin
 * role yet (Strapi 4.26.2's `createRolesIfNoneExist`), with its names, codes
 * and descriptions, and the default permissions of Editor and Author: every
 * content-manager action on every displayed type but users-permissions' users
 * (Author: not publish, and only what it created, `admin::is-creator`), and
 * the media library's. A Strapi-made database already has them and is left as
 * it is. The Super Admin's permissions are synced at every boot
 * (permissions/sync.ts).
 */
import type { App } from '@tessera/core';
import { ROLE_UID } from './content-types';
import { permissionStore, type PermissionInput } from './permissions/store';
import { permissionsWithFields } from './permissions/content-type-permissions';

export const SUPER_ADMIN_CODE = 'strapi-super-admin';
export const EDITOR_CODE = 'strapi-editor';
export const AUTHOR_CODE = 'strapi-author';
const PUBLISH_ACTION = 'plugin::content-manager.explorer.publish';
const IS_CREATOR = 'admin::is-creator';

export const DEFAULT_ROLES = [
  { name: 'Super Admin', code: SUPER_ADMIN_CODE, description: 'Super Admins can access and manage all features and settings.' },
  { name: 'Editor', code: EDITOR_CODE, description: 'Editors can manage and publish contents including those of other users.' },
  { name: 'Author', code: AUTHOR_CODE, description: 'Authors can manage the content they have created.' },
];

/** Strapi's `getDefaultPluginPermissions`: the media library, the Author's reads and edits limited to its own files. */
function mediaLibraryPermissions(isAuthor: boolean): PermissionInput[] {
  const own = isAuthor ? [IS_CREATOR] : [];
  return [
    { action: 'plugin::upload.read', conditions: own },
    { action: 'plugin::upload.configure-view' },
    { action: 'plugin::upload.assets.create' },
    { action: 'plugin::upload.assets.update', conditions: own },
    { action: 'plugin::upload.assets.download' },
    { action: 'plugin::upload.assets.copy-link' },
  ];
}

/** Two processes booting on one new database both try: the lock makes the second see the first's roles. */
export async function createRolesIfNoneExist(app: App): Promise<void> {
  await app.db.transaction(async () => {
    await app.db.lock(['admin:default-roles']);
    if ((await app.db.query(ROLE_UID).count({})) > 0) return;
    const ids: number[] = [];
    for (const role of DEFAULT_ROLES) ids.push((await app.db.query(ROLE_UID).create({ data: { ...role } })).id);
    const { actionProvider } = app.admin.services.permission;
    const contentTypeActions = actionProvider.values().filter((action) => action.section === 'contentTypes');
    const editor = permissionsWithFields(app, contentTypeActions, ['plugin::users-permissions.user']);
    const author = editor.filter((permission) => permission.action !== PUBLISH_ACTION).map((permission) => ({ ...permission, conditions: [IS_CREATOR] }));
    const registered = (permission: PermissionInput) => actionProvider.has(permission.action);
    const store = permissionStore(app);
    await store.add(ids[1], [...editor, ...mediaLibraryPermissions(false)].filter(registered));
    await store.add(ids[2], [...author, ...mediaLibraryPermissions(true)].filter(registered));
  });
}
