/**
 * The users of the plugin: lookups the auth flows need (trusted, with the
 * password hash) and the content-API operations behind `/users` (the
 * caller's permissions apply: private fields are never read, populate and
 * filters reach only types the caller may `find`). Transport-free, so the
 * GraphQL plugin calls the same functions as the REST controllers.
 */
import { type App, type Caller, type Entity, type RequestParams } from '@tessera/core';
import { signedInUserId } from '../signed-in';
import { isFilterableText } from '@tessera/database';
import { ApplicationError, ForbiddenError, UnauthorizedError, ValidationError } from '@tessera/errors';
import { PRIVILEGED_FIELDS } from '../config';
import { checkEmailAddress } from '../email-address';
import { checkUsernameIsNoOtherEmail } from '../username-rule';
import { checkNewPassword, hashPassword, verifyPassword } from '../password';
import { ROLE_UID, USER_UID } from '../content-types';

export const UPDATE_ACTION = `${USER_UID}.update`;
/** Server-managed codes and stamps: no client writes them, whatever its permissions. */
const TOKEN_FIELDS = ['resetPasswordToken', 'confirmationToken', 'passwordChangedAt'];

/** Attribute types whose value is not a column of up_users (Strapi's strategy loads none of them but the role). */
const NOT_COLUMNS = new Set(['relation', 'media', 'component', 'dynamiczone']);

/**
 * The user fields a JWT's credentials (`ctx.state.user`) hold: every column of the user type, an app's own
 * (`credits` an app's middleware reads) as well as Strapi's, as Strapi's strategy loads them — but the password hash
 * and the reset and confirmation codes, which no route or plugin has a use for and a careless `ctx.body = user` would leak.
 */
function credentialFields(attributes: Record<string, { type: string }>): string[] {
  return Object.entries(attributes)
    .filter(([name, attribute]) => !NOT_COLUMNS.has(attribute.type) && attribute.type !== 'password' && !TOKEN_FIELDS.includes(name))
    .map(([name]) => name);
}

/** A value the filter compiler refuses (a 400 naming the column) names no account. */
function unmatchable(value: unknown): boolean {
  return typeof value === 'string' && !isFilterableText(value);
}

export interface UserService {
  /** Trusted: the entry with every column (password hash included), or null. */
  findForAuth(where: Record<string, unknown>): Promise<Entity | null>;
  /** A JWT's user: its columns but the password and codes (credentialFields), its role and last password change, or null. */
  fetchAuthenticatedUser(id: number): Promise<Entity | null>;
  /** The user without private attributes (for bodies built from trusted reads). */
  sanitize(user: Entity): Entity;
  defaultRoleId(): Promise<number>;
  /** 'Username already taken', and with unique emails 'Email already taken', unless held by user `ownId`. */
  checkIdentityFree(values: Record<string, unknown>, ownId: number | null): Promise<void>;
  find(caller: Caller, params?: RequestParams): Promise<Entity[]>;
  /** `GET /users/count`: the users the caller may see that match the request's filters. */
  countVisible(caller: Caller, params?: RequestParams): Promise<number>;
  /** Strapi v4's `count(params)`: trusted, `params` is the query's `where`. */
  count(where?: Record<string, unknown>): Promise<number>;
  /** Strapi v4's `fetchAll(params)`: the entity service's findMany of users (trusted). */
  fetchAll(params?: Record<string, unknown>): Promise<Entity[]>;
  /** Strapi v4's `sendConfirmationEmail(user)`: a new confirmation code for `user`, mailed to them. */
  sendConfirmationEmail(user: Entity): Promise<void>;
  findOne(caller: Caller, id: unknown, params?: RequestParams): Promise<Entity>;
  me(caller: Caller, params?: RequestParams): Promise<Entity>;
  /**
   * The role (id, name, description, type) of a user an account operation answered (GraphQL's
   * `UsersPermissionsMe.role` under `me`, `login`, `register`): trusted, as Strapi's resolver reads it, through the
   * entity service (server code's operations), or null.
   */
  roleOf(userId: number): Promise<Entity | null>;
  create(caller: Caller, body: unknown): Promise<Entity>;
  update(caller: Caller, id: unknown, body: unknown): Promise<Entity>;
  delete(caller: Caller, id: unknown): Promise<Entity>;
  /** Strapi v4's trusted helpers, for app code: `add` hashes the password and defaults provider and role. */
  add(values: Record<string, unknown>): Promise<Entity>;
  edit(id: number, values: Record<string, unknown>): Promise<Entity>;
  fetch(id: number, params?: Record<string, unknown>): Promise<Entity | null>;
  remove(where: { id: number }): Promise<Entity | null>;
  validatePassword(password: string, hash: unknown): Promise<boolean>;
}

