/**
 * `service('providers')` and `service('providers-registry')`: Strapi 4.26.2's third-party sign-in services. Tessera
 * signs users in with email and password only (../providers.ts), so these keep Strapi's shape for code that reads
 * or extends them — the registry lists Strapi's provider names, `add`/`remove` work, `buildRedirectUri` answers
 * Strapi's URL — while signing in through a provider (`connect`, `run`, a provider's `authCallback`) is refused as
 * the `/api/connect/:provider` route refuses it.
 */
import type { App, Entity } from '@tessera/core';
import { refuseThirdPartySignIn } from '../providers';
import { grantBaseUrl, STRAPI_GRANT_CONFIG } from '../settings/grant';

/** A provider as Strapi's registry holds it. */
export interface AuthProvider {
  enabled: boolean;
  icon: string;
  grantConfig: Record<string, unknown>;
  authCallback(input: { accessToken?: string; query?: Record<string, unknown>; providers?: unknown }): Promise<Record<string, unknown>>;
}

export interface ProvidersRegistryService {
  getAll(): Record<string, AuthProvider>;
  get(name: string): AuthProvider | undefined;
  add(name: string, provider: AuthProvider): void;
  remove(name: string): void;
  run(input: { provider: string; accessToken?: string; query?: Record<string, unknown>; providers?: unknown }): Promise<Record<string, unknown>>;
}

export interface ProvidersService {
  connect(provider: string, query: Record<string, unknown>): Promise<Entity>;
  buildRedirectUri(provider?: string): string;
}

/** Strapi 4.26.2's providers, with the icon it shows for each (email enabled, the others off until an admin turns them on). */
const STRAPI_PROVIDERS: Record<string, string> = {
  email: 'envelope', discord: 'discord', facebook: 'facebook-square', google: 'google', github: 'github', microsoft: 'windows',
  twitter: 'twitter', instagram: 'instagram', vk: 'vk', twitch: 'twitch', linkedin: 'linkedin', cognito: 'aws', reddit: 'reddit',
  auth0: '', cas: 'book', patreon: '', keycloak: '',
};

export function createProvidersRegistry(app: App): ProvidersRegistryService {
  const providers: Record<string, AuthProvider> = {};
  const base = grantBaseUrl(app);
  for (const [name, icon] of Object.entries(STRAPI_PROVIDERS)) {
    providers[name] = { enabled: name === 'email', icon, grantConfig: STRAPI_GRANT_CONFIG[name]?.(base) ?? {}, authCallback: () => refuseThirdPartySignIn(app, name) };
  }
  return {
    getAll: () => providers,
    get: (name) => providers[name],
    add(name, provider) {
      providers[name] = provider;
    },
    remove(name) {
      delete providers[name];
    },
    run: ({ provider }) => refuseThirdPartySignIn(app, provider),
  };
}

export function createProvidersService(app: App): ProvidersService {
  return {
    connect: (provider) => refuseThirdPartySignIn(app, provider),
    // Strapi's getAbsoluteServerUrl: `server.url` when set, else the host and port the server listens on.
    buildRedirectUri(provider = '') {
      const configured = app.config.get<string>('server.url', '');
      const base = configured || `http://${app.config.get<string>('server.host', 'localhost')}:${app.config.get<number>('server.port', 1337)}`;
      const prefix = app.config.get<string>('api.rest.prefix', '/api');
      return [base, prefix, 'connect', provider, 'callback'].map((part, index) => (index === 0 ? part.replace(/(?<!\/)\/+$/, '') : part.replace(/^\/+|(?<!\/)\/+$/g, ''))).join('/');
    },
  };
}
