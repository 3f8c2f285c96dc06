/**
 * Transfer tokens as `@strapi/admin` 4.26.2's `transfer.token` service keeps them: a random 256-hex-character access
 * key, shown once and stored only as its HMAC-SHA512 with the app's transfer salt; the token's permissions (`push`,
 * `pull`) as rows linked to it; an expiry from its lifespan. Tessera has no `strapi transfer` to use them with: this
 * is what Settings → Transfer Tokens manages, over the rows a Strapi-made database already has.
 */
import crypto from 'node:crypto';
import type { Database, Entity } from '@tessera/database';
import { TRANSFER_TOKEN_PERMISSION_UID, TRANSFER_TOKEN_UID } from './content-types';

const SELECT = ['id', 'name', 'description', 'lastUsedAt', 'lifespan', 'expiresAt', 'createdAt', 'updatedAt'];
const POPULATE = ['permissions'];

export interface NewTransferToken {
  name: string;
  description: string;
  permissions: string[];
  lifespan?: number | null;
}

export interface TransferTokenChanges {
  name?: string;
  description?: string | null;
  permissions?: string[] | null;
}

/** A token row whose permissions are listed as their actions, as Strapi answers it (but for a delete). */
function withActions(token: Entity): Entity {
  const permissions = Array.isArray(token.permissions) ? token.permissions.map((permission) => (permission as { action: string }).action) : token.permissions;
  return { ...token, permissions };
}

export function transferTokenService(db: Database, salt: string) {
  const tokens = () => db.query(TRANSFER_TOKEN_UID);
  const permissions = () => db.query(TRANSFER_TOKEN_PERMISSION_UID);
  const hash = (accessKey: string) => crypto.createHmac('sha512', salt).update(accessKey).digest('hex');

  const getBy = async (where: Record<string, unknown>): Promise<Entity | null> => {
    const token = await tokens().findOne({ select: SELECT, populate: POPULATE, where });
    return token ? withActions(token) : null;
  };
  /** The token's actions, in the order they were given. */
  const actionsOf = async (id: number): Promise<string[]> =>
    (await permissions().findMany({ select: ['action'], where: { token: { id } }, orderBy: { id: 'asc' } })).map((row) => String(row.action));

  return {
    getById: (id: number) => getBy({ id }),
    getByName: (name: string) => getBy({ name }),

    async list(): Promise<Entity[]> {
      return (await tokens().findMany({ select: SELECT, populate: POPULATE, orderBy: { name: 'ASC' } })).map(withActions);
    },

    /** The new token with its access key, which is never readable again. */
    async create(attributes: NewTransferToken): Promise<Entity> {
      const accessKey = crypto.randomBytes(128).toString('hex');
      const lifespan = attributes.lifespan || null;
      return db.transaction(async () => {
        const data = { name: attributes.name, description: attributes.description, accessKey: hash(accessKey), lifespan, expiresAt: lifespan ? Date.now() + lifespan : null };
        const token = await tokens().create({ select: SELECT, data });
        for (const action of new Set(attributes.permissions)) await permissions().create({ data: { action, token: token.id } });
        return { ...token, permissions: await actionsOf(token.id as number), accessKey };
      });
    },

    /** `undefined` permissions keep the token's; a list replaces them (rows of actions no longer given are removed). */
    async update(id: number, changes: TransferTokenChanges): Promise<Entity> {
      const { permissions: wanted, ...data } = changes;
      return db.transaction(async () => {
        const token = (await tokens().update({ select: SELECT, where: { id }, data }))!;
        if (wanted) {
          const current = await actionsOf(id);
          const removed = current.filter((action) => !wanted.includes(action));
          if (removed.length > 0) await permissions().deleteMany({ where: { action: { $in: removed }, token: { id } } });
          for (const action of new Set(wanted)) if (!current.includes(action)) await permissions().create({ data: { action, token: id } });
        }
        return { ...token, permissions: await actionsOf(id) };
      });
    },

    async regenerate(id: number): Promise<{ id: number; accessKey: string }> {
      const accessKey = crypto.randomBytes(128).toString('hex');
      await tokens().update({ select: ['id'], where: { id }, data: { accessKey: hash(accessKey) } });
      return { id, accessKey };
    },

    /**
     * Deletes the token and its permission rows (Strapi leaves the rows, unlinked); answers the token as it was, its
     * permissions the rows themselves, as Strapi's delete answers it; null when there is no such token.
     */
    async revoke(id: number): Promise<Entity | null> {
      return db.transaction(async () => {
        const token = await tokens().findOne({ select: SELECT, populate: POPULATE, where: { id } });
        if (!token) return null;
        const rows = (token.permissions as Entity[]).map((permission) => permission.id);
        await tokens().delete({ where: { id } });
        if (rows.length > 0) await permissions().deleteMany({ where: { id: { $in: rows } } });
        return token;
      });
    },
  };
}

export type TransferTokenService = ReturnType<typeof transferTokenService>;
