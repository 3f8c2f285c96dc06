/**
 * Strapi v4's transfer-token types in its tables (`strapi_transfer_tokens`, `strapi_transfer_token_permissions` and
 * their link table), as `@strapi/admin` 4.26.2's schemas make them, so a Strapi-made database's transfer tokens are
 * listed, and a token made here is one Strapi reads (the same HMAC of the key with the same salt).
 */
import type { ContentType } from '@tessera/core';

export const TRANSFER_TOKEN_UID = 'admin::transfer-token';
export const TRANSFER_TOKEN_PERMISSION_UID = 'admin::transfer-token-permission';

const HIDDEN = { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } };

export const TRANSFER_TOKEN_CONTENT_TYPES: ContentType[] = [
  {
    uid: TRANSFER_TOKEN_UID,
    namespace: 'admin',
    kind: 'collectionType',
    collectionName: 'strapi_transfer_tokens',
    info: { name: 'Transfer Token', singularName: 'transfer-token', pluralName: 'transfer-tokens', displayName: 'Transfer Token', description: '' },
    options: {},
    pluginOptions: HIDDEN,
    attributes: {
      name: { type: 'string', minLength: 1, configurable: false, required: true, unique: true },
      description: { type: 'string', minLength: 1, configurable: false, required: false, default: '' },
      accessKey: { type: 'string', minLength: 1, configurable: false, required: true },
      lastUsedAt: { type: 'datetime', configurable: false, required: false },
      permissions: { type: 'relation', target: TRANSFER_TOKEN_PERMISSION_UID, relation: 'oneToMany', mappedBy: 'token', configurable: false, required: false },
      expiresAt: { type: 'datetime', configurable: false, required: false },
      lifespan: { type: 'biginteger', configurable: false, required: false },
    },
  },
  {
    uid: TRANSFER_TOKEN_PERMISSION_UID,
    namespace: 'admin',
    kind: 'collectionType',
    collectionName: 'strapi_transfer_token_permissions',
    info: { name: 'Transfer Token Permission', description: '', singularName: 'transfer-token-permission', pluralName: 'transfer-token-permissions', displayName: 'Transfer Token Permission' },
    options: {},
    pluginOptions: HIDDEN,
    attributes: {
      action: { type: 'string', minLength: 1, configurable: false, required: true },
      token: { configurable: false, type: 'relation', relation: 'manyToOne', inversedBy: 'permissions', target: TRANSFER_TOKEN_UID },
    },
  },
];
