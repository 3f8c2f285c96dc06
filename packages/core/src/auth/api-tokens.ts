/**
 * API tokens, stored as Strapi v4 stores them (`strapi_api_tokens`, custom
 * permissions in `strapi_api_token_permissions` + links): the access key is
 * kept only as an HMAC-SHA512 with the app's salt (`config/admin.ts`
 * `apiToken.salt`, or API_TOKEN_SALT), so a leaked database leaks no token.
 */
import crypto from 'node:crypto';
import { UnauthorizedError, ValidationError } from '@tessera/errors';
import { fromEngineParams, type ContentType, type Database, type Entity, type ReadPlan } from '@tessera/database';
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
    info: { name: 'Api Token', singularName: 'api-token', pluralName: 'api-tokens', displayName: 'Api Token', description: '' },
    options: {},
    pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
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
    info: { name: 'API Token Permission', description: '', singularName: 'api-token-permission', pluralName: 'api-token-permissions', displayName: 'API Token Permission' },
    options: {},
    pluginOptions: { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } },
    attributes: {
      action: { type: 'string' },
      token: { type: 'relation', relation: 'manyToOne', target: 'admin::api-token', inversedBy: 'permissions' },
    },
  },
];

const TOKEN_UID = 'admin::api-token';
const PERMISSION_UID = 'admin::api-token-permission';

/** What a token row reads as through `db.query` (the permissions populated in link order). */
interface TokenRow {
  id: number;
  name: string;
  description: string | null;
  type: ApiTokenType;
  expiresAt: unknown;
  lastUsedAt: unknown;
  createdAt: unknown;
  permissions?: Array<{ id: number; action: string }>;
}

const TOKEN_FIELDS = ['name', 'description', 'type', 'expiresAt', 'lastUsedAt', 'createdAt'];
const WITH_PERMISSIONS = { permissions: { fields: ['action'] } };
const LOOKUP_PLANS = 256;

export class ApiTokens implements AuthStrategy {
  readonly name = 'api-token';
  readonly callerKind = 'api-token' as const;

