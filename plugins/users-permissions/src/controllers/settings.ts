/**
 * The admin side's settings handlers (Strapi 4.26.2's controllers/settings.js and permissions.js): the email
 * templates, the advanced settings and the providers, read from and written to the core store (../settings/*),
 * and the permissions, policies and routes the panel's role editor shows. Strapi stores what the panel sends as it
 * is; Tessera checks it first (types, sizes, a default role that exists), so a bad body is a 400 that changes nothing.
 */
import type Koa from 'koa';
import { requestBody, routeTable, type App } from '@tessera/core';
import { ValidationError } from '@tessera/errors';
import { ROLE_UID } from '../content-types';
import type { RoleService } from '../services/role';
import type { ProvidersService } from '../services/providers';
import { pluginStore, type StoredAdvancedSettings } from '../settings/advanced';
import { checkTemplates } from '../settings/email-templates';

type Action = (ctx: Koa.Context) => Promise<unknown>;

const MAX_URL = 2048;
const MAX_PROVIDERS = 100;
const MAX_PROVIDERS_JSON = 100_000;

/** Strapi's first check of every write here: `_.isEmpty(ctx.request.body)`. */
function nonEmptyBody(ctx: Koa.Context): Record<string, unknown> {
  const body = requestBody(ctx);
  if (body === null || typeof body !== 'object' || Object.keys(body).length === 0) throw new ValidationError('Request body cannot be empty');
  if (Array.isArray(body)) throw new ValidationError('The request body must be an object');
  return body as Record<string, unknown>;
}

export function settingsController(app: App, roles: () => RoleService, providers: () => ProvidersService, onAdvancedChange: () => void): Record<string, Action> {
  const store = () => pluginStore(app);
  return {
    getEmailTemplate: async () => (await store().get({ key: 'email' })) ?? {},

    async updateEmailTemplate(ctx) {
      const templates = checkTemplates(nonEmptyBody(ctx));
      await store().set({ key: 'email', value: templates });
      return { ok: true };
    },

    getAdvancedSettings: async () => ({ settings: await store().get({ key: 'advanced' }), roles: await roles().find() }),

    async updateAdvancedSettings(ctx) {
      const settings = await checkAdvanced(app, nonEmptyBody(ctx));
      await store().set({ key: 'advanced', value: settings });
      onAdvancedChange();
      return { ok: true };
    },

    async getProviders() {
      const grant = ((await store().get({ key: 'grant' })) ?? {}) as Record<string, Record<string, unknown>>;
      for (const [name, provider] of Object.entries(grant)) {
        if (name !== 'email' && provider !== null && typeof provider === 'object') provider.redirectUri = providers().buildRedirectUri(name);
      }
      return grant;
    },

    async updateProviders(ctx) {
      const value = nonEmptyBody(ctx).providers;
      const entries = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.values(value) : null;
      if (!entries || entries.length > MAX_PROVIDERS || !entries.every((entry) => entry !== null && typeof entry === 'object' && !Array.isArray(entry))) {
        throw ValidationError.forField(['providers'], 'providers must be an object of provider settings');
      }
      if (JSON.stringify(value).length > MAX_PROVIDERS_JSON) throw ValidationError.forField(['providers'], 'providers is too large');
      await store().set({ key: 'grant', value });
      return { ok: true };
    },
  };
}

/** The advanced settings' six keys, typed as the panel's form sends them; the default role must exist. */
async function checkAdvanced(app: App, body: Record<string, unknown>): Promise<StoredAdvancedSettings> {
  const flag = (key: keyof StoredAdvancedSettings): boolean => {
    if (typeof body[key] !== 'boolean') throw ValidationError.forField([key], `${key} must be a boolean`);
    return body[key] as boolean;
  };
  const url = (key: keyof StoredAdvancedSettings): string | null => {
    const value = body[key];
    if (value === undefined || value === null || value === '') return (value ?? null) as string | null;
    if (typeof value !== 'string' || value.length > MAX_URL) throw ValidationError.forField([key], `${key} must be a URL of at most ${MAX_URL} characters`);
    return value;
  };
  const defaultRole = body.default_role;
  if (typeof defaultRole !== 'string' || (await app.db.query(ROLE_UID).count({ where: { type: defaultRole } })) === 0) {
    throw ValidationError.forField(['default_role'], 'default_role must be the type of an existing role');
  }
  return {
    unique_email: flag('unique_email'),
    allow_register: flag('allow_register'),
    email_confirmation: flag('email_confirmation'),
    email_reset_password: url('email_reset_password'),
    email_confirmation_redirection: url('email_confirmation_redirection'),
    default_role: defaultRole,
  };
}

/** `GET /users-permissions/permissions`, `/policies`, `/routes`: what the role editor lists and binds. */
export function adminPermissionsController(app: App, roles: () => RoleService): Record<string, Action> {
  return {
    getPermissions: async () => ({ permissions: roles().catalogue() }),
    // Strapi lists the plugin's own policies but `permissions`; Tessera's users-permissions declares none.
    getPolicies: async () => ({ policies: [] }),
    getRoutes: async () => ({ routes: contentApiRoutes(app) }),
  };
}

/**
 * The content-API routes per namespace, as Strapi's getRoutes lists them: mounted path (under the REST prefix),
 * method, handler (an API's qualified, `api::article.article.find`; a plugin's as declared, `auth.callback`), config
 * and info. The panel shows, for an action, the routes whose handler ends with it.
 */
function contentApiRoutes(app: App): Record<string, Array<Record<string, unknown>>> {
  const grouped: Record<string, Array<Record<string, unknown>>> = {};
  for (const row of routeTable(app)) {
    if (row.info.type !== 'content-api' || typeof row.route.handler !== 'string') continue;
    const namespace = row.namespace;
    const auth = row.auth === false ? false : { scope: row.auth };
    (grouped[namespace] ??= []).push({
      method: row.method,
      path: row.path,
      handler: namespace.startsWith('api::') ? row.action : row.handler,
      config: JSON.parse(JSON.stringify({ ...(row.route.config ?? {}), auth })),
      info: row.info,
    });
  }
  return grouped;
}
