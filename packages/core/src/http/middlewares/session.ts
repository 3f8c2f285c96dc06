/**
 * `strapi::session`: Strapi's koa-session, with its cookie store: `ctx.session` is an object that plugin code reads
 * and writes (@strapi/plugin-documentation marks a reader logged in there, and its restricted pages read it), kept
 * between requests in a cookie (`key`, default `koa.sess`) signed with the app's keys (`server.app.keys`), for
 * `maxAge` milliseconds (default one day). A session nobody changed sets no cookie; `ctx.session = null` clears it.
 * A cookie that is unsigned, signed with another key or expired is an empty session. An app without keys gets an
 * empty session on every request, never stored (Strapi refuses to boot then; Tessera's API needs no session).
 */
import type Koa from 'koa';
import { readSignedValue, signValue } from '../signed-value';
import type { Builtin } from './builtin';

const DAY_MS = 86_400_000;

type SessionData = Record<string, unknown>;

interface CookieOptions {
  maxAge?: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: 'strict' | 'lax' | 'none' | boolean;
  overwrite: boolean;
}

/** A request's session, read from its cookie the first time `ctx.session` is used. */
interface SessionState {
  stored: SessionData | undefined;
  data: SessionData | null;
  /** The session as read, to tell whether the request changed it. */
  before: string;
}

const STATE = Symbol('tessera.session');
type WithSession = Koa.Context & { [STATE]?: SessionState };

export const session: Builtin = {
  keys: ['key', 'maxAge', 'autoCommit', 'overwrite', 'httpOnly', 'signed', 'rolling', 'renew', 'secure', 'sameSite'],
  create(config, { app }) {
    const name = typeof config.key === 'string' ? config.key : 'koa.sess';
    const maxAge = typeof config.maxAge === 'number' ? config.maxAge : DAY_MS;
    const options: CookieOptions = {
      maxAge: config.maxAge === 'session' ? undefined : maxAge,
      httpOnly: config.httpOnly !== false,
      secure: config.secure === true,
      sameSite: isSameSite(config.sameSite) ? config.sameSite : undefined,
      overwrite: config.overwrite !== false,
    };
    const keys = appKeys(app.config.get<unknown>('server.app.keys'));
    const stateOf = (ctx: WithSession): SessionState => {
      let state = ctx[STATE];
      if (!state) {
        const stored = keys.length > 0 ? readSession(ctx.cookies.get(name), keys) : undefined;
        state = ctx[STATE] = { stored, data: stored ?? {}, before: stored ? JSON.stringify(stored) : '{}' };
      }
      return state;
    };
    const commit = (ctx: WithSession): void => {
      const state = ctx[STATE];
      // Most requests (every content-API one) never touch the session: no cookie read, nothing to write.
      if (!state || keys.length === 0 || ctx.headerSent) return;
      if (state.data === null) {
        if (state.stored !== undefined) ctx.cookies.set(name, '', { ...options, maxAge: 0 });
        return;
      }
      if (JSON.stringify(state.data) === state.before) return;
      ctx.cookies.set(name, writeSession(state.data, options.maxAge, keys[0]), options);
    };
    let prototype: object | undefined;
    return (ctx, next) => {
      // `ctx.session` is an accessor on Koa's context prototype, defined at the first request (the factory does not
      // get the Koa app): defining it on each request's context would change that object's shape every time.
      if (!prototype) {
        prototype = Object.getPrototypeOf(ctx) as object;
        Object.defineProperty(prototype, 'session', {
          get(this: WithSession) {
            return stateOf(this).data;
          },
          // Strapi code clears a session with `ctx.session = null`; another object replaces it.
          set(this: WithSession, value: unknown) {
            stateOf(this).data = isRecord(value) ? value : null;
          },
          configurable: true,
        });
      }
      return next().then(() => commit(ctx));
    };
  },
};

function writeSession(data: SessionData, maxAge: number | undefined, key: string): string {
  return signValue(data, key, maxAge === undefined ? undefined : Date.now() + maxAge);
}

/** The stored session, when the cookie is signed by one of the keys (the first signs, the others still verify) and unexpired. */
function readSession(cookie: string | undefined, keys: string[]): SessionData | undefined {
  const value = readSignedValue(cookie, keys);
  return isRecord(value) ? value : undefined;
}

function appKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((key): key is string => typeof key === 'string' && key.length > 0);
  if (typeof value === 'string') return value.split(',').filter((key) => key.length > 0);
  return [];
}

function isSameSite(value: unknown): value is CookieOptions['sameSite'] {
  return value === 'strict' || value === 'lax' || value === 'none' || typeof value === 'boolean';
}

function isRecord(value: unknown): value is SessionData {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
