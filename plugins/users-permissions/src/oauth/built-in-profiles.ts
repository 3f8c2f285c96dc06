/**
 * How Strapi 4.26.2's built-in providers read the signed-in account (services/providers-registry.js): each asks the
 * provider's user API with the access token — never trusting the token as given — and maps the answer to
 * `{ username, email }` by Strapi's rules (Instagram and Reddit give no email: Strapi makes `<name>@strapi.io`).
 */
import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { ProviderFetch } from './provider-request';

export interface ProviderProfile {
  username?: string;
  email?: string | null;
  [field: string]: unknown;
}

/** What a provider's `authCallback` is given (Strapi passes `purest` where Tessera passes `request`, a bounded fetch). */
export interface AuthCallbackInput {
  accessToken?: string;
  query: Record<string, unknown>;
  /** The grant settings row: every provider's stored settings (key, secret, subdomain, …). */
  providers: Record<string, Record<string, unknown>>;
  request: ProviderFetch;
}

type ProfileReader = (input: AuthCallbackInput) => Promise<ProviderProfile>;

/** The value at `path` in a parsed answer, or undefined. */
export function at(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const bearer = (token: string | undefined): Record<string, string> => ({ authorization: `Bearer ${token ?? ''}` });
const setting = (input: AuthCallbackInput, provider: string, key: string): string => String(input.providers[provider]?.[key] ?? '');
/** grant's `raw[…]` fields from the frontend's query: nested when the query parser nests, flat otherwise. */
const raw = (query: Record<string, unknown>, key: string): unknown => at(query, 'raw', key) ?? query[`raw[${key}]`];

async function get(input: AuthCallbackInput, url: string, headers: Record<string, string> = bearer(input.accessToken)): Promise<unknown> {
  return (await input.request({ url, headers })).body;
}

export const BUILT_IN_PROFILES: Record<string, ProfileReader> = {
  async discord(input) {
    const body = await get(input, 'https://discord.com/api/users/@me');
    const discriminator = text(at(body, 'discriminator'));
    const username = text(at(body, 'username'));
    return { username: discriminator && discriminator !== '0' ? `${username}#${discriminator}` : username, email: text(at(body, 'email')) };
  },
  async facebook(input) {
    const body = await get(input, 'https://graph.facebook.com/me?fields=name%2Cemail');
    return { username: text(at(body, 'name')), email: text(at(body, 'email')) };
  },
  async google(input) {
    // Strapi asks Google's tokeninfo with the token as `accessToken`, no Authorization header.
    const body = await get(input, `https://accounts.google.com/o/oauth2/tokeninfo?accessToken=${encodeURIComponent(input.accessToken ?? '')}`, {});
    const email = text(at(body, 'email'));
    return { username: email?.split('@')[0], email };
  },
  async github(input) {
    const headers = { ...bearer(input.accessToken), 'user-agent': 'strapi' };
    const user = await get(input, 'https://api.github.com/user', headers);
    const username = text(at(user, 'login'));
    const email = text(at(user, 'email'));
    if (email) return { username, email };
    // No public email on the profile: the primary one from the emails API.
    const emails = await get(input, 'https://api.github.com/user/emails', headers);
    const primary = Array.isArray(emails) ? emails.find((entry) => at(entry, 'primary') === true) : undefined;
    return { username, email: Array.isArray(emails) ? text(at(primary, 'email')) : null };
  },
  async microsoft(input) {
    const body = await get(input, 'https://graph.microsoft.com/v1.0/me');
    return { username: text(at(body, 'userPrincipalName')), email: text(at(body, 'userPrincipalName')) };
  },
  twitter() {
    return Promise.reject(new Error('Twitter signs in with OAuth 1.0a, which Tessera does not support'));
  },
  async instagram(input) {
    const username = text(at(await get(input, 'https://graph.instagram.com/me?fields=id%2Cusername'), 'username'));
    return { username, email: username === undefined ? undefined : `${username}@strapi.io` };
  },
  async vk(input) {
    const url = `https://api.vk.com/method/users.get?id=${encodeURIComponent(String(raw(input.query, 'user_id') ?? ''))}&v=5.122`;
    const person = at(await get(input, url), 'response', 0);
    return { username: `${String(at(person, 'last_name'))} ${String(at(person, 'first_name'))}`, email: text(raw(input.query, 'email')) };
  },
  async twitch(input) {
    const body = await get(input, 'https://api.twitch.tv/helix/users', { ...bearer(input.accessToken), 'client-id': setting(input, 'twitch', 'key') });
    return { username: text(at(body, 'data', 0, 'login')), email: text(at(body, 'data', 0, 'email')) };
  },
  async linkedin(input) {
    const me = await get(input, 'https://api.linkedin.com/v2/me');
    const emails = await get(input, 'https://api.linkedin.com/v2/emailAddress?q=members&projection=(elements*(handle~))');
    return { username: text(at(me, 'localizedFirstName')), email: text(at(emails, 'elements', 0, 'handle~', 'emailAddress')) };
  },
  async cognito(input) {
    const payload = await verifiedCognitoToken(input);
    return { username: text(payload['cognito:username']), email: text(payload.email) };
  },
  async reddit(input) {
    const username = text(at(await get(input, 'https://oauth.reddit.com/api/v1/me', { ...bearer(input.accessToken), 'user-agent': 'strapi' }), 'name'));
    return { username, email: username === undefined ? undefined : `${username}@strapi.io` };
  },
  async auth0(input) {
    const body = await get(input, `https://${setting(input, 'auth0', 'subdomain')}.auth0.com/userinfo`);
    const email = text(at(body, 'email'));
    const username = text(at(body, 'username')) ?? text(at(body, 'nickname')) ?? text(at(body, 'name')) ?? email?.split('@')[0];
    return { username, email: email ?? (username === undefined ? undefined : `${username.replace(/\s+/g, '.')}@strapi.io`) };
  },
  async cas(input) {
    const body = await get(input, `https://${setting(input, 'cas', 'subdomain')}/oidc/profile`);
    // CAS puts the attributes in `attributes` or flat, depending on its configuration.
    const attributes = at(body, 'attributes');
    const source = attributes !== undefined ? attributes : body;
    return {
      username: text(at(source, 'strapiusername')) ?? text(at(body, 'id')) ?? text(at(body, 'sub')),
      email: text(at(source, 'strapiemail')) ?? text(at(source, 'email')),
    };
  },
  async patreon(input) {
    const body = await get(input, 'https://www.patreon.com/api/oauth2/v2/identity?fields%5Buser%5D=full_name%2Cemail');
    return { username: text(at(body, 'data', 'attributes', 'full_name')), email: text(at(body, 'data', 'attributes', 'email')) };
  },
  async keycloak(input) {
    const body = await get(input, `https://${setting(input, 'keycloak', 'subdomain')}/protocol/openid-connect/userinfo`);
    return { username: text(at(body, 'preferred_username')), email: text(at(body, 'email')) };
  },
};

/** Cognito's id token, verified (RS256) against the user pool's keys at the provider's `jwksurl`, as Strapi does. */
async function verifiedCognitoToken(input: AuthCallbackInput): Promise<Record<string, unknown>> {
  const idToken = String(input.query.id_token ?? '');
  const decoded = jwt.decode(idToken, { complete: true });
  const kid = decoded?.header.kid;
  if (!decoded || typeof decoded.payload !== 'object' || !kid) throw new Error('The provided token is not valid');
  try {
    const keys = at((await input.request({ url: new URL(setting(input, 'cognito', 'jwksurl')).toString() })).body, 'keys');
    const jwk = Array.isArray(keys) ? keys.find((key) => at(key, 'kid') === kid) : undefined;
    const publicKey = crypto.createPublicKey({ key: jwk as crypto.JsonWebKey, format: 'jwk' });
    return jwt.verify(idToken, publicKey, { algorithms: ['RS256'] }) as Record<string, unknown>;
  } catch {
    throw new Error('There was an error verifying the token');
  }
}
