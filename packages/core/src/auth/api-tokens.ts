/**
 * API tokens, stored as Strapi v4 stores them (`strapi_api_tokens`, custom
 * permissions in `strapi_api_token_permissions` + links): the access key is
 * kept only as an HMAC-SHA512 with the app's salt (`config/admin.ts`
 * `apiToken.salt`, or API_TOKEN_SALT), so a leaked database leaks no token.
 */
import crypto from 'node:crypto';
import { Model } from 'objection';
import { UnauthorizedError, ValidationError } from '@tessera/errors';
import type { ContentType, Database } from '@tessera/database';
import type { AuthState, AuthStrategy } from '../types';
import { ActionSet, allowEverything, readOnly } from './abilities';

export type ApiTokenType = 'read-only' | 'full-access' | 'custom';

export interface ApiTokenInfo {
  id: number;
  name: string;
  description: string;
  type: ApiTokenType;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string | null;
  permissions: string[];
}

export interface CreateApiTokenInput {
  name: string;
  type: ApiTokenType;
  description?: string;
  /** Days until expiry; never expires when omitted. */
  durationDays?: number;
  /** Actions for a `custom` token. */
  permissions?: string[];
}

const TOKEN_TYPES: ApiTokenType[] = ['read-only', 'full-access', 'custom'];
const DAY_MS = 24 * 60 * 60 * 1000;

/** Internal content types for the token tables (never routed by REST). */
export const API_TOKEN_CONTENT_TYPES: ContentType[] = [
  {
    uid: 'admin::api-token',
    namespace: 'admin',
    kind: 'collectionType',
    collectionName: 'strapi_api_tokens',
    info: { singularName: 'api-token', pluralName: 'api-tokens', displayName: 'Api Token' },
    options: {},
    attributes: {
      name: { type: 'string', required: true, unique: true },
      description: { type: 'string' },
      type: { type: 'enumeration', enum: TOKEN_TYPES },
      accessKey: { type: 'string', private: true, unique: true },
      lastUsedAt: { type: 'datetime' },
      expiresAt: { type: 'datetime' },
      lifespan: { type: 'biginteger' },
      permissions: { type: 'relation', relation: 'oneToMany', target: 'admin::api-token-permission', mappedBy: 'token' },
    },
  },
  {
    uid: 'admin::api-token-permission',
    namespace: 'admin',
    kind: 'collectionType',
    collectionName: 'strapi_api_token_permissions',
    info: { singularName: 'api-token-permission', pluralName: 'api-token-permissions', displayName: 'API Token Permission' },
    options: {},
    attributes: {
      action: { type: 'string' },
      token: { type: 'relation', relation: 'manyToOne', target: 'admin::api-token', inversedBy: 'permissions' },
    },
  },
];

/** Objection models over the token tables: a fixed, internal schema. */
class ApiTokenRow extends Model {
  static override tableName = 'strapi_api_tokens';
  id!: number;
  name!: string;
  description!: string | null;
  type!: ApiTokenType;
  access_key!: string;
  last_used_at!: unknown;
  expires_at!: unknown;
  created_at!: unknown;
}

const PERMISSIONS_TABLE = 'strapi_api_token_permissions';
const LINKS_TABLE = 'strapi_api_token_permissions_token_links';

export class ApiTokens implements AuthStrategy {
  readonly name = 'api-token';

  constructor(
    private readonly db: Database,
    private readonly salt: string | undefined,
  ) {}

  hash(accessKey: string): string {
    if (!this.salt) throw new ValidationError('API tokens need a salt: set API_TOKEN_SALT (config/admin.ts apiToken.salt)');
    return crypto.createHmac('sha512', this.salt).update(accessKey).digest('hex');
  }

  /** Creates a token; the plaintext access key is returned once and never stored. */
  async create(input: CreateApiTokenInput): Promise<{ token: ApiTokenInfo; accessKey: string }> {
    if (!TOKEN_TYPES.includes(input.type)) throw new ValidationError(`type must be one of ${TOKEN_TYPES.join(', ')}`);
    if (!input.name) throw new ValidationError('name is required');
    if (input.durationDays !== undefined && !(input.durationDays > 0)) throw new ValidationError('duration must be a positive number of days');
    const accessKey = crypto.randomBytes(128).toString('hex');
    const now = new Date();
    const lifespan = input.durationDays === undefined ? null : Math.round(input.durationDays * DAY_MS);
    return this.db.transaction(async () => {
      const existing = await this.rows().where('name', input.name).first();
      if (existing) throw new ValidationError(`an API token named "${input.name}" exists already`);
      const created = await this.db.query('admin::api-token').create({
        data: {
          name: input.name,
          description: input.description ?? '',
          type: input.type,
          accessKey: this.hash(accessKey),
          expiresAt: lifespan === null ? null : new Date(now.getTime() + lifespan),
          lifespan,
          createdAt: now,
          updatedAt: now,
        },
      });
      if (input.type === 'custom') await this.addPermissions(created.id, input.permissions ?? [], now);
      return { token: (await this.find(created.id))!, accessKey };
    });
  }