/** `options`: the advanced settings as stored (settings/advanced.ts), read on each use. */
export function createUserService(app: App, options: () => Promise<{ uniqueEmail: boolean; defaultRole: string }>): UserService {
  const repository = () => app.db.query(USER_UID);
  // Private attributes and the admin-user stamps, which Strapi never shows on the content API either.
  const hiddenNames = () => {
    const attributes = app.contentTypes.get(USER_UID).attributes as Record<string, { type: string; private?: boolean }>;
    const hidden = Object.entries(attributes).filter(([, attribute]) => attribute.private || attribute.type === 'password');
    return new Set([...hidden.map(([name]) => name), 'createdBy', 'updatedBy']);
  };

  const service: UserService = {
    // A value no stored one can equal names no account (the filter compiler would refuse it with a 400 naming the column).
    findForAuth: (where) => (Object.values(where).some(unmatchable) ? Promise.resolve(null) : repository().findOne({ where })),

    fetchAuthenticatedUser: (id) =>
      repository().findOne({
        where: { id },
        select: [...new Set(['id', ...credentialFields(app.contentTypes.get(USER_UID).attributes as Record<string, { type: string }>), 'createdAt', 'updatedAt', 'passwordChangedAt'])],
        populate: { role: { select: ['id', 'name', 'type'] } },
      }),

    sanitize(user) {
      const hidden = hiddenNames();
      const clean: Entity = { id: user.id };
      for (const [key, value] of Object.entries(user)) if (!hidden.has(key)) clean[key] = value;
      return clean;
    },

    async defaultRoleId() {
      const role = await app.db.query(ROLE_UID).findOne({ where: { type: (await options()).defaultRole }, select: ['id'] });
      if (!role) throw new ApplicationError('Impossible to find the default role');
      return role.id;
    },

    async find(caller, params = {}) {
      const { results } = await app.contentOperations.find(USER_UID, { caller, params: listParams(params) });
      return results;
    },

    count: (where = {}) => repository().count({ where }),

    async fetchAll(params = {}) {
      return (await app.entityService.findMany(USER_UID, params)) as Entity[];
    },

    checkIdentityFree: (values, ownId) => assertIdentityFree(values, ownId),

    sendConfirmationEmail: (user) => app.plugin('users-permissions')!.service('auth').sendConfirmationTo(user),

    async countVisible(caller, params = {}) {
      const { filters, _q } = params;
      const { pagination } = await app.contentOperations.find(USER_UID, { caller, params: { filters, _q, pagination: { page: 1, pageSize: 1, withCount: true } } });
      return (pagination as { total: number }).total;
    },

    findOne: (caller, id, params = {}) => app.contentOperations.findOne(USER_UID, id, { caller, params }),

    async me(caller, params = {}) {
      const id = signedInUserId(caller);
      // Strapi 4.26.2's `ctx.unauthorized()` when no user is behind the request (an API token).
      if (id === undefined) throw new UnauthorizedError('Unauthorized');
      return app.contentOperations.findOne(USER_UID, id, { caller, params });
    },

    async roleOf(userId) {
      const user = (await app.entityService.findOne(USER_UID, userId, { fields: ['id'], populate: ['role'] })) as Entity | null;
      return (user?.role as Entity | null | undefined) ?? null;
    },

    async create(caller, body) {
      const values = writableValues(caller, body, 'create');
      for (const field of ['username', 'email'] as const) requireString(values, field);
      values.password = await hashPassword(checkNewPassword(values.password));
      checkEmail(values);
      const created = await app.db.transaction(async () => {
        await app.db.lock(['users-permissions:identity']);
        await assertIdentityFree(values, null);
        checkUsernameIsNoOtherEmail(values.username, values.email);
        values.provider ??= 'local';
        values.role ??= await service.defaultRoleId();
        return app.entityService.create(USER_UID, { data: values, fields: ['id'], unknownKeys: 'refuse' });
      });
      return app.contentOperations.findOne(USER_UID, created.id, { caller, params: { populate: ['role'] } });
    },

    async update(caller, id, body) {
      const existing = await service.findOne(caller, id, { fields: ['id'] });
      const values = writableValues(caller, body, 'update');
      if ('password' in values) values.password = await hashPassword(checkNewPassword(values.password));
      if ('username' in values) requireString(values, 'username');
      if ('email' in values) checkEmail(values);
      await app.db.transaction(async () => {
        await app.db.lock(['users-permissions:identity']);
        await assertIdentityFree(values, existing.id);
        if ('username' in values) {
          const email = 'email' in values ? values.email : (await repository().findOne({ where: { id: existing.id } }))?.email;
          checkUsernameIsNoOtherEmail(values.username, email);
        }
        await app.entityService.update(USER_UID, existing.id, { data: values, fields: ['id'], unknownKeys: 'refuse' });
      });
      return app.contentOperations.findOne(USER_UID, existing.id, { caller, params: { populate: ['role'] } });
    },

    async delete(caller, id) {
      const existing = await service.findOne(caller, id);
      await app.entityService.delete(USER_UID, existing.id, { fields: ['id'] });
      return existing;
    },

    async add(values) {
      const data: Record<string, unknown> = { provider: 'local', ...values };
      if (typeof data.password === 'string') data.password = await hashPassword(data.password);
      data.role ??= await service.defaultRoleId();
      return app.entityService.create(USER_UID, { data, populate: ['role'] });
    },

    async edit(id, values) {
      const data = { ...values };
      if (typeof data.password === 'string') data.password = await hashPassword(data.password);
      return app.entityService.update(USER_UID, id, { data, populate: ['role'] });
    },

    async fetch(id, params = {}) {
      return (await app.entityService.findOne(USER_UID, id, params)) ?? null;
    },

    remove: (where) => repository().delete({ where }),

    validatePassword: (password, hash) => verifyPassword(password, hash),
  };

  /** Strapi's messages: a taken username or (with unique emails) email is a 400 ApplicationError. */
  async function assertIdentityFree(values: Record<string, unknown>, ownId: number | null): Promise<void> {
    const notMe = ownId === null ? {} : { id: { $ne: ownId } };
    if (typeof values.username === 'string' && (await repository().count({ where: { username: values.username, ...notMe } })) > 0) {
      throw new ApplicationError('Username already taken');
    }
    if ((await options()).uniqueEmail && typeof values.email === 'string' && (await repository().count({ where: { email: values.email, ...notMe } })) > 0) {
      throw new ApplicationError('Email already taken');
    }
  }

  return service;
}

