/**
 * Roles and their permissions. Permissions travel in Strapi v4's shape —
 * `{ 'api::article': { controllers: { article: { find: { enabled: true } } } } }`
 * — and are stored as one `up_permissions` row per granted action, linked to
 * its role. The catalogue of actions is read from the app's content-API
 * routes, so it lists exactly what a role can be granted.
 */
import { routeHandlerAction, type App, type Entity, type RouteConfig } from '@tessera/core';
import { ApplicationError, ConfigurationError, NotFoundError, ValidationError } from '@tessera/errors';
import { PERMISSION_UID, ROLE_UID, USER_UID } from '../content-types';

export type PermissionTree = Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }>;

export interface RoleInput {
  name?: unknown;
  description?: unknown;
  type?: unknown;
  permissions?: unknown;
}

export interface RoleService {
  find(): Promise<Array<Entity & { nb_users: number }>>;
  findOne(id: unknown): Promise<Entity & { permissions: PermissionTree }>;
  create(input: unknown): Promise<Entity>;
  update(id: unknown, input: unknown): Promise<Entity>;
  delete(id: unknown): Promise<void>;
  /** Strapi v4's names for create, update and delete, which Strapi plugins call (strapi-plugin-sitemap grants its public actions with `updateRole`). */
  createRole(input: unknown): Promise<Entity>;
  updateRole(id: unknown, input: unknown): Promise<Entity>;
  deleteRole(id: unknown, publicRoleId?: unknown): Promise<void>;
  /** Every action a role can be granted, all disabled. */
  catalogue(): PermissionTree;
  /** Ensures the two built-in roles exist and grants each role named in `config/permissions.ts` its actions. */
  initialize(): Promise<void>;
}

const ROLE_FIELDS = ['id', 'name', 'description', 'type', 'createdAt', 'updatedAt'];
/**
 * The built-in roles and Strapi v4's default permissions for them (its
 * DEFAULT_PERMISSIONS). The account routes are open in Tessera whatever the
 * public role holds, but the rows matter all the same: as in Strapi, only a
 * public role with no permission at all makes anonymous callers no caller
 * (a 401 on REST and GraphQL alike, auth/authorize.ts in core), so an app
 * that grants no content to the public still answers 403 and still serves
 * GraphQL's `login` and `register`.
 */
const PUBLIC_ACCOUNT_ACTIONS = ['callback', 'connect', 'forgotPassword', 'resetPassword', 'register', 'emailConfirmation', 'sendEmailConfirmation'].map(
  (action) => `plugin::users-permissions.auth.${action}`,
);
const BUILT_IN = [
  { name: 'Authenticated', description: 'Default role given to authenticated user.', type: 'authenticated', actions: ['plugin::users-permissions.user.me', 'plugin::users-permissions.auth.changePassword'] },
  { name: 'Public', description: 'Default role given to unauthenticated user.', type: 'public', actions: PUBLIC_ACCOUNT_ACTIONS },
];
const MAX_TREE_ACTIONS = 5_000;
const ACTION = /^[a-z]+::[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_]+$/;

