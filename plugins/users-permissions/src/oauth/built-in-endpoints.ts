/**
 * Where Strapi 4.26.2's built-in providers authorize and hand out tokens — the part of grant's provider table
 * (grant 5.4, `config/oauth.json`) its providers use: the authorize and token URLs (`[subdomain]` is the provider's
 * `subdomain` setting), how scopes are joined, and which token endpoints want the client's credentials as HTTP
 * Basic auth. A custom provider gives the same keys in its `grantConfig` (`authorize_url`, `access_url`, `oauth`,
 * `scope_delimiter`, `token_endpoint_auth_method`), as it would for grant.
 */
export interface ProviderEndpoints {
  authorize_url: string;
  access_url: string;
  /** OAuth version: 2; 1 (twitter's OAuth 1.0a) is not supported. */
  oauth: number;
  scope_delimiter?: string;
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post';
}

const SPACE = ' ';

export const BUILT_IN_ENDPOINTS: Record<string, ProviderEndpoints> = {
  discord: { authorize_url: 'https://discord.com/api/oauth2/authorize', access_url: 'https://discord.com/api/oauth2/token', oauth: 2, scope_delimiter: SPACE },
  facebook: { authorize_url: 'https://www.facebook.com/dialog/oauth', access_url: 'https://graph.facebook.com/oauth/access_token', oauth: 2 },
  google: { authorize_url: 'https://accounts.google.com/o/oauth2/v2/auth', access_url: 'https://oauth2.googleapis.com/token', oauth: 2, scope_delimiter: SPACE },
  github: { authorize_url: 'https://github.com/login/oauth/authorize', access_url: 'https://github.com/login/oauth/access_token', oauth: 2 },
  microsoft: {
    authorize_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    access_url: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    oauth: 2,
    scope_delimiter: SPACE,
  },
  twitter: { authorize_url: 'https://api.twitter.com/oauth/authenticate', access_url: 'https://api.twitter.com/oauth/access_token', oauth: 1 },
  instagram: { authorize_url: 'https://api.instagram.com/oauth/authorize', access_url: 'https://api.instagram.com/oauth/access_token', oauth: 2, scope_delimiter: SPACE },
  vk: { authorize_url: 'https://oauth.vk.com/authorize', access_url: 'https://oauth.vk.com/access_token', oauth: 2 },
  twitch: { authorize_url: 'https://id.twitch.tv/oauth2/authorize', access_url: 'https://id.twitch.tv/oauth2/token', oauth: 2, scope_delimiter: SPACE },
  linkedin: { authorize_url: 'https://www.linkedin.com/oauth/v2/authorization', access_url: 'https://www.linkedin.com/oauth/v2/accessToken', oauth: 2, scope_delimiter: SPACE },
  cognito: { authorize_url: 'https://[subdomain]/oauth2/authorize', access_url: 'https://[subdomain]/oauth2/token', oauth: 2, scope_delimiter: SPACE },
  // grant sends reddit's client credentials as Basic auth.
  reddit: { authorize_url: 'https://ssl.reddit.com/api/v1/authorize', access_url: 'https://ssl.reddit.com/api/v1/access_token', oauth: 2, token_endpoint_auth_method: 'client_secret_basic' },
  auth0: { authorize_url: 'https://[subdomain].auth0.com/authorize', access_url: 'https://[subdomain].auth0.com/oauth/token', oauth: 2, scope_delimiter: SPACE },
  cas: { authorize_url: 'https://[subdomain]/oidc/authorize', access_url: 'https://[subdomain]/oidc/token', oauth: 2 },
  patreon: { authorize_url: 'https://www.patreon.com/oauth2/authorize', access_url: 'https://www.patreon.com/api/oauth2/token', oauth: 2, scope_delimiter: SPACE },
  keycloak: {
    authorize_url: 'https://[subdomain]/protocol/openid-connect/auth',
    access_url: 'https://[subdomain]/protocol/openid-connect/token',
    oauth: 2,
    scope_delimiter: SPACE,
  },
};