  async list(): Promise<ApiTokenInfo[]> {
    const rows = await this.rows().orderBy('id');
    return Promise.all(rows.map((row) => this.info(row)));
  }

  async find(id: number): Promise<ApiTokenInfo | null> {
    const row = await this.rows().findById(id);
    return row ? this.info(row) : null;
  }

  /** Deletes a token by id or name; true when one was deleted. */
  async revoke(idOrName: string): Promise<boolean> {
    return this.db.transaction(async () => {
      const row = /^\d+$/.test(idOrName) ? await this.rows().findById(Number(idOrName)) : await this.rows().where('name', idOrName).first();
      if (!row) return false;
      const permissionIds = await this.permissionIds(row.id);
      await this.db.connection.raw(`DELETE FROM ${LINKS_TABLE} WHERE api_token_id = ?`, [row.id]);
      if (permissionIds.length > 0) {
        await this.db.connection.run(this.db.connection.knex(PERMISSIONS_TABLE).whereIn('id', permissionIds).delete());
      }
      await this.db.connection.raw('DELETE FROM strapi_api_tokens WHERE id = ?', [row.id]);
      return true;
    });
  }

  async authenticate(token: string): Promise<AuthState | null> {
    if (!this.salt) return null;
    const row = await this.db.connection.first(
      this.db.connection.knex('strapi_api_tokens').select('id', 'name', 'type', 'expires_at').where('access_key', this.hash(token)).limit(1),
    );
    if (!row) return null;
    const expiresAt = row.expires_at === null || row.expires_at === undefined ? null : toMillis(row.expires_at);
    if (expiresAt !== null && expiresAt <= Date.now()) throw new UnauthorizedError('Token expired');
    const type = row.type as ApiTokenType;
    const ability = type === 'full-access' ? allowEverything : type === 'read-only' ? readOnly : new ActionSet(await this.actions(Number(row.id)));
    return { strategy: this.name, credentials: { id: Number(row.id), name: row.name, type }, ability };
  }

  private rows() {
    return ApiTokenRow.query(this.db.connection.builder);
  }

  private async info(row: ApiTokenRow): Promise<ApiTokenInfo> {
    return {
      id: row.id,
      name: row.name,
      description: row.description ?? '',
      type: row.type,
      expiresAt: isoOrNull(row.expires_at),
      lastUsedAt: isoOrNull(row.last_used_at),
      createdAt: isoOrNull(row.created_at),
      permissions: row.type === 'custom' ? await this.actions(row.id) : [],
    };
  }

  /** Each action is a permission row linked to the token (the relation writer keeps the link order). */
  private async addPermissions(tokenId: number, actions: string[], now: Date): Promise<void> {
    for (const action of new Set(actions)) {
      await this.db.query('admin::api-token-permission').create({ data: { action, token: tokenId, createdAt: now, updatedAt: now } });
    }
  }

  private async permissionIds(tokenId: number): Promise<number[]> {
    const rows = await this.db.connection.all(this.db.connection.knex(LINKS_TABLE).select('api_token_permission_id').where('api_token_id', tokenId));
    return rows.map((row) => Number(row.api_token_permission_id));
  }

  private async actions(tokenId: number): Promise<string[]> {
    const rows = await this.db.connection.all(
      this.db.connection
        .knex({ p: PERMISSIONS_TABLE })
        .join({ l: LINKS_TABLE }, 'l.api_token_permission_id', 'p.id')
        .select('p.action')
        .where('l.api_token_id', tokenId)
        .orderBy('l.api_token_permission_order'),
    );
    return rows.map((row) => String(row.action));
  }
}

function toMillis(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  const text = String(value);
  return /^\d+$/.test(text) ? Number(text) : new Date(text.includes('T') || text.endsWith('Z') ? text : `${text.replace(' ', 'T')}Z`).getTime();
}

function isoOrNull(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const ms = toMillis(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
