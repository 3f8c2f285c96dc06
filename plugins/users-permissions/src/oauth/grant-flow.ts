/**
 * The OAuth 2 authorization-code flow as grant 5.4 runs it for Strapi 4.26.2's `/api/connect/:provider` routes:
 * the authorize redirect (client id, `response_type=code`, redirect_uri, scope joined by the provider's
 * delimiter, state and nonce when asked for, custom params), the code exchanged at the token URL, and the answer
 * handed to the frontend's callback URL as a query string — `access_token`, `raw[…]` — or, when anything failed,
 * as `error` (grant never answers the browser with an error status: it redirects there with the error). Both query
 * strings are `qs.stringify`'s, as grant writes them: frontends parse Strapi's redirect with those names.
 */
import crypto from 'node:crypto';
import qs from 'qs';
import { BUILT_IN_ENDPOINTS } from './built-in-endpoints';
import { ProviderRequestError } from './provider-error';
import { providerRequest, type ProviderRequestLimits } from './provider-request';
import type { GrantSession } from './grant-session';

/** A provider as grant uses it: its stored settings over the built-in endpoints, empty settings left out. */
export type GrantProvider = Record<string, unknown> & { name: string };

export type GrantOutput = Record<string, unknown>;

export const MISSING_SESSION: GrantOutput = { error: 'Grant: missing session or misconfigured provider' };

export function grantProvider(name: string, stored: Record<string, unknown>): GrantProvider {
  const provider: GrantProvider = { ...BUILT_IN_ENDPOINTS[name], name };
  for (const [key, value] of Object.entries(stored)) if (value !== '' && value !== undefined) provider[key] = value;
  return provider;
}

const setting = (provider: GrantProvider, key: string): string | undefined => {
  const value = provider[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
};

/** grant's `state`/`nonce` setting: `true` makes a random one per sign-in, a string is sent as it is. */
function secretParameter(value: unknown): string | undefined {
  if (value === true || value === 'true') return crypto.randomBytes(20).toString('hex');
  if (value === 'false' || value === false) return undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

function scopeOf(provider: GrantProvider): string | undefined {
  const { scope } = provider;
  if (Array.isArray(scope)) return scope.filter(Boolean).join(setting(provider, 'scope_delimiter') ?? ',') || undefined;
  if (scope !== null && typeof scope === 'object') return JSON.stringify(scope);
  return typeof scope === 'string' && scope !== '' ? scope : undefined;
}

const withSubdomain = (provider: GrantProvider, url: string): string => {
  const subdomain = setting(provider, 'subdomain');
  return subdomain === undefined ? url : url.replace('[subdomain]', subdomain);
};

export interface AuthorizeStep {
  /** Where the browser goes: the provider's authorize URL, or the frontend callback with an error. */
  location: string;
  session: GrantSession;
}

export function authorize(provider: GrantProvider, redirectUri: string, callback: string | undefined): AuthorizeStep {
  const session: GrantSession = { provider: provider.name, callback };
  const authorizeUrl = setting(provider, 'authorize_url');
  if (Number(provider.oauth) !== 2 || authorizeUrl === undefined) {
    return { location: transport(provider, { error: 'Grant: missing or misconfigured provider' }, callback), session };
  }
  session.state = secretParameter(provider.state);
  session.nonce = secretParameter(provider.nonce);
  const params: Record<string, unknown> = {
    client_id: setting(provider, 'key') ?? setting(provider, 'client_id'),
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: scopeOf(provider),
    state: session.state,
    nonce: session.nonce,
  };
  const custom = provider.custom_params;
  if (custom !== null && typeof custom === 'object') for (const [key, value] of Object.entries(custom)) if (value) params[key] = value;
  return { location: `${withSubdomain(provider, authorizeUrl)}?${qs.stringify(params)}`, session };
}

/** The provider's redirect back: its code exchanged for tokens, or its error, as grant's `data` step shapes them. */
export async function exchange(provider: GrantProvider, query: Record<string, unknown>, session: GrantSession, redirectUri: string, limits: ProviderRequestLimits): Promise<GrantOutput> {
  if (typeof query.code !== 'string' || query.code === '') return Object.keys(query).length > 0 ? shapeTokens(provider, query, session) : { error: 'Grant: OAuth2 missing code parameter' };
  if (session.state !== undefined && query.state !== session.state) return { error: 'Grant: OAuth2 state mismatch' };
  const key = setting(provider, 'key') ?? setting(provider, 'client_id') ?? '';
  const secret = setting(provider, 'secret') ?? setting(provider, 'client_secret') ?? '';
  const form: Record<string, string> = { grant_type: 'authorization_code', code: query.code, client_id: key, client_secret: secret, redirect_uri: redirectUri };
  const headers: Record<string, string> = {};
  if (provider.token_endpoint_auth_method === 'client_secret_basic') {
    delete form.client_id;
    delete form.client_secret;
    headers.authorization = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
  }
  let output: GrantOutput;
  try {
    const answer = await providerRequest({ method: 'POST', url: withSubdomain(provider, setting(provider, 'access_url') ?? ''), form, headers }, limits);
    if (answer.status < 200 || answer.status >= 300) return { error: answer.body };
    output = answer.body !== null && typeof answer.body === 'object' ? (answer.body as GrantOutput) : { error: answer.body };
  } catch (error) {
    return { error: error instanceof ProviderRequestError || error instanceof Error ? error.message : String(error) };
  }
  return shapeTokens(provider, output, session);
}

/** grant's `data`: an error passes as it is; else the tokens and the raw answer, an id token checked first. */
function shapeTokens(provider: GrantProvider, output: GrantOutput, session: GrantSession): GrantOutput {
  if (output.error) return output;
  if (output.id_token !== undefined) {
    const problem = idTokenProblem(provider, output.id_token, session);
    if (problem !== undefined) return { error: problem };
  }
  const data: GrantOutput = {};
  for (const name of ['id_token', 'access_token', 'refresh_token']) if (output[name]) data[name] = output[name];
  data.raw = output;
  return data;
}

function idTokenProblem(provider: GrantProvider, idToken: unknown, session: GrantSession): string | undefined {
  if (typeof idToken !== 'string' || !/^[\w-]+?\.[\w-]+?\.([\w-]+)?$/.test(idToken)) return 'Grant: OpenID Connect invalid id_token format';
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return 'Grant: OpenID Connect error decoding id_token';
  }
  if (![payload.aud].flat().includes(setting(provider, 'key'))) return 'Grant: OpenID Connect invalid id_token audience';
  if (session.nonce !== undefined && payload.nonce !== session.nonce) return 'Grant: OpenID Connect nonce mismatch';
  return undefined;
}

/** grant's querystring transport: `<callback>?<output>` (the callback as configured, `?` appended as grant does). */
export function transport(provider: GrantProvider | null, output: GrantOutput, callback?: string): string {
  const target = callback ?? (provider === null ? undefined : setting(provider, 'callback'));
  return `${target || '/'}?${qs.stringify(output)}`;
}
