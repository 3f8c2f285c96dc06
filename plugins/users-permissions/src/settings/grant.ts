/**
 * The sign-in providers' settings (Settings → Users & Permissions → Providers), kept where Strapi v4 keeps them: the
 * core-store row `plugin_users-permissions_grant`, `{ <provider>: { icon, enabled, key, secret, callback…, scope } }`.
 * At each boot, as Strapi's bootstrap does, the row is made from the providers' registry, what an administrator set
 * for a provider kept over the registry's defaults. `/api/connect/:provider` and the sign-in routes read it
 * (../providers.ts, ../controllers/connect.ts).
 */
import type { App } from '@tessera/core';
import { pluginStore } from './advanced';

type GrantDefaults = (base: string) => Record<string, unknown>;

/** Strapi 4.26.2's providers' grant settings (services/providers-registry.js), as recorded on the peer. */
export const STRAPI_GRANT_CONFIG: Record<string, GrantDefaults> = {
  email: () => ({}),
  discord: (base) => ({ key: '', secret: '', callbackUrl: `${base}/discord/callback`, scope: ['identify', 'email'] }),
  facebook: (base) => ({ key: '', secret: '', callbackUrl: `${base}/facebook/callback`, scope: ['email'] }),
  google: (base) => ({ key: '', secret: '', callbackUrl: `${base}/google/callback`, scope: ['email'] }),
  github: (base) => ({ key: '', secret: '', callbackUrl: `${base}/github/callback`, scope: ['user', 'user:email'] }),
  microsoft: (base) => ({ key: '', secret: '', callbackUrl: `${base}/microsoft/callback`, scope: ['user.read'] }),
  twitter: (base) => ({ key: '', secret: '', callbackUrl: `${base}/twitter/callback` }),
  instagram: (base) => ({ key: '', secret: '', callbackUrl: `${base}/instagram/callback`, scope: ['user_profile'] }),
  vk: (base) => ({ key: '', secret: '', callbackUrl: `${base}/vk/callback`, scope: ['email'] }),
  twitch: (base) => ({ key: '', secret: '', callbackUrl: `${base}/twitch/callback`, scope: ['user:read:email'] }),
  linkedin: (base) => ({ key: '', secret: '', callbackUrl: `${base}/linkedin/callback`, scope: ['r_liteprofile', 'r_emailaddress'] }),
  cognito: (base) => ({ key: '', secret: '', subdomain: 'my.subdomain.com', callback: `${base}/cognito/callback`, scope: ['email', 'openid', 'profile'] }),
  reddit: (base) => ({ key: '', secret: '', callback: `${base}/reddit/callback`, scope: ['identity'] }),
  auth0: (base) => ({ key: '', secret: '', subdomain: 'my-tenant.eu', callback: `${base}/auth0/callback`, scope: ['openid', 'email', 'profile'] }),
  cas: (base) => ({ key: '', secret: '', callback: `${base}/cas/callback`, scope: ['openid email'], subdomain: 'my.subdomain.com/cas' }),
  patreon: (base) => ({ key: '', secret: '', callback: `${base}/patreon/callback`, scope: ['identity', 'identity[email]'] }),
  keycloak: (base) => ({ key: '', secret: '', subdomain: 'myKeycloakProvider.com/realms/myrealm', callback: `${base}/keycloak/callback`, scope: ['openid', 'email', 'profile'] }),
};

/** Strapi's `urljoin(server.url, api.rest.prefix, 'auth')`: `api/auth` when no public URL is configured. */
export function grantBaseUrl(app: App): string {
  const parts = [app.config.get<string>('server.url', ''), app.config.get<string>('api.rest.prefix', '/api'), 'auth'].filter((part) => part !== '');
  return parts.map((part, index) => (index === 0 ? part.replace(/(?<!\/)\/+$/, '') : part.replace(/^\/+|(?<!\/)\/+$/g, ''))).join('/').replace(/^\/+/, '');
}

/** Strapi's initGrant: the registry's providers, each merged with what the stored row says of it. */
/** What the grant row is made from: the providers registry's entries (services/providers.ts, which imports this module). */
export interface GrantSources {
  getAll(): Record<string, { icon?: unknown; enabled?: unknown; grantConfig?: Record<string, unknown> }>;
}

export async function writeGrantSettings(app: App, registry: GrantSources): Promise<void> {
  const store = pluginStore(app);
  const previous = (await store.get({ key: 'grant' })) as Record<string, unknown> | null;
  const grant: Record<string, Record<string, unknown>> = {};
  for (const [name, provider] of Object.entries(registry.getAll())) {
    const stored = previous?.[name];
    grant[name] = merge({ icon: provider.icon, enabled: provider.enabled, ...provider.grantConfig }, isObject(stored) ? stored : {});
  }
  if (JSON.stringify(previous) !== JSON.stringify(grant)) await store.set({ key: 'grant', value: grant });
}

/** lodash's merge for plain settings: objects merge key by key, arrays index by index, anything else replaces. */
function merge(target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(source)) {
    // Stored JSON may hold any key: none may reach a prototype.
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const current = result[key];
    if (isObject(current) && isObject(value)) result[key] = merge(current, value);
    else if (Array.isArray(current) && Array.isArray(value)) result[key] = Object.values(merge({ ...current }, { ...value }));
    else if (value !== undefined) result[key] = value;
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