/**
 * The body of a user write. Codes are never writable; role, confirmed,
 * blocked, provider (and, on update, password) only for callers holding the
 * update action itself — a route opened to users through another scope (a
 * profile page with an is-owner policy) cannot be used to promote oneself or
 * to skip change-password's check of the current password.
 */
function writableValues(caller: Caller, body: unknown, mode: 'create' | 'update'): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError('The request body must be an object');
  const values = { ...(body as Record<string, unknown>) };
  const tokens = Object.keys(values).filter((key) => TOKEN_FIELDS.includes(key));
  if (tokens.length > 0) throw new ValidationError(`Invalid parameters: ${tokens.join(', ')}`);
  if (!caller.may(UPDATE_ACTION)) {
    const privileged = Object.keys(values).filter((key) => PRIVILEGED_FIELDS.includes(key) || (mode === 'update' && key === 'password'));
    if (privileged.length > 0) throw new ForbiddenError(`You may not change ${privileged.join(', ')}`);
  }
  for (const key of ['id', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']) delete values[key];
  return values;
}

function requireString(values: Record<string, unknown>, field: string): void {
  if (typeof values[field] !== 'string' || (values[field] as string).trim() === '') throw ValidationError.forField([field], `${field} is a required field`);
}

function checkEmail(values: Record<string, unknown>): void {
  requireString(values, 'email');
  checkEmailAddress(values.email as string);
  values.email = (values.email as string).toLowerCase();
}

/** `/users` answers a bare list: no count query, and Strapi's top-level `start`/`limit` are accepted too. */
function listParams(params: RequestParams): RequestParams {
  const { start, limit, page, pageSize, pagination, ...rest } = params;
  const given = typeof pagination === 'object' && pagination !== null ? (pagination as Record<string, unknown>) : {};
  const merged: Record<string, unknown> = { start, limit, page, pageSize, ...given, withCount: false };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return { ...rest, pagination: merged };
}

