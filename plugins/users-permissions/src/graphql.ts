/**
 * The plugin's part of the GraphQL schema, when the GraphQL plugin is on,
 * contributed through its extension service (never its internals), with
 * Strapi v4's types, arguments and nullability:
 *   - the account operations — `me`, `login`, `register`, `changePassword`,
 *     `forgotPassword`, `resetPassword`, `emailConfirmation` — calling the
 *     same auth service as the REST routes (same validation, errors, emails),
 *     and counted against the same rate-limit counters as those routes;
 *   - user and role mutations through the user and role services, as REST's
 *     `/users` and `/users-permissions/roles` (shadow CRUD would write the rows
 *     directly: no password hashing, no privileged-field rule, no permission tree);
 *   - what shadow CRUD must leave out: permissions are no type of their own in
 *     Strapi v4's schema (they change through roles), so no query or mutation
 *     reaches `up_permissions` directly.
 */
import type Koa from 'koa';
import { Caller, type App, type Entity } from '@tessera/core';
import { signedInUserId } from './signed-in';
import { ApplicationError, ForbiddenError, ValidationError } from '@tessera/errors';
import type { GraphQLContext } from '@tessera/plugin-graphql';
import { PERMISSION_UID, ROLE_UID, USER_UID } from './content-types';
import { routes } from './routes/content-api';
import type { AuthResult, AuthService } from './services/auth';
import type { RoleService } from './services/role';
import type { UserService } from './services/user';

type Row = Record<string, unknown>;
type Resolver = (parent: unknown, args: Row, context: GraphQLContext) => unknown;

export interface GraphqlDependencies {
  auth: () => AuthService;
  users: () => UserService;
  roles: () => RoleService;
  issueJwt: (payload: { id: number }) => string;
  /** Counts a request against the `/auth/*` rate limit under `key` (throws RateLimitError beyond it). */
  countRequest: (ctx: Koa.Context, key: string) => Promise<void>;
}

// Descriptions are Strapi's: clients see them through introspection.
const TYPE_DEFS = `
  input UsersPermissionsLoginInput { identifier: String!, password: String!, provider: String! = "local" }
  input UsersPermissionsRegisterInput { email: String!, password: String!, username: String! }
  type UsersPermissionsMeRole { description: String, id: ID!, name: String!, type: String }
  type UsersPermissionsMe { blocked: Boolean, confirmed: Boolean, email: String, id: ID!, role: UsersPermissionsMeRole, username: String! }
  type UsersPermissionsLoginPayload { jwt: String, user: UsersPermissionsMe! }
  type UsersPermissionsPasswordPayload { ok: Boolean! }
  type UsersPermissionsCreateRolePayload { ok: Boolean! }
  type UsersPermissionsUpdateRolePayload { ok: Boolean! }
  type UsersPermissionsDeleteRolePayload { ok: Boolean! }
  extend type Query { me: UsersPermissionsMe }
  extend type Mutation {
    login(input: UsersPermissionsLoginInput!): UsersPermissionsLoginPayload!
    "Register a user"
    register(input: UsersPermissionsRegisterInput!): UsersPermissionsLoginPayload!
    "Change user password. Confirm with the current password."
    changePassword(currentPassword: String!, password: String!, passwordConfirmation: String!): UsersPermissionsLoginPayload
    "Request a reset password token"
    forgotPassword(email: String!): UsersPermissionsPasswordPayload
    "Reset user password. Confirm with a code (resetToken from forgotPassword)"
    resetPassword(code: String!, password: String!, passwordConfirmation: String!): UsersPermissionsLoginPayload
    "Confirm an email users email address"
    emailConfirmation(confirmation: String!): UsersPermissionsLoginPayload
    "Create a new role"
    createUsersPermissionsRole(data: UsersPermissionsRoleInput!): UsersPermissionsCreateRolePayload
    "Update an existing role"
    updateUsersPermissionsRole(data: UsersPermissionsRoleInput!, id: ID!): UsersPermissionsUpdateRolePayload
    "Delete an existing role"
    deleteUsersPermissionsRole(id: ID!): UsersPermissionsDeleteRolePayload
    "Create a new user"
    createUsersPermissionsUser(data: UsersPermissionsUserInput!): UsersPermissionsUserEntityResponse!
    "Update an existing user"
    updateUsersPermissionsUser(data: UsersPermissionsUserInput!, id: ID!): UsersPermissionsUserEntityResponse!
    "Delete an existing user"
    deleteUsersPermissionsUser(id: ID!): UsersPermissionsUserEntityResponse!
  }
`;