export function createRoleService(app: App): RoleService {
  const roles = () => app.db.query(ROLE_UID);
  const permissions = () => app.db.query(PERMISSION_UID);

  const requireRole = async (id: unknown): Promise<Entity> => {
    const roleId = /^\d{1,15}$/.test(String(id)) ? Number(id) : NaN;
    const role = Number.isNaN(roleId) ? null : await roles().findOne({ where: { id: roleId }, select: ROLE_FIELDS });
    if (!role) throw new NotFoundError('Role not found');
    return role;
  };

  const actionsOf = async (roleId: number): Promise<string[]> =>
    (await permissions().findMany({ where: { role: { id: roleId } }, select: ['action'] })).map((row) => String(row.action));

  /** Adds the missing actions, and with `exact` removes the others. */
  const grant = async (roleId: number, actions: string[], exact: boolean): Promise<void> => {
    const current = await permissions().findMany({ where: { role: { id: roleId } }, select: ['id', 'action'] });
    const wanted = new Set(actions);
    for (const row of current) {
      if (wanted.has(String(row.action))) wanted.delete(String(row.action));
      else if (exact) await permissions().delete({ where: { id: row.id } });
    }
    for (const action of wanted) await permissions().create({ data: { action, role: roleId } });
  };

  const service: RoleService = {
    async find() {
      // Strapi 4.26.2 asks for `sort: ['name']`, which its query engine ignores: its roles come in id order (recorded).
      // Each role's users counted by the query engine's populate `count` (one query for every role), as Strapi counts them.
      const list = await roles().findMany({ select: ROLE_FIELDS, orderBy: [{ id: 'asc' }], populate: { users: { count: true } } });
      return list.map(({ users, ...role }) => ({ ...role, nb_users: (users as { count?: number } | null | undefined)?.count ?? 0 }));
    },

    async findOne(id) {
      const role = await requireRole(id);
      const tree = service.catalogue();
      for (const action of await actionsOf(role.id)) setAction(tree, action, true);
      return { ...role, permissions: tree };
    },

    async create(input) {
      const { name, description, type, actions } = parseRoleInput(input, true);
      return app.db.transaction(async () => {
        const roleType = type ?? slug(name!);
        if ((await roles().count({ where: { type: roleType } })) > 0) throw new ApplicationError('A role of this type already exists');
        const role = await roles().create({ data: { name, description: description ?? '', type: roleType } });
        if (actions) await grant(role.id, actions, true);
        return role;
      });
    },

    async update(id, input) {
      const role = await requireRole(id);
      const { name, description, actions } = parseRoleInput(input, false);
      return app.db.transaction(async () => {
        const data: Record<string, unknown> = {};
        if (name !== undefined) data.name = name;
        if (description !== undefined) data.description = description;
        const updated = Object.keys(data).length > 0 ? await roles().update({ where: { id: role.id }, data }) : role;
        if (actions) await grant(role.id, actions, true);
        return updated ?? role;
      });
    },

    async delete(id) {
      const role = await requireRole(id);
      // Strapi's words for the public role; Strapi would delete the authenticated one, which register gives by default.
      if (role.type === 'public') throw new ApplicationError('Cannot delete public role');
      if (role.type === 'authenticated') throw new ApplicationError('The authenticated role cannot be deleted');
      await app.db.transaction(async () => {
        // As in Strapi, the users of a deleted role fall back to the public role (least privilege).
        const publicRole = await roles().findOne({ where: { type: 'public' }, select: ['id'] });
        const members = await app.db.query(USER_UID).findMany({ where: { role: { id: role.id } }, select: ['id'] });
        for (const member of members) await app.db.query(USER_UID).update({ where: { id: member.id }, data: { role: publicRole?.id ?? null } });
        await grant(role.id, [], true);
        await roles().delete({ where: { id: role.id } });
      });
    },

    createRole: (input) => service.create(input),
    updateRole: (id, input) => service.update(id, input),
    // Strapi's second argument names the public role, to which the users fall back; delete finds it itself.
    deleteRole: (id) => service.delete(id),

    catalogue() {
      const tree: PermissionTree = {};
      for (const action of routeActions(app)) setAction(tree, action, false);
      return tree;
    },

    async initialize() {
      const configured = (app.config.permissions ?? {}) as Record<string, unknown>;
      await app.db.transaction(async () => {
        await app.db.lock(['users-permissions:initialize']);
        for (const builtIn of BUILT_IN) {
          if ((await roles().count({ where: { type: builtIn.type } })) > 0) continue;
          const role = await roles().create({ data: { name: builtIn.name, description: builtIn.description, type: builtIn.type } });
          await grant(role.id, builtIn.actions, false);
        }
        for (const [type, actions] of Object.entries(configured)) {
          if (!Array.isArray(actions)) continue;
          const role = await roles().findOne({ where: { type }, select: ['id'] });
          if (!role) throw new ConfigurationError(`config/permissions names the role "${type}", which does not exist (roles are created through /api/users-permissions/roles)`);
          await grant(role.id, actions.filter((action): action is string => typeof action === 'string'), false);
        }
      });
    },
  };
  return service;
}

