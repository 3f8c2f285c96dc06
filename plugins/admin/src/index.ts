/**
 * Strapi v4's admin on Tessera: the admin API the real `@strapi/admin` panel
 * calls (routes.ts: sign-in, users and invitations, password reset, API and transfer tokens, webhooks) over Strapi's admin tables, and the panel's
 * build served at `admin.url` (panel/serve.ts; built by `tessera build`,
 * panel/build.ts). On when the app depends on `@strapi/admin`
 * (core's discover-plugins), as every Strapi app does; an app without it runs
 * API-only.
 *
 * `createAdminPlugin()` makes a fresh instance: its login rate-limit counters
 * belong to one app. Admin routes are authenticated
 * by its strategy (admin-auth.ts) and guarded by its policies (policies.ts);
 * other plugins decide with the admin's ability (contract.ts). The default export is the function form the kernel calls
 * once per app.
 */
import type Koa from 'koa';
import type { KernelContext, Plugin } from '@tessera/core';
import { adminAuthStrategy, settleSecret } from './admin-auth';
import { ADMIN_CONDITIONS } from './conditions';
import { ADMIN_CONTENT_TYPES } from './content-types';
import { servePanel } from './panel/serve';
import { strapiAdminServices } from './strapi-services';
import * as projectInfo from './project-info';
import { updateProjectSettings } from './project-settings';
import { LoginRateLimit, loginRateLimit } from './rate-limit';
import { passwordResetHandlers } from './password-reset';
import { registerActions, syncPermissions } from './permissions/sync';
import { checkPermissionPolicies, hasPermissions, HAS_PERMISSIONS, isAuthenticatedAdmin, IS_AUTHENTICATED_ADMIN } from './policies';
import { checkPermissions } from './permissions/check';
import { registrationHandlers } from './registration';
import { roleHandlers } from './roles/handlers';
import { ADMIN_ROUTES, RATE_LIMIT } from './routes';
import { signInHandlers } from './sign-in';
import { userHandlers } from './user-handlers';
import { apiTokenController, contentApiController } from './api-tokens/controller';
import { DATA_TRANSFER } from './api-tokens/routes';
import { registerTransferActions } from './transfer-tokens/actions';
import { dataTransferAvailability } from './transfer-tokens/availability';
import { TRANSFER_TOKEN_CONTENT_TYPES } from './transfer-tokens/content-types';
import { transferController } from './transfer-tokens/controller';
import { webhookController } from './webhooks/controller';

export { adminAbility, USER_ABILITY, type AdminAbility, type AdminPermission, type Filters, type Permitted, type SubjectAccess } from './contract';
export { HAS_PERMISSIONS, IS_AUTHENTICATED_ADMIN, requiredPermissions, type RequiredPermission } from './policies';
export { signedIn as adminRoute } from './routes';
export { ADMIN_CONTENT_TYPES, PERMISSION_UID, ROLE_UID, USER_UID } from './content-types';
export { AUTHOR_CODE, DEFAULT_ROLES, EDITOR_CODE, SUPER_ADMIN_CODE } from './roles';
export { buildPanel, hasAdminPackage, panelIsStale, type PanelBuildOptions, type PanelBuildResult } from './panel/build';
export { adminPanelSettings, type AdminPanelSettings } from './panel/settings';

export function createAdminPlugin(): Plugin {
  const counters = new LoginRateLimit();

  return {
    name: 'admin',
    // Password-reset mails go through the email plugin's service when the app runs it.
    optionalDependencies: ['email'],
    controllers: {
      admin: ({ app }) => ({
        init: () => projectInfo.init(app),
        getProjectType: () => projectInfo.projectType(app),
        getProjectSettings: () => projectInfo.projectSettings(app),
        updateProjectSettings: (ctx: Koa.Context) => updateProjectSettings(app, ctx),
        information: () => projectInfo.information(app),
        plugins: () => projectInfo.plugins(app),
        // Telemetry is off in Tessera: Strapi's answer when it is disabled.
        telemetryProperties: (ctx: { status: number }) => {
          ctx.status = 204;
        },
      }),
      authentication: ({ app }) => {
        const handlers = signInHandlers(app);
        const registration = registrationHandlers(app);
        const reset = passwordResetHandlers(app);
        return {
          login: handlers.login,
          renewToken: handlers.renewToken,
          registerAdmin: handlers.registerAdmin,
          logout: handlers.logout,
          registrationInfo: registration.registrationInfo,
          register: registration.register,
          forgotPassword: reset.forgotPassword,
          resetPassword: reset.resetPassword,
        };
      },
      role: ({ app }) => {
        const handlers = roleHandlers(app);
        const { findAll, findOne, create, update, deleteOne, deleteMany, getPermissions, updatePermissions } = handlers;
        return { findAll, findOne, create, update, deleteOne, deleteMany, getPermissions, updatePermissions };
      },
      permission: ({ app }) => ({ getAll: roleHandlers(app).permissions, check: checkPermissions }),
      'authenticated-user': ({ app }) => {
        const handlers = signInHandlers(app);
        return { getMe: handlers.getMe, updateMe: handlers.updateMe, getOwnPermissions: handlers.getOwnPermissions };
      },
      user: ({ app }) => userHandlers(app),
      'api-token': ({ app }) => apiTokenController(app),
      'content-api': ({ app }) => contentApiController(app),
      transfer: ({ app }) => transferController(app),
      webhooks: ({ app }) => webhookController(app),
    },
    routes: {
      admin: { type: 'admin', prefix: '/admin', routes: ADMIN_ROUTES },
    },
    register({ app }) {
      settleSecret(app);
      // Plugin code's `strapi.admin.services.user/role/token`, and the same objects as `strapi.service('admin::user')`.
      const services = strapiAdminServices(app);
      app.admin.provideServices(services);
      app.services.add('admin::user', services.user);
      app.services.add('admin::role', services.role);
      app.services.add('admin::token', services.token);
      for (const contentType of [...ADMIN_CONTENT_TYPES, ...TRANSFER_TOKEN_CONTENT_TYPES]) app.contentTypes.add(contentType.uid, structuredClone(contentType));
      app.adminAuthStrategies.add('admin', adminAuthStrategy(app));
      registerActions(app);
      registerTransferActions(app);
      // Strapi syncs after every plugin's bootstrap (they register actions there): the kernel's last boot hook.
      app.hooks.on('app:bootstrapped', () => {
        checkPermissionPolicies(app);
        return syncPermissions(app);
      });
      for (const condition of ADMIN_CONDITIONS) app.admin.services.permission.conditionProvider.register({ ...condition });
      app.policies.add(IS_AUTHENTICATED_ADMIN, isAuthenticatedAdmin);
      app.policies.add(HAS_PERMISSIONS, hasPermissions);
      app.middlewares.add(RATE_LIMIT, () => loginRateLimit(app, counters));
      app.middlewares.add(DATA_TRANSFER, () => dataTransferAvailability(app));
    },
    async bootstrap({ app }) {
      servePanel(app);
    },
  };
}

export default function admin(_context: KernelContext): Plugin {
  return createAdminPlugin();
}