  /** Token look-up plans by hash (see lookUp); bounded, starting over when full. */
  private readonly lookups = new Map<string, ReadPlan>();

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
    // `revoke` reads an all-digit argument as an id: a name like that could never be revoked by name,
    // and `revoke 7` meant for a token named "7" would delete token id 7.
    if (/^\d+$/.test(input.name)) throw new ValidationError(`a token name cannot be all digits (got "${input.name}"): revoke takes an id or a name`);
    if (input.durationDays !== undefined && !(input.durationDays > 0)) throw new ValidationError('duration must be a positive number of days');
    const accessKey = crypto.randomBytes(128).toString('hex');
    const now = new Date();
    const lifespan = input.durationDays === undefined ? null : Math.round(input.durationDays * DAY_MS);
    return this.db.transaction(async () => {
      if (await this.tokens().findOne({ where: { name: input.name }, select: ['id'] })) {
        throw new ValidationError(`an API token named "${input.name}" exists already`);
      }
      const created = await this.tokens().create({
        data: {
          name: input.name,
          description: input.description ?? '',
          type: input.type,
          accessKey: this.hash(accessKey),
          expiresAt: lifespan === null ? null : new Date(now.getTime() + lifespan),
          lifespan,
        },
      });
      if (input.type === 'custom') await this.addPermissions(created.id, input.permissions ?? []);
      return { token: (await this.find(created.id))!, accessKey };
    });
  }

  async list(): Promise<ApiTokenInfo[]> {
    const rows = (await this.tokens().findMany({ select: TOKEN_FIELDS, orderBy: 'id', populate: WITH_PERMISSIONS })) as unknown as TokenRow[];
    return rows.map(info);
  }

  async find(id: number): Promise<ApiTokenInfo | null> {
    const row = (await this.tokens().findOne({ where: { id }, select: TOKEN_FIELDS, populate: WITH_PERMISSIONS })) as unknown as TokenRow | null;
    return row ? info(row) : null;
  }

  /** Deletes a token by id or name, with its permission rows; true when one was deleted. */
  async revoke(idOrName: string): Promise<boolean> {
    return this.db.transaction(async () => {
      const where = /^\d+$/.test(idOrName) ? { id: Number(idOrName) } : { name: idOrName };
      const row = (await this.tokens().findOne({ where, select: ['id'], populate: { permissions: { fields: ['id'] } } })) as unknown as TokenRow | null;
      if (!row) return false;
      const permissionIds = (row.permissions ?? []).map((permission) => permission.id);
      await this.tokens().delete({ where: { id: row.id } });
      if (permissionIds.length > 0) await this.permissions().deleteMany({ where: { id: { $in: permissionIds } } });
      return true;
    });
  }

  /**
   * Strapi's API-token rule for a requirement (its strategy's `verify`): full access passes anything; a read-only
   * token a scope whose actions are all reads; a custom token a scope it holds every action of. A requirement with
   * no scope (a route with a function handler, a custom resolver) is refused to both (Strapi answers the custom
   * token's case with a 500).
   */
  scopeRefusal(auth: AuthState, scope: readonly string[] | undefined): 'forbidden' | undefined {
    if (auth.credentials?.type === 'full-access') return undefined;
    if (scope === undefined) return 'forbidden';
    const allowed = auth.credentials?.type === 'read-only' ? scope.every(isReadScope) : scope.every((action) => auth.ability.can(action));
    return allowed ? undefined : 'forbidden';
  }

  async authenticate(token: string): Promise<AuthState | null> {
    if (!this.salt) return null;
    const row = (await this.lookUp(this.hash(token))) as unknown as TokenRow | null;
    if (!row) return null;
    const expiresAt = row.expiresAt === null || row.expiresAt === undefined ? null : toMillis(row.expiresAt);
    if (expiresAt !== null && expiresAt <= Date.now()) throw new UnauthorizedError('Token expired');
    const ability = row.type === 'full-access' ? allowEverything : row.type === 'read-only' ? readOnly : new ActionSet(await this.actions(row.id));
    return { strategy: this, credentials: { id: row.id, name: row.name, type: row.type }, ability };
  }

  /**
   * The token row with this hash, read on every request (a revoked or expired token fails at once). Its plan —
   * Strapi's `{ where, select }` compiled — is kept per hash, so a token's statement is built once, not through
   * knex per request. Not when a read hook listens on tokens: hooks then see Strapi's parameters, as before.
   */
  private async lookUp(hash: string): Promise<Entity | null> {
    const params = { where: { accessKey: hash }, select: ['name', 'type', 'expiresAt'] };
    const tokens = this.tokens();
    if (this.db.lifecycles.hasReadHooks(TOKEN_UID)) return tokens.findOne(params);
    let query = this.lookups.get(hash);
    if (!query) {
      if (this.lookups.size >= LOOKUP_PLANS) this.lookups.clear();
      query = tokens.plan(fromEngineParams(params), { allowPrivate: true });
      this.lookups.set(hash, query);
    }
    const [row] = await tokens.findMany({ query, page: { limit: 1, offset: 0 } });
    return row ?? null;
  }

  private tokens() {
    return this.db.query(TOKEN_UID);
  }

  private permissions() {
    return this.db.query(PERMISSION_UID);
  }

  /** Each action is a permission row linked to the token (the relation writer keeps the link order). */
  async addPermissions(tokenId: number, actions: string[]): Promise<void> {
    for (const action of new Set(actions)) await this.permissions().create({ data: { action, token: tokenId } });
  }

  /** A custom token's actions, in link order (also `strapi.service('admin::api-token')`'s answers). */
  async actions(tokenId: number): Promise<string[]> {
    const row = (await this.tokens().findOne({ where: { id: tokenId }, select: ['id'], populate: WITH_PERMISSIONS })) as unknown as TokenRow | null;
    return (row?.permissions ?? []).map((permission) => permission.action);
  }
}

function info(row: TokenRow): ApiTokenInfo {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? '',
    type: row.type,
    expiresAt: isoOrNull(row.expiresAt),
    lastUsedAt: isoOrNull(row.lastUsedAt),
    createdAt: isoOrNull(row.createdAt),
    permissions: row.type === 'custom' ? (row.permissions ?? []).map((permission) => permission.action) : [],
  };
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

/** Strapi's read scope: an action whose name ends in `find` or `findOne`. */
function isReadScope(action: string): boolean {
  return action.endsWith('find') || action.endsWith('findOne');
}
