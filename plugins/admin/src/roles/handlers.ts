/**
 * The `role` and `permission` controllers of `@strapi/admin` 4.26.2, with its
 * answers: roles listed with their users count, read, created (201), renamed,
 * deleted one or many; a role's permissions read and replaced; every action
 * and condition for the role editor. The Super Admin role is never edited,
 * and its permissions never replaced (they are every action, synced at boot).
 *
 * Beyond Strapi: nobody but a Super Admin adds permissions to a role they hold
 * themselves (403), so no route lets a user give themselves more than they
 * hold; role names are at most 255 characters (the column's size).
 */
import type Koa from 'koa';
import { ApplicationError, ForbiddenError, NotFoundError, ValidationError } from '@tessera/errors';
import { requestBody, type App } from '@tessera/core';
import { adminAbility } from '../contract';
import { permissionSections } from '../permissions/sections';
import { permissionStore, samePermission, type PermissionInput } from '../permissions/store';
import { isPlainObject, validateBody, type BodySchema } from '../validation';
import { knownConditions, validatePermissionsBody } from './permissions-body';
import { roleId, roleService } from './service';

const MAX_NAME = 255;
const name = { name: 'name', checks: [(value: string, path: string) => (value.length < 1 ? `${path} must be at least 1 characters` : value.length > MAX_NAME ? `${path} must be at most ${MAX_NAME} characters` : null)] };
const ROLE_CREATE_BODY: BodySchema = { noUnknown: true, fields: [{ ...name, required: true, requiredLast: true }, { name: 'description', nullable: true }] };
const ROLE_UPDATE_BODY: BodySchema = { noUnknown: true, fields: [name, { name: 'description', nullable: true }] };

const notFound = () => new NotFoundError('role.notFound');

/** `POST /roles/batch-delete`'s `ids`: required, at least one, each a number or a string (Strapi's `strapiID`). */
function batchIds(body: unknown): unknown[] {
  const value = isPlainObject(body) ? body : {};
  const ids = value.ids;
  const refuse = (message: string) => ValidationError.fromIssues([{ path: ['ids'], message, name: 'ValidationError' }]);
  if (ids === undefined || ids === null) throw refuse('ids is a required field');
  if (!Array.isArray(ids)) throw refuse(`ids must be a \`array\` type, but the final value was: \`${JSON.stringify(ids)}\`.`);
  if (ids.length < 1) throw refuse('ids field must have at least 1 items');
  if (ids.length > 1000) throw refuse('ids field must have less than or equal to 1000 items');
  if (ids.some((id) => typeof id !== 'number' && typeof id !== 'string')) throw refuse('ids must contain only ids');
  return ids;
}

export function roleHandlers(app: App) {
  const roles = roleService(app);
  const store = permissionStore(app);

  return {
    async findAll(ctx: Koa.Context) {
      ctx.body = { data: await roles.list() };
    },

    async findOne(ctx: Koa.Context) {
      const role = await roles.find(roleId(ctx.params.id));
      if (!role) throw notFound();
      const { isSuperAdmin: _super, ...answer } = role;
      ctx.body = { data: answer };
    },

    async create(ctx: Koa.Context) {
      const input = validateBody(requestBody(ctx), ROLE_CREATE_BODY);
      ctx.status = 201;
      ctx.body = { data: await roles.create({ name: input.name!, description: input.description }) };
    },

    async update(ctx: Koa.Context) {
      const input = validateBody(requestBody(ctx), ROLE_UPDATE_BODY);
      const role = await roles.find(roleId(ctx.params.id));
      if (!role) throw notFound();
      if (role.isSuperAdmin) throw new ApplicationError("Super admin can't be edited.");
      const changes: { name?: string; description?: string | null } = {};
      if (typeof input.name === 'string') changes.name = input.name;
      if (input.description !== undefined) changes.description = input.description;
      ctx.body = { data: await roles.update(role.id, changes) };
    },

    async deleteOne(ctx: Koa.Context) {
      const [deleted] = await roles.delete([ctx.params.id], 'id');
      ctx.body = { data: deleted ?? null };
    },

    async deleteMany(ctx: Koa.Context) {
      ctx.body = { data: await roles.delete(batchIds(requestBody(ctx)), 'ids') };
    },

    async getPermissions(ctx: Koa.Context) {
      const role = await roles.find(roleId(ctx.params.id));
      if (!role) throw notFound();
      ctx.body = { data: await store.ofRole(role.id) };
    },

    /** Strapi answers the permissions it added (not those it kept): the panel refetches. */
    async updatePermissions(ctx: Koa.Context) {
      const role = await roles.find(roleId(ctx.params.id));
      if (!role) throw notFound();
      if (role.isSuperAdmin) throw new ApplicationError("Super admin permissions can't be edited.");
      const { actionProvider, conditionProvider } = app.admin.services.permission;
      const wanted = validatePermissionsBody(requestBody(ctx), actionProvider);
      const added = await app.db.transaction(async () => {
        const existing = await store.ofRole(role.id);
        const adds = wanted.filter((permission) => !existing.some((row) => samePermission(row as PermissionInput, permission)));
        const caller = adminAbility(ctx);
        if (adds.length > 0 && !caller.isSuperAdmin && caller.roleIds.includes(role.id)) throw new ForbiddenError('You cannot add permissions to a role you hold');
        const kept = await store.assign(role.id, wanted, knownConditions(conditionProvider));
        return kept.filter((permission) => !existing.some((row) => row.id === permission.id));
      });
      ctx.body = { data: added };
    },

    async permissions(ctx: Koa.Context) {
      ctx.body = { data: await permissionSections(app) };
    },
  };
}
