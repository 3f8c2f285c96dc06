/**
 * Strapi v4's admin types, in its tables: `admin_users`, `admin_roles`,
 * `admin_permissions` and the link tables `admin_users_roles_links` and
 * `admin_permissions_role_links` (the layout `@strapi/admin` 4.26.2's schemas
 * make), so a Strapi-made database's admins, roles and permissions are read as
 * they are. Registered under Strapi's uids (`admin::user`…), which is also what
 * every content type's `createdBy`/`updatedBy` columns point at. (Strapi's
 * `searchable: false` on secrets is a content-manager setting, not kept here.)
 */
import type { ContentType } from '@tessera/core';

export const USER_UID = 'admin::user';
export const ROLE_UID = 'admin::role';
export const PERMISSION_UID = 'admin::permission';

/** Hidden from the content manager and the content-type builder, as Strapi marks them. */
const HIDDEN = { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } };

export const ADMIN_CONTENT_TYPES: ContentType[] = [
  {
    uid: PERMISSION_UID,
    namespace: 'admin',
    kind: 'collectionType',
    collectionName: 'admin_permissions',
    info: { name: 'Permission', description: '', singularName: 'permission', pluralName: 'permissions', displayName: 'Permission' },
    options: {},
    pluginOptions: HIDDEN,
    attributes: {
      action: { type: 'string', minLength: 1, configurable: false, required: true },
      actionParameters: { type: 'json', configurable: false, required: false, default: {} },
      subject: { type: 'string', minLength: 1, configurable: false, required: false },
      properties: { type: 'json', configurable: false, required: false, default: {} },
      conditions: { type: 'json', configurable: false, required: false, default: [] },
      role: { configurable: false, type: 'relation', relation: 'manyToOne', inversedBy: 'permissions', target: ROLE_UID },
    },
  },
  {
    uid: USER_UID,
    namespace: 'admin',
    kind: 'collectionType',
    collectionName: 'admin_users',
    info: { name: 'User', description: '', singularName: 'user', pluralName: 'users', displayName: 'User' },
    options: {},
    pluginOptions: HIDDEN,
    attributes: {
      firstname: { type: 'string', unique: false, minLength: 1, configurable: false, required: false },
      lastname: { type: 'string', unique: false, minLength: 1, configurable: false, required: false },
      username: { type: 'string', unique: false, configurable: false, required: false },
      email: { type: 'email', minLength: 6, configurable: false, required: true, unique: true, private: true },
      password: { type: 'password', minLength: 6, configurable: false, required: false, private: true },
      resetPasswordToken: { type: 'string', configurable: false, private: true },
      registrationToken: { type: 'string', configurable: false, private: true },
      isActive: { type: 'boolean', default: false, configurable: false, private: true },
      roles: { configurable: false, private: true, type: 'relation', relation: 'manyToMany', inversedBy: 'users', target: ROLE_UID },
      blocked: { type: 'boolean', default: false, configurable: false, private: true },
      preferedLanguage: { type: 'string', configurable: false, required: false },
    },
    // Strapi's: the content manager's layouts leave these out.
    config: { attributes: { resetPasswordToken: { hidden: true }, registrationToken: { hidden: true } } },
  },
  {
    uid: ROLE_UID,
    namespace: 'admin',
    kind: 'collectionType',
    collectionName: 'admin_roles',
    info: { name: 'Role', description: '', singularName: 'role', pluralName: 'roles', displayName: 'Role' },
    options: {},
    pluginOptions: HIDDEN,
    attributes: {
      name: { type: 'string', minLength: 1, unique: true, configurable: false, required: true },
      code: { type: 'string', minLength: 1, unique: true, configurable: false, required: true },
      description: { type: 'string', configurable: false },
      users: { configurable: false, type: 'relation', relation: 'manyToMany', mappedBy: 'roles', target: USER_UID },
      permissions: { configurable: false, type: 'relation', relation: 'oneToMany', mappedBy: 'role', target: PERMISSION_UID },
    },
  },
];