function parseRoleInput(input: unknown, creating: boolean): { name?: string; description?: string; type?: string; actions?: string[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new ValidationError('The request body must be an object');
  const { name, description, type, permissions } = input as RoleInput;
  if ((creating || name !== undefined) && (typeof name !== 'string' || name.trim().length < 3)) {
    throw ValidationError.forField(['name'], 'name must be at least 3 characters');
  }
  if (description !== undefined && description !== null && typeof description !== 'string') throw ValidationError.forField(['description'], 'description must be a string');
  if (type !== undefined && (typeof type !== 'string' || !/^[a-z0-9_-]+$/.test(type))) throw ValidationError.forField(['type'], 'type must be lower-case letters, digits, - and _');
  return {
    name: name as string | undefined,
    description: (description ?? undefined) as string | undefined,
    type: type as string | undefined,
    actions: permissions === undefined ? undefined : enabledActions(permissions),
  };
}

/** The enabled actions of a permission tree; anything else in it is a 400. */
function enabledActions(tree: unknown): string[] {
  const fail = (): never => {
    throw ValidationError.forField(['permissions'], 'permissions must be { "<namespace>": { "controllers": { "<controller>": { "<action>": { "enabled": boolean } } } } }');
  };
  if (!isObject(tree)) fail();
  const actions: string[] = [];
  let listed = 0;
  for (const [namespace, entry] of Object.entries(tree as Record<string, unknown>)) {
    const controllers = isObject(entry) ? entry.controllers : undefined;
    if (!isObject(controllers)) return fail();
    for (const [controller, controllerActions] of Object.entries(controllers)) {
      if (!isObject(controllerActions)) fail();
      for (const [action, setting] of Object.entries(controllerActions as Record<string, unknown>)) {
        // A budget: each enabled action is a row written; an app's whole catalogue is a few hundred.
        if ((listed += 1) > MAX_TREE_ACTIONS) throw ValidationError.forField(['permissions'], `permissions may list at most ${MAX_TREE_ACTIONS} actions`);
        if (!isObject(setting) || typeof setting.enabled !== 'boolean') fail();
        const name = `${namespace}.${controller}.${action}`;
        if (!ACTION.test(name)) fail();
        if ((setting as { enabled: boolean }).enabled) actions.push(name);
      }
    }
  }
  return actions;
}

function setAction(tree: PermissionTree, action: string, enabled: boolean): void {
  // The namespace (`api::article`, `plugin::users-permissions`) holds no dot, so no part can take another's characters.
  const match = /^([^.:]+::[^.]+)\.([^.]+)\.([^.]+)$/.exec(action);
  if (!match) return;
  const [, namespace, controller, name] = match;
  tree[namespace] ??= { controllers: {} };
  tree[namespace].controllers[controller] ??= {};
  tree[namespace].controllers[controller][name] = { enabled, policy: '' };
}

/** Actions the content-API routes check (the same derivation as the kernel's route mounting). */
function routeActions(app: App): string[] {
  const actions = new Set<string>();
  for (const [key, definition] of app.routes.entries()) {
    if ((definition.type ?? 'content-api') !== 'content-api') continue;
    const routes: RouteConfig[] = typeof definition.routes === 'function' ? definition.routes(app.context) : definition.routes;
    const [scope, rest = ''] = key.split('::');
    const namespace = `${scope}::${rest.split('.')[0]}`;
    for (const route of routes) {
      const auth = route.config?.auth;
      // An open route, or one that authorizes each operation itself (GraphQL), has no action of its own.
      if (auth === false || auth === 'per-operation') continue;
      if (auth?.scope) for (const action of auth.scope) actions.add(action);
      else if (typeof route.handler === 'string') actions.add(routeHandlerAction(namespace, route.handler));
    }
  }
  return [...actions].sort();
}

function slug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    // `(?<!_)`: a trailing run is matched from its first underscore only, so the scan stays linear (no ReDoS).
    .replace(/^_+|(?<!_)_+$/g, '');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
