/**
 * Strapi 4.26.2's `content-manager-user` controller: the content manager hands its create and update of a user here
 * (this plugin's `layout.user.actions` config, the content manager's layout-actions contract). The content manager
 * has checked the admin's access (and found the entry) first; this checks the body as Strapi does (the same
 * messages, recorded on the peer), refuses a taken username or email, lower-cases the email, and then lets the
 * content manager write with `provider: 'local'`, so a user made in the panel signs in with its password.
 */
import type Koa from 'koa';
import { isEmailAddress, MAX_EMAIL_LENGTH, requestBody, type ProceedWithWrite } from '@tessera/core';
import { ApplicationError, TesseraError, ValidationError, type ValidationIssue } from '@tessera/errors';
import type { UserService } from '../services/user';

type Mode = 'create' | 'update';

export function contentManagerUserController(users: () => UserService) {
  return {
    async create(ctx: Koa.Context, proceed: ProceedWithWrite) {
      const body = checkedBody(ctx, 'create');
      const values = { ...body, email: String(body.email).toLowerCase() };
      await users().checkIdentityFree(values, null);
      try {
        await proceed({ body: values, trusted: { provider: 'local' } });
      } catch (error) {
        // Strapi answers any failure of the write itself as an ApplicationError with its message.
        if (error instanceof TesseraError && error.status === 400) throw new ApplicationError(error.message);
        throw error;
      }
      ctx.status = 201;
    },

    async update(ctx: Koa.Context, proceed: ProceedWithWrite) {
      const values = checkedBody(ctx, 'update');
      // A password login cannot lose its password.
      if ('password' in values && values.password === null && (await users().fetch(Number(ctx.params.id)))?.provider === 'local') {
        throw new ValidationError('password.notNull');
      }
      if (typeof values.email === 'string') values.email = values.email.toLowerCase();
      await users().checkIdentityFree(values, Number(ctx.params.id));
      await proceed({ body: values });
    },
  };
}

/** Strapi's createUserBodySchema / updateUserBodySchema (yup), every problem in one 400. */
function checkedBody(ctx: Koa.Context, mode: Mode): Record<string, unknown> {
  const body = requestBody(ctx) ?? {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('The request body must be an object');
  const values = { ...(body as Record<string, unknown>) };
  const issues: ValidationIssue[] = [];
  const issue = (path: string[], message: string) => issues.push({ path, message, name: 'ValidationError' });
  for (const field of ['email', 'username', 'password'] as const) {
    const value = values[field];
    if (value === undefined || value === null) {
      if (mode === 'create') issue([field], `${field} is a required field`);
      continue;
    }
    if (typeof value !== 'string') issue([field], `${field} must be a \`string\` type`);
    else if (field === 'email' && (value.length > MAX_EMAIL_LENGTH || !isEmailAddress(value))) issue([field], 'email must be a valid email');
    else if (value.length < 1) {
      issue([field], `${field} must be at least 1 characters`);
      if (mode === 'create' && field !== 'email') issue([field], `${field} is a required field`);
    }
  }
  checkRole(values.role, mode, issue);
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
  return values;
}

function checkRole(role: unknown, mode: Mode, issue: (path: string[], message: string) => void): void {
  if (role === undefined || role === null) {
    if (mode === 'create') issue(['role'], 'role is a required field');
    return;
  }
  if (typeof role !== 'object') return;
  const { connect, disconnect } = role as { connect?: unknown; disconnect?: unknown };
  if (!Array.isArray(connect)) return issue(['role', 'connect'], 'role.connect is a required field');
  if (!connect.every((item) => typeof item === 'object' && item !== null && ['string', 'number'].includes(typeof (item as { id?: unknown }).id))) {
    return issue(['role', 'connect'], 'role.connect must hold objects with an id');
  }
  if (mode === 'create' && connect.length === 0) return issue(['role', 'connect'], 'Users must have a role');
  if (mode === 'update') {
    if (!Array.isArray(disconnect)) return issue(['role', 'disconnect'], 'role.disconnect is a required field');
    if (connect.length === 0 && disconnect.length > 0) issue(['role', 'disconnect'], 'Cannot remove role');
  }
}
