/**
 * The plugin's three content types, in Strapi v4's tables (`up_users`,
 * `up_roles`, `up_permissions` and their `_role_links` join tables), so the
 * users of an existing Strapi v4 database log in unchanged.
 */
import type { PluginContentType } from '@tessera/core';
import { hashPasswordsIn } from '../password';
import { stampPasswordChange } from '../password-change';

export const USER_UID = 'plugin::users-permissions.user';
export const ROLE_UID = 'plugin::users-permissions.role';
export const PERMISSION_UID = 'plugin::users-permissions.permission';

const user: PluginContentType = {
  // Keys in the order of Strapi's own schema: the builder writes a plugin type's extension file in that order.
  schema: {
    kind: 'collectionType',
    collectionName: 'up_users',
    info: { name: 'user', description: '', singularName: 'user', pluralName: 'users', displayName: 'User' },
    options: { draftAndPublish: false, timestamps: true },
    attributes: {
      username: { type: 'string', minLength: 3, unique: true, configurable: false, required: true },
      email: { type: 'email', minLength: 6, configurable: false, required: true },
      provider: { type: 'string', configurable: false },
      password: { type: 'password', minLength: 6, configurable: false, private: true, searchable: false },
      resetPasswordToken: { type: 'string', configurable: false, private: true, searchable: false },
      confirmationToken: { type: 'string', configurable: false, private: true, searchable: false },
      confirmed: { type: 'boolean', default: false, configurable: false },
      blocked: { type: 'boolean', default: false, configurable: false },
      role: { type: 'relation', relation: 'manyToOne', target: ROLE_UID, inversedBy: 'users', configurable: false },
      // Tessera's only addition to Strapi's up_users (a column the additive sync adds): see password-change.ts. Not
      // visible, so the content-type-builder's listing of the user type is Strapi's.
      passwordChangedAt: { type: 'datetime', configurable: false, private: true, searchable: false, writable: false, visible: false },
    },
    // Strapi's schema-config.js: the content manager leaves these out of its layouts, answers, inputs and queries;
    // Tessera's passwordChangedAt too, so the content manager's user is Strapi's.
    config: { attributes: { resetPasswordToken: { hidden: true }, confirmationToken: { hidden: true }, provider: { hidden: true }, passwordChangedAt: { hidden: true } } },
  },
  // An app's src/extensions/users-permissions/content-types/user/schema.json (Strapi's attributes and its own) keeps it.
  tesseraAttributes: ['passwordChangedAt'],
  // Whatever path a write takes (entity service, strapi.query, a plugin), a plaintext password is never stored,
  // and a new one revokes the reset code and earlier JWTs.
  lifecycles: {
    beforeCreate: (event) => hashPasswordsIn(event.params.data),
    beforeUpdate: (event) => {
      stampPasswordChange(event.params.data);
      return hashPasswordsIn(event.params.data);
    },
  },
};

const role: PluginContentType = {
  schema: {
    kind: 'collectionType',
    collectionName: 'up_roles',
    info: { name: 'role', description: '', singularName: 'role', pluralName: 'roles', displayName: 'Role' },
    options: { draftAndPublish: false },
    pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
    attributes: {
      name: { type: 'string', minLength: 3, required: true, configurable: false },
      description: { type: 'string', configurable: false },
      type: { type: 'string', unique: true, configurable: false },
      permissions: { type: 'relation', relation: 'oneToMany', target: PERMISSION_UID, mappedBy: 'role', configurable: false },
      users: { type: 'relation', relation: 'oneToMany', target: USER_UID, mappedBy: 'role', configurable: false },
    },
  },
};

const permission: PluginContentType = {
  schema: {
    kind: 'collectionType',
    collectionName: 'up_permissions',
    info: { name: 'permission', description: '', singularName: 'permission', pluralName: 'permissions', displayName: 'Permission' },
    options: { draftAndPublish: false },
    pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
    attributes: {
      action: { type: 'string', required: true, configurable: false },
      role: { type: 'relation', relation: 'manyToOne', target: ROLE_UID, inversedBy: 'permissions', configurable: false },
    },
  },
};

export const contentTypes: Record<string, PluginContentType> = { user, role, permission };
