/**
 * `service('providers-registry')` and `service('providers')`: Strapi 4.26.2's third-party sign-in services.
 * The registry holds each provider — `enabled`, `icon`, its `grantConfig` (the defaults of its row in the grant
 * settings) and `authCallback`, which turns an access token into `{ username, email }` by asking the provider —
 * with Strapi's built-in ones first; an app or plugin `add`s its own (before bootstrap, so the settings row has it).
 * `providers.connect` signs the profile's owner in by Strapi's rules: the account of that email and provider, else a
 * new confirmed one with the default role (when sign-ups are allowed and, with unique emails, no other account has
 * the email).
 */
import type { App, Entity } from '@tessera/core';
import { USER_UID } from '../content-types';
import type { AdvancedConfig, UsersPermissionsConfig } from '../config';
import { BUILT_IN_PROFILES, type AuthCallbackInput, type ProviderProfile } from '../oauth/built-in-profiles';
import { ProviderRequestError } from '../oauth/provider-error';
import { providerRequestOk, type ProviderFetch } from '../oauth/provider-request';
import { grantBaseUrl, STRAPI_GRANT_CONFIG } from '../settings/grant';
import { pluginStore } from '../settings/advanced';
import type { UserService } from './user';

/** A provider as Strapi's registry holds it. */
export interface AuthProvider {
  enabled: boolean;
  icon: string;
  grantConfig: Record<string, unknown>;
  /** The signed-in account's profile; the built-in providers are given no `request` when an app calls them itself. */
  authCallback?(input: AuthCallbackInput): Promise<ProviderProfile>;
}

export interface RunInput {
  provider: string;
  accessToken?: string;
  query?: Record<string, unknown>;
  providers?: Record<string, Record<string, unknown>>;
}

export interface ProvidersRegistryService {
  getAll(): Record<string, AuthProvider>;
  get(name: string): AuthProvider | undefined;
  add(name: string, provider: AuthProvider): void;
  remove(name: string): void;
  /** The profile `provider` gives for the access token, within the plugin's `providerRequests` budget. */
  run(input: RunInput): Promise<ProviderProfile>;
}

export interface ProvidersService {
  /** The user the provider's access token (`query.access_token`, `code` or `oauth_token`) signs in: found, or made. */
  connect(provider: string, query: Record<string, unknown>): Promise<Entity>;
  buildRedirectUri(provider?: string): string;
}

/** Strapi 4.26.2's providers, with the icon it shows for each (email enabled, the others off until an admin turns them on). */
const STRAPI_PROVIDERS: Record<string, string> = {
  email: 'envelope', discord: 'discord', facebook: 'facebook-square', google: 'google', github: 'github', microsoft: 'windows',
  twitter: 'twitter', instagram: 'instagram', vk: 'vk', twitch: 'twitch', linkedin: 'linkedin', cognito: 'aws', reddit: 'reddit',
  auth0: '', cas: 'book', patreon: '', keycloak: '',
};

/** Calls to a provider may take the budget of this many requests (GitHub and LinkedIn ask twice). */
const REQUESTS_PER_SIGN_IN = 3;

export function createProvidersRegistry(app: App): ProvidersRegistryService {
  const providers: Record<string, AuthProvider> = {};
  const base = grantBaseUrl(app);
  for (const [name, icon] of Object.entries(STRAPI_PROVIDERS)) {
    const profile = BUILT_IN_PROFILES[name];
    // As on Strapi, email (the password sign-in) has no authCallback at all.
    providers[name] = { enabled: name === 'email', icon, grantConfig: STRAPI_GRANT_CONFIG[name]?.(base) ?? {}, ...(profile === undefined ? {} : { authCallback: profile }) };
  }
  const limits = () => app.config.get<UsersPermissionsConfig>('plugin.users-permissions').providerRequests;
  const request: ProviderFetch = (input) => providerRequestOk(input, limits());
  return {
    getAll: () => providers,
    get: (name) => providers[name],
    add(name, provider) {
      providers[name] = provider;
    },
    remove(name) {
      delete providers[name];
    },
    async run({ provider, accessToken, query = {}, providers: settings = {} }) {
      const authProvider = Object.hasOwn(providers, provider) ? providers[provider] : undefined;
      if (authProvider?.authCallback === undefined) throw new Error('Unknown auth provider');
      const budget = limits().timeout * REQUESTS_PER_SIGN_IN;
      let timer: NodeJS.Timeout | undefined;
      // A custom provider may call its API without `request`: the whole sign-in is bounded too.
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new ProviderRequestError(`The provider did not answer within ${budget} ms`)), budget);
      });
      try {
        return await Promise.race([authProvider.authCallback({ accessToken, query, providers: settings, request }), late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export interface ProvidersDependencies {
  app: App;
  registry: () => ProvidersRegistryService;
  users: () => UserService;
  advanced: () => Promise<AdvancedConfig>;
}

export function createProvidersService({ app, registry, users, advanced }: ProvidersDependencies): ProvidersService {
  return {
    async connect(provider, query) {
      const accessToken = [query.access_token, query.code, query.oauth_token].find((value) => typeof value === 'string' && value !== '') as string | undefined;
      if (accessToken === undefined) throw new Error('No access_token.');
      const stored = await pluginStore(app).get({ key: 'grant' });
      const settings = (stored !== null && typeof stored === 'object' ? stored : {}) as Record<string, Record<string, unknown>>;
      const profile = await registry().run({ provider, query, accessToken, providers: settings });
      const email = typeof profile.email === 'string' ? profile.email.toLowerCase() : '';
      if (email === '') throw new Error('Email was not available.');
      const options = await advanced();
      return app.db.transaction(async () => {
        // One sign-in at a time makes the account: two callbacks at once find or create one user, not two.
        await app.db.lock(['users-permissions:identity']);
        const accounts = await app.db.query(USER_UID).findMany({ where: { email } });
        const own = accounts.find((account) => account.provider === provider);
        if (own !== undefined) return own;
        if (!options.allowRegister) throw new Error('Register action is actually not available.');
        if (accounts.length > 0 && options.uniqueEmail) throw new Error('Email is already taken.');
        const data = { ...profile, email, provider, role: await users().defaultRoleId(), confirmed: true, blocked: false };
        return app.entityService.create(USER_UID, { data });
      });
    },
    // Strapi's getAbsoluteServerUrl: `server.url` when set, else the host and port the server listens on.
    buildRedirectUri(provider = '') {
      const configured = app.config.get<string>('server.url', '');
      const base = configured || `http://${app.config.get<string>('server.host', 'localhost')}:${app.config.get<number>('server.port', 1337)}`;
      const prefix = app.config.get<string>('api.rest.prefix', '/api');
      return [base, prefix, 'connect', provider, 'callback'].map((part, index) => (index === 0 ? part.replace(/(?<!\/)\/+$/, '') : part.replace(/^\/+|(?<!\/)\/+$/g, ''))).join('/');
    },
  };
}
