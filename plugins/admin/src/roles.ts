/**
 * Strapi's three default admin roles, created on a database that has no admin
 * role yet (Strapi 4.26.2's `createRolesIfNoneExist`), with its names, codes
 * and descriptions. A Strapi-made database already has them and is left as it
 * is. Their default permissions (and the Super Admin's "everything") belong to
 * the action registry, which is not served yet: the roles are stored without.
 */
import type { App } from '@tessera/core';
import { ROLE_UID } from './content-types';

export const SUPER_ADMIN_CODE = 'strapi-super-admin';

export const DEFAULT_ROLES = [
  { name: 'Super Admin', code: SUPER_ADMIN_CODE, description: 'Super Admins can access and manage all features and settings.' },
  { name: 'Editor', code: 'strapi-editor', description: 'Editors can manage and publish contents including those of other users.' },
  { name: 'Author', code: 'strapi-author', description: 'Authors can manage the content they have created.' },
];

/** Two processes booting on one new database both try: the lock makes the second see the first's roles. */
export async function createRolesIfNoneExist(app: App): Promise<void> {
  await app.db.transaction(async () => {
    await app.db.lock(['admin:default-roles']);
    if ((await app.db.query(ROLE_UID).count({})) > 0) return;
    for (const role of DEFAULT_ROLES) await app.db.query(ROLE_UID).create({ data: { ...role } });
  });
}
