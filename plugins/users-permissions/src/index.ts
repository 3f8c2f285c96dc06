/**
 * The users-permissions plugin in Strapi v4's server format: users, roles
 * and permissions in Strapi's `up_*` tables, JWT login/register, the
 * account email flows, `/users` and `/users-permissions/roles`. It is the
 * kernel's permission provider (the public role, from the database) and adds
 * a JWT auth strategy after API tokens.
 *
 * `createUsersPermissionsPlugin()` makes a fresh instance (its state — JWT
 * secret, caches, rate-limit counters, mailer — belongs to one app); the
 * default export is the function form the kernel calls once per app.
 */
import type { App, KernelContext, Plugin, PluginServer } from '@tessera/core';
import { defaultConfig, validateConfig, type UsersPermissionsConfig } from './config';
import { AdvancedSettings, writeAdvancedSettings } from './settings/advanced';
import { writeEmailTemplates } from './settings/email-templates';
import { writeGrantSettings } from './settings/grant';
import { contentTypes, USER_UID } from './content-types';
import { authController, roleController, userController } from './controllers';
import { adminPermissionsController, settingsController } from './controllers/settings';
import { DatabaseRateLimitStore, RATE_LIMIT_TABLE } from './database-rate-limit-store';
import { registerGraphql } from './graphql';
import { countRequest, rateLimitMiddleware, type RateLimitStore } from './rate-limit';
import { defaultAdditions } from './register-fields';
import { routes } from './routes/content-api';
import { adminRoutes } from './routes/admin';
import { resolveJwtSecret } from './secret';
import { RoleAbilities } from './services/abilities';
import type { UsersPermissionsServices } from './contract';
import { createAuthService } from './services/auth';
import { createEmailService, type EmailService } from './services/email';
import { createJwtService, type JwtService } from './services/jwt';
import { createPermissionService } from './services/permission';
import { createPermissionsService } from './services/users-permissions';
import { createProvidersRegistry, createProvidersService } from './services/providers';
import { createRoleService } from './services/role';
import { createUserService } from './services/user';
import { jwtStrategy } from './strategy';

export interface UsersPermissionsOptions {
  /** Where rate-limit counters live (default: the app's database, shared by every process; `ratelimit.store` in the config wins). */
  rateLimitStore?: RateLimitStore;
}

/** The instance that registered in each app: its services hold that app's state (strapi-server.ts answers them). */
const registeredInstances = new WeakMap<App, Plugin>();

export function registeredInstance(app: App): Plugin | undefined {
  return registeredInstances.get(app);
}