const OPEN = { auth: false as const };
const scope = (action: string) => ({ auth: { scope: [`plugin::users-permissions.${action}`] } });
const OK = { ok: true };

export function registerGraphql(app: App, deps: GraphqlDependencies): void {
  const extension = app.plugin('graphql')?.service('extension');
  if (!extension) return;
  extension.shadowCRUD(PERMISSION_UID).disableQueries().disableMutations();
  // Replaced below by mutations that go through the services.
  extension.shadowCRUD(USER_UID).disableMutations();
  extension.shadowCRUD(ROLE_UID).disableMutations();
  // The schema lists private attributes in inputs and filters, as Strapi does; a user's secrets stay out of them
  // (Strapi lists them too): the password is write-only (kept in UsersPermissionsUserInput), the codes are the server's.
  extension.shadowCRUD(USER_UID).field('password').disableFilters();
  // Tessera's passwordChangedAt (JWTs issued before it are refused) is no Strapi field: out of the schema, as the codes are.
  for (const secret of ['resetPasswordToken', 'confirmationToken', 'passwordChangedAt']) extension.shadowCRUD(USER_UID).field(secret).disable();
  const resolvers: Record<string, Record<string, Resolver>> = {
    Query: {
      // No user behind an API token: REST's `me` answers Strapi's 401; GraphQL's keeps its FORBIDDEN
      // (Strapi 4.26.2 throws a bare Error there, "Authentication requested", as INTERNAL_SERVER_ERROR).
      me: (_parent, _args, context) => {
        const caller = Caller.of(context.state.auth);
        if (signedInUserId(caller) === undefined) throw new ForbiddenError();
        return deps.auth().me(caller);
      },
    },
    Mutation: { ...accountMutations(deps), ...roleMutations(deps), ...userMutations(deps) },
    UsersPermissionsMe: { role: (user) => roleOf(user as Row, deps) },
  };
  extension.use({
    typeDefs: TYPE_DEFS,
    resolvers,
    resolversConfig: {
      // Strapi's scopes: the actions of the REST routes doing the same.
      'Query.me': scope('user.me'),
      'Mutation.login': OPEN,
      'Mutation.register': OPEN,
      'Mutation.forgotPassword': OPEN,
      'Mutation.resetPassword': OPEN,
      'Mutation.emailConfirmation': OPEN,
      'Mutation.changePassword': scope('auth.changePassword'),
      'Mutation.createUsersPermissionsRole': scope('role.createRole'),
      'Mutation.updateUsersPermissionsRole': scope('role.updateRole'),
      'Mutation.deleteUsersPermissionsRole': scope('role.deleteRole'),
      'Mutation.createUsersPermissionsUser': scope('user.create'),
      'Mutation.updateUsersPermissionsUser': scope('user.update'),
      'Mutation.deleteUsersPermissionsUser': scope('user.destroy'),
    },
  });
}

function accountMutations(deps: GraphqlDependencies): Record<string, Resolver> {
  // Each counts against its REST route's counter: a client gets one budget per flow, whichever transport it
  // uses. Every field counts, so aliases (`a: login(...) b: login(...)`) spend it one by one.
  const limited = <T>(handler: string, run: (args: Row, context: GraphQLContext) => Promise<T>): Resolver => {
    const key = restRouteKey(handler);
    return async (_parent, args, context) => {
      await deps.countRequest(context.koaContext, key);
      return run(plainObject(args), context);
    };
  };
  return {
    login: limited('auth.callback', ({ input }) => login(deps, input)),
    register: limited('auth.register', ({ input }) => deps.auth().register(plainObject(input))),
    changePassword: limited('auth.changePassword', (args, context) => deps.auth().changePassword(Caller.of(context.state.auth), args)),
    forgotPassword: limited('auth.forgotPassword', (args) => deps.auth().forgotPassword(args)),
    resetPassword: limited('auth.resetPassword', (args) => deps.auth().resetPassword(args)),
    emailConfirmation: limited('auth.emailConfirmation', ({ confirmation }) => confirmEmail(deps, confirmation)),
  };
}

