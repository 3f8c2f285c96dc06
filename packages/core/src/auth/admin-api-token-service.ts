/**
 * `strapi.service('admin::api-token')`: Strapi v4's admin service for API
 * tokens, which app code calls from `bootstrap` to make or look up a token
 * (the reference peer app writes its own full-access token this way). Same
 * functions, arguments, answers and errors as Strapi 4.26.2's
 * (@strapi/admin `services/api-token`), over the token tables `ApiTokens`
 * authenticates from, so a token made here works at once. The admin panel's
 * API-token pages (plugins/admin) and `tessera api-token` use it too.
 */
import crypto from 'node:crypto';
import { NotFoundError, ValidationError } from '@tessera/errors';
import type { Database, Entity } from '@tessera/database';
import type { App } from '../app-type';
import { contentApiActions } from '../http/content-api-map';
import type { ApiTokens } from './api-tokens';

const TOKEN_UID = 'admin::api-token';
const PERMISSION_UID = 'admin::api-token-permission';
const SELECT = ['id', 'name', 'description', 'lastUsedAt', 'type', 'lifespan', 'expiresAt', 'createdAt', 'updatedAt'];
const POPULATE = ['permissions'];
const DAY_MS = 24 * 60 * 60 * 1000;
/** The lifespans Strapi offers (7, 30 and 90 days), or none. */
const LIFESPANS = [7 * DAY_MS, 30 * DAY_MS, 90 * DAY_MS];

export interface ApiTokenAttributes {
  name?: string;
  description?: string;
  type?: string;
  lifespan?: number | null;
  permissions?: string[];
  [attribute: string]: unknown;
}

type Where = Record<string, unknown>;

/** A custom token may name the content API's actions only (http/content-api-map.ts), as on Strapi. */
export function adminApiTokenService(db: Database, tokens: ApiTokens, app: App) {
  const assertPermissions = (type: string | undefined, permissions: string[] | undefined): void => {
    if (type !== 'custom' && permissions !== undefined && permissions !== null && permissions.length > 0) throw new ValidationError('Non-custom tokens should not reference permissions');
    if (type !== 'custom') return;
    if (!Array.isArray(permissions)) throw new ValidationError('Missing permissions attribute for custom token');
    const known = new Set(contentApiActions(app));
    const unknown = [...new Set(permissions)].filter((action) => !known.has(action));
    if (unknown.length > 0) throw new ValidationError(`Unknown permissions provided: ${unknown.join(', ')}`);
  };

  const query = () => db.query(TOKEN_UID);
  const permissions = () => db.query(PERMISSION_UID);

  const getBy = async (where: Where = {}): Promise<Entity | null> => {
    if (Object.keys(where).length === 0) return null;
    const token = await query().findOne({ select: SELECT, populate: POPULATE, where });
    return token ? flattenPermissions(token) : null;
  };

  return {
    getBy,
    exists: async (where: Where = {}) => (await getBy(where)) !== null,
    hash: (accessKey: string) => tokens.hash(accessKey),
    checkSaltIsDefined: () => void tokens.hash(''),
    getById: (id: number | string) => getBy({ id }),
    getByName: (name: string) => getBy({ name }),

    async create(attributes: ApiTokenAttributes) {
      const accessKey = crypto.randomBytes(128).toString('hex');
      assertPermissions(attributes.type, attributes.permissions);
      assertLifespan(attributes.lifespan);
      const { permissions: actions, ...data } = attributes;
      return db.transaction(async () => {
        const token = await query().create({ select: SELECT, data: { ...data, accessKey: tokens.hash(accessKey), ...expiration(attributes.lifespan) } });
        // Strapi's answer populates the (empty) permissions before it adds the key.
        const result: Entity = { ...token, permissions: [], accessKey };
        if (attributes.type === 'custom') {
          await tokens.addPermissions(token.id, actions ?? []);
          result.permissions = await tokens.actions(token.id);
        }
        return result;
      });
    },

    async regenerate(id: number | string) {
      const accessKey = crypto.randomBytes(128).toString('hex');
      const token = await query().update({ select: ['id', 'accessKey'], where: { id }, data: { accessKey: tokens.hash(accessKey) } });
      if (!token) throw new NotFoundError('The provided token id does not exist');
      return { ...token, accessKey };
    },

    async list() {
      const list = await query().findMany({ select: SELECT, populate: POPULATE, orderBy: { name: 'ASC' } });
      return list.map(flattenPermissions);
    },

    /** Answers the deleted token as Strapi does: its permission rows as stored, not flattened to actions. */
    async revoke(id: number | string) {
      return db.transaction(async () => {
        const token = await query().findOne({ select: SELECT, populate: POPULATE, where: { id } });
        if (token) await tokens.revoke(String(token.id));
        return token;
      });
    },

    async update(id: number | string, attributes: ApiTokenAttributes) {
      const original = await getBy({ id });
      if (!original) throw new NotFoundError('Token not found');
      const becomesCustom = attributes.type === 'custom' && original.type !== 'custom';
      // Strapi checks the permissions given, never the stored ones: a token made custom must be given its permissions.
      if (attributes.permissions || becomesCustom) assertPermissions(attributes.type ?? (original.type as string), attributes.permissions);
      assertLifespan(attributes.lifespan);
      const { permissions: actions, ...data } = attributes;
      return db.transaction(async () => {
        const updated = (await query().update({ select: SELECT, where: { id: original.id }, data }))!;
        if (updated.type === 'custom' && actions) {
          const current = await tokens.actions(updated.id);
          const wanted = [...new Set(actions)];
          const removed = current.filter((action) => !wanted.includes(action));
          if (removed.length > 0) await permissions().deleteMany({ where: { action: { $in: removed }, token: { id: updated.id } } });
          await tokens.addPermissions(updated.id, wanted.filter((action) => !current.includes(action)));
        } else if (updated.type !== 'custom') {
          await permissions().deleteMany({ where: { token: { id: updated.id } } });
        }
        return flattenPermissions({ ...updated, permissions: (await getBy({ id: updated.id }))?.permissions ?? [] });
      });
    },
  };
}

export type AdminApiTokenService = ReturnType<typeof adminApiTokenService>;

function flattenPermissions(token: Entity): Entity {
  const list = token.permissions;
  if (!Array.isArray(list)) return token;
  return { ...token, permissions: list.map((permission) => (typeof permission === 'string' ? permission : (permission as { action: string }).action)) };
}

function assertLifespan(lifespan: number | null | undefined): void {
  if (lifespan === null || lifespan === undefined || LIFESPANS.includes(lifespan)) return;
  throw new ValidationError(`lifespan must be one of the following values: \n      ${LIFESPANS.join(', ')}`);
}

function expiration(lifespan: number | null | undefined): { lifespan: number | null; expiresAt: number | null } {
  return { lifespan: lifespan || null, expiresAt: lifespan ? Date.now() + lifespan : null };
}