export function createUsersPermissionsPlugin(options: UsersPermissionsOptions = {}): Plugin {
  let app: App | undefined;
  let jwt: JwtService | undefined;
  let abilities: RoleAbilities | undefined;
  let email: EmailService | undefined;
  let settings: AdvancedSettings | undefined;
  const pending = new Set<Promise<void>>();
  const store = options.rateLimitStore ?? new DatabaseRateLimitStore(() => theApp());

  const theApp = (): App => {
    if (!app) throw new Error('users-permissions is used before it registered');
    return app;
  };
  const config = () => theApp().config.get<UsersPermissionsConfig>('plugin.users-permissions');
  const service = <S extends keyof UsersPermissionsServices>(name: S) => () => theApp().plugin('users-permissions')!.service(name);
  const users = service('user');
  const roles = service('role');
  const auth = service('auth');
  const providers = service('providers');
  /** The advanced settings as stored (the panel's Advanced settings page), cached until a write to the store. */
  const advanced = () => {
    if (!settings) throw new Error('users-permissions is used before it registered');
    return settings.read();
  };
  const jwtService = () => {
    if (!jwt) throw new Error('users-permissions: no JWT secret yet (the plugin has not registered)');
    return jwt;
  };
  // The email plugin's service when the app runs it (Strapi's users-permissions mails through it).
  const emailService = () => (email ??= createEmailService(config().email, theApp().log, theApp().plugin('email')?.service('email')));
  /** Work done after the answer (mail); failures are logged, and destroy waits for it. */
  const background = (work: () => Promise<void>) => {
    const task = work()
      .catch((error) => theApp().log.error('users-permissions: background work failed', error))
      .finally(() => pending.delete(task));
    pending.add(task);
  };

  const rateLimitStore = (): RateLimitStore => (config().ratelimit.store as RateLimitStore | undefined) ?? store;

  const server: PluginServer = {
    config: { default: defaultConfig, validator: validateConfig },
    contentTypes,
    services: {
      jwt: () => ({
        issue: (payload: { id: number }, options?: Parameters<JwtService['issue']>[1]) => jwtService().issue(payload, typeof options === 'object' ? options : undefined),
        verify: (token: string) => jwtService().verify(token),
        getToken: (ctx: Parameters<JwtService['getToken']>[0]) => jwtService().getToken(ctx),
      }),
      user: ({ app: current }: KernelContext) => createUserService(current, advanced),
      role: ({ app: current }: KernelContext) => createRoleService(current),
      auth: ({ app: current }: KernelContext) => createAuthService({ app: current, config, advanced, users, jwt: jwtService, email: emailService, background }),
      'users-permissions': ({ app: current }: KernelContext) => createPermissionsService(current, () => abilities),
      permission: ({ app: current }: KernelContext) => createPermissionService(current),
      providers: ({ app: current }: KernelContext) => createProvidersService(current),
      'providers-registry': ({ app: current }: KernelContext) => createProvidersRegistry(current),
      email: () => ({ send: (message: Parameters<EmailService['send']>[0]) => emailService().send(message) }),
    },
    controllers: {
      auth: ({ app: current }: KernelContext) => authController(auth, current, advanced),
      user: () => userController(users),
      role: () => roleController(roles),
      permissions: ({ app: current }: KernelContext) => adminPermissionsController(current, roles),
      settings: ({ app: current }: KernelContext) => settingsController(current, roles, providers, () => settings?.invalidate()),
    },
    middlewares: {
      rateLimit: () => rateLimitMiddleware(config().ratelimit, rateLimitStore()),
    },
    // Served with Strapi's admin; an API-only app (no admin) has none (the kernel's route table).
    routes: { 'content-api': { type: 'content-api', routes }, admin: { type: 'admin', routes: adminRoutes } },

    register({ app: current }) {
      app = current;
      const configured = config();
      jwt = createJwtService(resolveJwtSecret({ appDir: current.dir, configured: configured.jwtSecret, env: process.env, log: current.log }), configured.jwt.expiresIn);
      abilities = new RoleAbilities(current, () => config().permissionsCacheTtl);
      settings = new AdvancedSettings(current, () => config().advanced, () => config().permissionsCacheTtl);
      current.permissions.use(abilities);
      // The default store's counters live in the app's database: the schema sync creates their table.
      if (!options.rateLimitStore) current.tables.add(RATE_LIMIT_TABLE.name, RATE_LIMIT_TABLE);
    },

    async bootstrap({ app: current }) {
      abilities!.watchWrites();
      settings!.watchWrites();
      warnRegisterAdditions(current, config());
      registerGraphql(current, {
        auth,
        users,
        roles,
        issueJwt: (payload) => jwtService().issue(payload),
        countRequest: (ctx, key) => countRequest(config().ratelimit, rateLimitStore(), ctx, key),
      });
      await roles().initialize();
      // Strapi's settings rows, written at the first boot (the config's values as defaults); the grant row at each boot.
      await writeGrantSettings(current, current.plugin('users-permissions')!.service('providers-registry'));
      await writeEmailTemplates(current, config().email.from);
      await writeAdvancedSettings(current, config().advanced, defaultConfig.advanced);
      // Added after the kernel's API-token strategy: a bearer token is an API token first, then a JWT.
      current.authStrategies.add('users-permissions', jwtStrategy({ jwt: jwtService, users, abilities: abilities!, requireConfirmed: async () => (await advanced()).emailConfirmation }));
    },

    async destroy() {
      await Promise.allSettled([...pending]);
      email?.close();
    },
  };
  // After graphql's register, when it is on: bootstrap adds to its schema.
  const plugin: Plugin = {
    ...server,
    name: 'users-permissions',
    optionalDependencies: ['graphql', 'email'],
    register(context) {
      registeredInstances.set(context.app, plugin);
      return server.register!(context);
    },
  };
  return plugin;
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
