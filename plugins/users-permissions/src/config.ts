/**
 * The plugin's configuration (`config/plugins.ts` → `'users-permissions': {
 * config }`), its defaults and the boot-time check. `advanced` and
 * `email.from` are the values written at the first boot into Strapi's core-store
 * rows (settings/*), where the panel edits them and the plugin reads them.
 */
import type { ProviderRequestLimits } from './oauth/provider-request';

export interface RateLimitConfig {
  enabled: boolean;
  /** Window length in milliseconds. */
  interval: number;
  /** Requests per window, per route and client address. */
  max: number;
  /** Where counters live; the app's database (shared by every process) when omitted. */
  store?: { hit(key: string, windowMs: number, now: number): unknown };
}

export interface EmailConfig {
  /** `log` (default: the message goes to the log), `smtp` (nodemailer), or a provider object `{ send(message) }`. */
  provider: 'log' | 'smtp' | EmailProviderLike;
  /** nodemailer transport options for `smtp` (host, port, secure, auth, …). */
  providerOptions: Record<string, unknown>;
  from: string;
  replyTo?: string;
}

export interface EmailProviderLike {
  send(message: { to: string; from: string; replyTo?: string; subject: string; text: string; html?: string }): Promise<void>;
}

export interface AdvancedConfig {
  allowRegister: boolean;
  /** Users must confirm their email (a link is mailed) before they can log in. */
  emailConfirmation: boolean;
  uniqueEmail: boolean;
  /** The role type given to new users. */
  defaultRole: string;
  /** Where the reset link in the forgot-password email points (`?code=…` is appended). */
  resetPasswordUrl: string;
  /** Where `GET /auth/email-confirmation` redirects once confirmed. */
  emailConfirmationRedirection: string;
  /** How long a reset code stays valid, in milliseconds. */
  resetPasswordTokenTtl: number;
}

/** `callback.validate`: whether a frontend callback a connect request names (`?callback=`) may be used for `provider`. */
export interface CallbackConfig {
  /** Throws (or rejects) to refuse. Strapi's default: the same origin and path as the provider's configured callback. */
  validate(callback: string, provider: Record<string, unknown>): unknown;
}

export interface UsersPermissionsConfig {
  jwtSecret?: string;
  jwt: { expiresIn: string | number };
  /** Unset: Strapi 4.26's default rule (register-fields.ts); set: exactly these fields besides username, email, password. */
  register: { allowedFields?: string[] };
  ratelimit: RateLimitConfig;
  /** How long a process may reuse a role's permissions read from the database (other processes' changes show within it). */
  permissionsCacheTtl: number;
  email: EmailConfig;
  advanced: AdvancedConfig;
  /** Each request to a sign-in provider (token exchange, user API): milliseconds it may take, bytes its answer may hold. */
  providerRequests: ProviderRequestLimits;
  callback: CallbackConfig;
}

/** Strapi 4.26.2's rule: a dynamic callback keeps the configured one's origin and path (its query may differ). */
function sameOriginAndPath(callback: string, provider: Record<string, unknown>): void {
  let given: URL;
  let configured: URL;
  try {
    given = new URL(callback);
    configured = new URL(String(provider.callback));
  } catch {
    throw new Error('The callback is not a valid URL');
  }
  if (given.origin !== configured.origin) throw new Error("Forbidden callback provided: origins don't match. Please verify your config.");
  if (given.pathname !== configured.pathname) throw new Error("Forbidden callback provided: pathname don't match. Please verify your config.");
}

/** Fields a client may never set on itself: register refuses them even when listed in `register.allowedFields`. */
export const PRIVILEGED_FIELDS = ['role', 'confirmed', 'blocked', 'provider', 'resetPasswordToken', 'confirmationToken', 'passwordChangedAt'];

export const defaultConfig = {
  jwt: { expiresIn: '30d' },
  register: {} as { allowedFields?: string[] },
  // Strapi's: the content manager hands its create and update of a user to this plugin's controller.
  layout: { user: { actions: { create: 'contentManagerUser.create', update: 'contentManagerUser.update' } } },
  ratelimit: { enabled: true, interval: 60_000, max: 10 },
  permissionsCacheTtl: 1_000,
  email: { provider: 'log', providerOptions: {}, from: 'no-reply@localhost' },
  advanced: {
    allowRegister: true,
    emailConfirmation: false,
    uniqueEmail: true,
    defaultRole: 'authenticated',
    resetPasswordUrl: 'http://localhost:1337/reset-password',
    emailConfirmationRedirection: '/',
    resetPasswordTokenTtl: 60 * 60 * 1000,
  },
  providerRequests: { timeout: 10_000, maxBytes: 1_048_576 },
  callback: { validate: sameOriginAndPath } as CallbackConfig,
};

/** Throws with the key at fault; the kernel stops the boot with it. */
export function validateConfig(config: Record<string, unknown>): void {
  const value = config as unknown as UsersPermissionsConfig;
  if (value.jwtSecret !== undefined && value.jwtSecret !== null && (typeof value.jwtSecret !== 'string' || value.jwtSecret.length < 16)) {
    throw new Error('jwtSecret must be a string of at least 16 characters');
  }
  const expiresIn = value.jwt?.expiresIn;
  if (!(typeof expiresIn === 'string' && expiresIn !== '') && !(typeof expiresIn === 'number' && expiresIn > 0)) {
    throw new Error('jwt.expiresIn must be a duration such as "30d" or a number of seconds');
  }
  const allowed = value.register?.allowedFields ?? [];
  if (!Array.isArray(allowed) || !allowed.every((field) => typeof field === 'string')) throw new Error('register.allowedFields must be a list of attribute names');
  const privileged = allowed.filter((field) => PRIVILEGED_FIELDS.includes(field));
  if (privileged.length > 0) throw new Error(`register.allowedFields may not contain ${privileged.join(', ')}: clients must not set them`);
  const { interval, max } = value.ratelimit ?? ({} as RateLimitConfig);
  if (!(Number.isInteger(interval) && interval > 0) || !(Number.isInteger(max) && max > 0)) {
    throw new Error('ratelimit.interval (milliseconds) and ratelimit.max must be positive integers');
  }
  if (value.ratelimit.store !== undefined && typeof value.ratelimit.store?.hit !== 'function') throw new Error('ratelimit.store must be an object with hit(key, windowMs, now)');
  if (!(Number.isInteger(value.permissionsCacheTtl) && value.permissionsCacheTtl >= 0)) throw new Error('permissionsCacheTtl must be a number of milliseconds');
  const provider = value.email?.provider;
  if (provider !== 'log' && provider !== 'smtp' && typeof (provider as EmailProviderLike | undefined)?.send !== 'function') {
    throw new Error('email.provider must be "log", "smtp" or an object with send(message)');
  }
  if (typeof value.advanced?.defaultRole !== 'string') throw new Error('advanced.defaultRole must be a role type');
  const { timeout, maxBytes } = value.providerRequests ?? ({} as ProviderRequestLimits);
  if (!(Number.isInteger(timeout) && timeout > 0) || !(Number.isInteger(maxBytes) && maxBytes > 0)) {
    throw new Error('providerRequests.timeout (milliseconds) and providerRequests.maxBytes must be positive integers');
  }
  if (typeof value.callback?.validate !== 'function') throw new Error('callback.validate must be a function (callback, provider)');
  if (!(Number(value.advanced?.resetPasswordTokenTtl) > 0)) throw new Error('advanced.resetPasswordTokenTtl must be a positive number of milliseconds');
}
