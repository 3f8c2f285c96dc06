/**
 * The users-permissions plugin in Strapi v4's server format: users, roles
 * and permissions in Strapi's `up_*` tables, JWT login/register, the
 * account email flows, `/users` and `/users-permissions/roles`. It is the
 * kernel's permission provider (the public role, from the database) and adds
 * a JWT auth strategy after API tokens.
 *
 * Its state in an app — JWT secret, caches, rate-limit counters, mailer — is
 * one object per app (state.ts, the kernel's `pluginState` pattern); the
 * default export is the function form the kernel calls once per app.
 */
import type { App, KernelContext, Plugin, PluginServer } from '@tessera/core';
import { defaultConfig, validateConfig, type UsersPermissionsConfig } from './config';
import { writeAdvancedSettings } from './settings/advanced';
import { writeEmailTemplates } from './settings/email-templates';
import { writeGrantSettings } from './settings/grant';
import { contentTypes, USER_UID } from './content-types';
import { authController, roleController, userController } from './controllers';
import { adminPermissionsController, settingsController } from './controllers/settings';
import { connectActions } from './controllers/connect';
import { passwordChangedAtOf } from './password-change';
import { contentManagerUserController } from './controllers/content-manager-user';
import { RATE_LIMIT_TABLE } from './database-rate-limit-store';
import { registerGraphql } from './graphql';
import { countRequest, rateLimitMiddleware } from './rate-limit';
import { defaultAdditions } from './register-fields';
import { routes } from './routes/content-api';
import { adminRoutes } from './routes/admin';
import type { UsersPermissionsServices } from './contract';
import { createAuthService } from './services/auth';
import type { EmailService } from './services/email';
import type { JwtService } from './services/jwt';
import { createPermissionService } from './services/permission';
import { createPermissionsService } from './services/users-permissions';
import { createProvidersRegistry, createProvidersService } from './services/providers';
import { createRoleService } from './services/role';
import { createUserService } from './services/user';
import { jwtStrategy } from './strategy';
import { stateOf } from './state';

/** Another plugin's service of this plugin, reached through the app as Strapi code reaches it (extensions may have replaced it). */
const serviceOf = <S extends keyof UsersPermissionsServices>(app: App, name: S) => () => app.plugin('users-permissions')!.service(name);

/**
 * A definition of the plugin. Its state in an app (JWT secret, caches, rate-limit counters, mailer) is the
 * `UsersPermissionsState` of that app (state.ts), made at register: every definition serves every app.
 */
