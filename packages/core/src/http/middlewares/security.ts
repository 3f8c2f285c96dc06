/**
 * `strapi::security`: response headers that stop browsers from sniffing types,
 * framing the API, or running foreign code on pages served from `public/`.
 * The default Content-Security-Policy lets a self-hosted GraphQL explorer page
 * run (inline script and style, assets from this origin, workers from blob:),
 * and nothing from another origin. Config keys follow helmet's, as Strapi's do.
 */
import { ConfigurationError } from '@tessera/errors';
import type { Builtin, BuiltinConfig, BuiltinContext } from './builtin';

type Directives = Record<string, string[]>;

const DEFAULT_DIRECTIVES: Directives = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'", "'unsafe-inline'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'form-action': ["'self'"],
};

const FRAME_ANCESTORS = { deny: "'none'", sameorigin: "'self'" } as const;

export const security: Builtin = {
  keys: ['contentSecurityPolicy', 'frameguard', 'noSniff', 'referrerPolicy'],
  create(config, context) {
    const headers = securityHeaders(config, context);
    return headers.length === 0 ? undefined : { headers };
  },
};

/** The header pairs, computed once at boot. */
function securityHeaders(config: BuiltinConfig, context: BuiltinContext): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  if (config.noSniff !== false) headers.push(['X-Content-Type-Options', 'nosniff']);
  const frame = frameAction(config.frameguard, context);
  if (frame) headers.push(['X-Frame-Options', frame.toUpperCase()]);
  const referrer = config.referrerPolicy;
  if (referrer !== false) headers.push(['Referrer-Policy', referrerPolicy(referrer)]);
  if (config.contentSecurityPolicy !== false) {
    const directives = cspDirectives(config.contentSecurityPolicy, context);
    if (frame && !('frame-ancestors' in directives)) directives['frame-ancestors'] = [FRAME_ANCESTORS[frame]];
    headers.push(['Content-Security-Policy', serialize(directives)]);
  }
  return headers;
}

function frameAction(value: unknown, context: BuiltinContext): 'deny' | 'sameorigin' | undefined {
  if (value === false) return undefined;
  if (value === undefined || value === true) return 'deny';
  const action = String((value as { action?: unknown }).action ?? 'deny').toLowerCase();
  if (action === 'deny' || action === 'sameorigin') return action;
  throw new ConfigurationError(`strapi::security: frameguard.action must be "deny" or "sameorigin", got "${action}"`, context.file);
}

function referrerPolicy(value: unknown): string {
  if (value === undefined || value === true) return 'no-referrer';
  const policy = typeof value === 'object' && value !== null ? (value as { policy?: unknown }).policy : value;
  return Array.isArray(policy) ? policy.join(',') : String(policy ?? 'no-referrer');
}

/**
 * Strapi's form: `{ useDefaults: true, directives: { 'img-src': [...], upgradeInsecureRequests: null } }`;
 * names in kebab or camel case, a list or a string, null/false drop a directive, true/[] keep it valueless.
 */
function cspDirectives(value: unknown, context: BuiltinContext): Directives {
  const options = (typeof value === 'object' && value !== null ? value : {}) as { useDefaults?: unknown; directives?: unknown };
  const directives: Directives = options.useDefaults === false ? {} : structuredClone(DEFAULT_DIRECTIVES);
  const given = options.directives ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new ConfigurationError('strapi::security: contentSecurityPolicy.directives must be an object', context.file);
  }
  for (const [rawName, rawValue] of Object.entries(given)) {
    const name = rawName.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
    if (rawValue === null || rawValue === false) delete directives[name];
    else if (rawValue === true) directives[name] = [];
    else directives[name] = (Array.isArray(rawValue) ? rawValue : [rawValue]).map(String);
  }
  return directives;
}

function serialize(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');
}
