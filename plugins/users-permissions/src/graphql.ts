/**
 * The plugin's part of the GraphQL schema, when the GraphQL plugin is on,
 * contributed through its extension service (never its internals):
 *   - Strapi v4's account operations — `me`, `login`, `register`,
 *     `changePassword`, `forgotPassword`, `resetPassword`,
 *     `emailConfirmation` — calling the same auth service as the REST routes
 *     (same validation, errors, emails and rate limit);
 *   - what shadow CRUD must leave out: permissions are no type of their own in
 *     Strapi v4's schema (they change through roles), so no query or mutation
 *     reaches `up_permissions` directly.
 */
import type Koa from 'koa';
import type { App, AuthState } from '@tessera/core';
import { PERMISSION_UID } from './content-types';
import type { AuthResult, AuthService } from './services/auth';

type Row = Record<string, unknown>;

/** The part of `strapi.plugin('graphql').service('extension')` used here (no import of the plugin's code). */
interface GraphqlExtension {
  shadowCRUD(uid: string): { disableQueries(): { disableMutations(): unknown } };
  use(extension: {
    typeDefs: string;
    resolvers: Record<string, Record<string, (parent: unknown, args: Row, context: ResolverContext) => unknown>>;
    resolversConfig: Record<string, { auth?: false | { scope: string[] } }>;
  }): unknown;
}

interface ResolverContext {
  state: { auth: AuthState };
  koaContext: Koa.Context;
}

export interface GraphqlDependencies {
  auth: () => AuthService;
  /** Counts a request against the `/auth/*` rate limit (throws RateLimitError beyond it). */
  countRequest: (ctx: Koa.Context, operation: string) => Promise<void>;
  /** The role of a user (id, name, description, type), read for `UsersPermissionsMe.role`. */
  roleOf: (userId: number) => Promise<Row | null>;
}

const TYPE_DEFS = `
  input UsersPermissionsLoginInput { identifier: String!, password: String!, provider: String! = "local" }
  input UsersPermissionsRegisterInput { email: String!, password: String!, username: String! }
  type UsersPermissionsMeRole { description: String, id: ID!, name: String!, type: String }
  type UsersPermissionsMe { blocked: Boolean, confirmed: Boolean, email: String, id: ID!, role: UsersPermissionsMeRole, username: String! }
  type UsersPermissionsLoginPayload { jwt: String, user: UsersPermissionsMe! }
  type UsersPermissionsPasswordPayload { ok: Boolean! }
  extend type Query { me: UsersPermissionsMe }
  extend type Mutation {
    login(input: UsersPermissionsLoginInput!): UsersPermissionsLoginPayload!
    register(input: UsersPermissionsRegisterInput!): UsersPermissionsLoginPayload!
    changePassword(currentPassword: String!, password: String!, passwordConfirmation: String!): UsersPermissionsLoginPayload
    forgotPassword(email: String!): UsersPermissionsPasswordPayload
    resetPassword(code: String!, password: String!, passwordConfirmation: String!): UsersPermissionsLoginPayload
    emailConfirmation(confirmation: String!): UsersPermissionsLoginPayload
  }
`;

const OPEN = { auth: false as const };

export function registerGraphql(app: App, deps: GraphqlDependencies): void {
  if (!app.plugins.has('graphql')) return;
  const extension = app.plugin('graphql').service<GraphqlExtension>('extension');
  extension.shadowCRUD(PERMISSION_UID).disableQueries().disableMutations();
  // Open operations count against the same rate limit as their REST routes, under their own name.
  const limited = <T>(operation: string, run: (args: Row, context: ResolverContext) => Promise<T>) => async (_parent: unknown, args: Row, context: ResolverContext) => {
    await deps.countRequest(context.koaContext, `graphql ${operation}`);
    return run(args, context);
  };
  extension.use({
    typeDefs: TYPE_DEFS,
    resolvers: {
      Query: {
        me: (_parent, _args, context) => deps.auth().me(context.state.auth),
      },
      Mutation: {
        login: limited('login', ({ input }) => deps.auth().login(input)),
        register: limited('register', ({ input }) => deps.auth().register(input)),
        changePassword: limited('changePassword', (args, context) => deps.auth().changePassword(context.state.auth, args)),
        forgotPassword: limited('forgotPassword', (args) => deps.auth().forgotPassword(args)),
        resetPassword: limited('resetPassword', (args) => deps.auth().resetPassword(args)),
        emailConfirmation: limited('emailConfirmation', async ({ confirmation }): Promise<AuthResult> => ({ user: await deps.auth().emailConfirmation(confirmation) })),
      },
      UsersPermissionsMe: {
        role: (user) => roleOf(user as Row, deps),
      },
    },
    resolversConfig: {
      'Query.me': { auth: { scope: ['plugin::users-permissions.user.me'] } },
      'Mutation.login': OPEN,
      'Mutation.register': OPEN,
      'Mutation.forgotPassword': OPEN,
      'Mutation.resetPassword': OPEN,
      'Mutation.emailConfirmation': OPEN,
      'Mutation.changePassword': { auth: { scope: ['plugin::users-permissions.auth.changePassword'] } },
    },
  });
}

/** The user's role: the one already on the object, else read (login answers carry none). */
async function roleOf(user: Row, deps: GraphqlDependencies): Promise<Row | null> {
  if (user.role && typeof user.role === 'object') return user.role as Row;
  return typeof user.id === 'number' ? deps.roleOf(user.id) : null;
}