function roleMutations(deps: GraphqlDependencies): Record<string, Resolver> {
  return {
    createUsersPermissionsRole: async (_parent, { data }) => {
      await deps.roles().create(roleInput(data));
      return OK;
    },
    updateUsersPermissionsRole: async (_parent, { id, data }) => {
      await deps.roles().update(id, roleInput(data));
      return OK;
    },
    deleteUsersPermissionsRole: async (_parent, { id }) => {
      await deps.roles().delete(id);
      return OK;
    },
  };
}

function userMutations(deps: GraphqlDependencies): Record<string, Resolver> {
  const entityResponse = (user: Entity) => ({ data: user });
  return {
    createUsersPermissionsUser: async (_parent, { data }, context) => entityResponse(await deps.users().create(Caller.of(context.state.auth), plainObject(data))),
    updateUsersPermissionsUser: async (_parent, { id, data }, context) => entityResponse(await deps.users().update(Caller.of(context.state.auth), id, plainObject(data))),
    deleteUsersPermissionsUser: async (_parent, { id }, context) => entityResponse(await deps.users().delete(Caller.of(context.state.auth), id)),
  };
}

/** Only the local provider exists (no OAuth): another one is disabled, as Strapi answers for a provider not turned on. */
async function login(deps: GraphqlDependencies, input: unknown): Promise<AuthResult> {
  const { provider, ...credentials } = plainObject(input);
  if (provider !== 'local') throw new ApplicationError('This provider is disabled');
  return deps.auth().login(credentials);
}

/** As Strapi's GraphQL answers a confirmation: the user, logged in (a blocked user gets no token). */
async function confirmEmail(deps: GraphqlDependencies, confirmation: unknown): Promise<AuthResult> {
  const user = await deps.auth().emailConfirmation(confirmation);
  return { jwt: user.blocked === true ? undefined : deps.issueJwt({ id: user.id }), user };
}

/**
 * A role's name, description and type. `permissions` and `users` are in Strapi's input type as id lists, but
 * permissions are a tree of actions (PUT /api/users-permissions/roles/:id) and a user's role is set on the user:
 * refused rather than half-applied.
 */
function roleInput(data: unknown): Row {
  const input = plainObject(data);
  const refused = ['permissions', 'users'].filter((key) => input[key] !== undefined && input[key] !== null);
  if (refused.length > 0) throw new ValidationError(`Invalid parameters: ${refused.join(', ')}`);
  const { permissions: _permissions, users: _users, createdAt: _createdAt, updatedAt: _updatedAt, ...rest } = input;
  return rest;
}

/** `POST /api/auth/local` for `auth.callback`: the key the REST rate limit counts that route under (content-API routes mount at /api). */
function restRouteKey(handler: string): string {
  const route = routes.find((candidate) => candidate.handler === handler);
  if (!route) throw new Error(`users-permissions: no route for ${handler}`);
  return `${route.method} /api${route.config?.prefix ?? ''}${route.path}`;
}

/** GraphQL hands arguments as null-prototype objects; the services take plain ones. */
function plainObject(value: unknown): Row {
  return typeof value === 'object' && value !== null ? { ...(value as Row) } : {};
}

/** The user's role: the one already on the object, else read (login answers carry none). */
async function roleOf(user: Row, deps: GraphqlDependencies): Promise<Row | null> {
  if (user.role && typeof user.role === 'object') return user.role as Row;
  return typeof user.id === 'number' ? deps.users().roleOf(user.id) : null;
}