export function createUsersPermissionsPlugin(): Plugin {
  const server: PluginServer = {
    config: { default: defaultConfig, validator: validateConfig },
    contentTypes,
    services: {
      jwt: ({ app }: KernelContext) => {
        const { jwt } = stateOf(app);
        return {
          issue: (payload: { id: number }, options?: Parameters<JwtService['issue']>[1]) => jwt.issue(payload, typeof options === 'object' ? options : undefined),
          verify: (token: string) => jwt.verify(token),
          getToken: (ctx: Parameters<JwtService['getToken']>[0]) => jwt.getToken(ctx),
        };
      },
      user: ({ app }: KernelContext) => createUserService(app, () => stateOf(app).advanced()),
      role: ({ app }: KernelContext) => createRoleService(app),
      auth: ({ app }: KernelContext) => {
        const state = stateOf(app);
        return createAuthService({
          app,
          config: () => state.config(),
          advanced: () => state.advanced(),
          users: serviceOf(app, 'user'),
          jwt: () => state.jwt,
          email: () => state.email(),
          background: (work) => state.background(work),
        });
      },
      'users-permissions': ({ app }: KernelContext) => createPermissionsService(app, stateOf(app).abilities),
      permission: ({ app }: KernelContext) => createPermissionService(app),
      providers: ({ app }: KernelContext) =>
        createProvidersService({ app, registry: serviceOf(app, 'providers-registry'), users: serviceOf(app, 'user'), advanced: () => stateOf(app).advanced() }),
      'providers-registry': ({ app }: KernelContext) => createProvidersRegistry(app),
      email: ({ app }: KernelContext) => ({ send: (message: Parameters<EmailService['send']>[0]) => stateOf(app).email().send(message) }),
    },
    controllers: {
      auth: ({ app }: KernelContext) => {
        const state = stateOf(app);
        const users = serviceOf(app, 'user');
        const thirdParty = connectActions({
          app,
          config: () => state.config(),
          providers: serviceOf(app, 'providers'),
          // As the password login answers: the token names the password it was issued under (password-change.ts).
          signedIn: (user) => ({ jwt: state.jwt.issue({ id: user.id }, passwordChangedAtOf(user.passwordChangedAt)), user: users().sanitize(user) }),
          sessionKey: () => state.grantSessionKey,
        });
        return authController(serviceOf(app, 'auth'), app, () => state.advanced(), thirdParty);
      },
      user: ({ app }: KernelContext) => userController(serviceOf(app, 'user')),
      role: ({ app }: KernelContext) => roleController(serviceOf(app, 'role')),
      permissions: ({ app }: KernelContext) => adminPermissionsController(app, serviceOf(app, 'role')),
      // The content manager's create and update of a user (config `layout.user.actions`).
      contentManagerUser: ({ app }: KernelContext) => contentManagerUserController(serviceOf(app, 'user')),
      settings: ({ app }: KernelContext) => settingsController(app, serviceOf(app, 'role'), serviceOf(app, 'providers'), () => stateOf(app).settings.invalidate()),
    },
    middlewares: {
      rateLimit: (_config, { app }) => {
        const state = stateOf(app);
        return rateLimitMiddleware(state.config().ratelimit, state.rateLimitStore());
      },
    },
    // Served with Strapi's admin; an API-only app (no admin) has none (the kernel's route table).
    routes: { 'content-api': { type: 'content-api', routes }, admin: { type: 'admin', routes: adminRoutes } },

    register({ app }) {
      const state = stateOf(app);
      app.permissions.use(state.abilities);
      // The default store's counters live in the app's database: the schema sync creates their table.
      app.tables.add(RATE_LIMIT_TABLE.name, RATE_LIMIT_TABLE);
    },

    async bootstrap({ app: current }) {
      const state = stateOf(current);
      const { abilities } = state;
      const roles = serviceOf(current, 'role');
      state.abilities.watchWrites();
      state.settings.watchWrites();
      warnRegisterAdditions(current, state.config());
      registerGraphql(current, {
        auth: serviceOf(current, 'auth'),
        users: serviceOf(current, 'user'),
        roles,
        issueJwt: (payload) => state.jwt.issue(payload),
        countRequest: (ctx, key) => countRequest(state.config().ratelimit, state.rateLimitStore(), ctx, key),
      });
      await roles().initialize();
      // Strapi's settings rows, written at the first boot (the config's values as defaults); the grant row at each boot.
      await writeGrantSettings(current, current.plugin('users-permissions')!.service('providers-registry'));
      await writeEmailTemplates(current, state.config().email.from);
      await writeAdvancedSettings(current, state.config().advanced, defaultConfig.advanced);
      // Added after the kernel's API-token strategy: a bearer token is an API token first, then a JWT.
      current.authStrategies.add('users-permissions', jwtStrategy({ jwt: () => state.jwt, users: serviceOf(current, 'user'), abilities, requireConfirmed: async () => (await state.advanced()).emailConfirmation }));
    },

    destroy({ app }) {
      return stateOf(app).close();
    },
  };
  // After graphql's register, when it is on: bootstrap adds to its schema.
  return { ...server, name: 'users-permissions', optionalDependencies: ['graphql', 'email'] };
}

/** As Strapi 4.26 warns: without `register.allowedFields`, register accepts the user attributes an app added. */
function warnRegisterAdditions(app: App, settings: UsersPermissionsConfig): void {
  if (Array.isArray(settings.register.allowedFields)) return;
  const additions = defaultAdditions(app.contentTypes.get(USER_UID).attributes);
  if (additions.length > 0) {
    app.log.warn(`Users-permissions registration has defaulted to accepting the following additional user fields during registration: ${additions.join(',')}`);
  }
}

export default function usersPermissions(_context: KernelContext): Plugin {
  return createUsersPermissionsPlugin();
}

export { MemoryRateLimitStore, type RateLimitStore, type RateLimitHit } from './rate-limit';
export { DatabaseRateLimitStore } from './database-rate-limit-store';
export type { AuthService, AuthResult } from './services/auth';
export type { UserService } from './services/user';
export type { RoleService, PermissionTree } from './services/role';
export type { JwtService } from './services/jwt';
export type { EmailService, MailMessage } from './services/email';
export type { UsersPermissionsConfig } from './config';
export { USER_UID, ROLE_UID, PERMISSION_UID } from './content-types';
export type { UsersPermissionsServices, PermissionsService } from './contract';
