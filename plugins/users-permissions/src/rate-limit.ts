/**
 * The rate limit of the `/auth/*` routes: N requests per window, counted
 * per route (the declared path, so case and trailing slashes make no
 * difference) and client address — never per body field, which a client
 * could vary at will. `ctx.ip` honours X-Forwarded-For only when
 * `server.proxy` is true (Koa's `proxy`). The counter store is an interface:
 * the database store (shared by every process) is the default, the
 * in-process one below serves apps that want no table for it.
 */
import type Koa from 'koa';
import { RateLimitError } from '@tessera/errors';
import type { RouteMiddleware } from '@tessera/core';
import type { RateLimitConfig } from './config';

export interface RateLimitHit {
  /** Requests in the current window, this one included. */
  count: number;
  /** When the window ends (epoch milliseconds). */
  resetAt: number;
}

export interface RateLimitStore {
  hit(key: string, windowMs: number, now: number): Promise<RateLimitHit> | RateLimitHit;
}

/** Fixed windows in a Map; expired windows are swept as the map grows. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, RateLimitHit>();
  private nextSweep = 0;

  hit(key: string, windowMs: number, now: number): RateLimitHit {
    if (now >= this.nextSweep) this.sweep(now, windowMs);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { ...window };
  }

  private sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.nextSweep = now + windowMs;
  }
}

export function rateLimitMiddleware(config: RateLimitConfig, store: RateLimitStore): RouteMiddleware {
  return async (ctx: Koa.Context, next: Koa.Next) => {
    const route = (ctx as Koa.Context & { _matchedRoute?: string })._matchedRoute ?? ctx.path.toLowerCase();
    await countRequest(config, store, ctx, `${ctx.method} ${route}`);
    return next();
  };
}

/**
 * Counts one request of `operation` (a route, or a GraphQL operation) from the
 * client address; sets the X-RateLimit headers, throws RateLimitError beyond the limit.
 */
export async function countRequest(config: RateLimitConfig, store: RateLimitStore, ctx: Koa.Context, operation: string): Promise<void> {
  if (!config.enabled) return;
  const now = Date.now();
  const { count, resetAt } = await store.hit(`${operation} ${ctx.ip}`, config.interval, now);
  ctx.set('X-RateLimit-Limit', String(config.max));
  ctx.set('X-RateLimit-Remaining', String(Math.max(0, config.max - count)));
  ctx.set('X-RateLimit-Reset', String(Math.ceil(resetAt / 1000)));
  if (count > config.max) {
    ctx.set('Retry-After', String(Math.max(1, Math.ceil((resetAt - now) / 1000))));
    throw new RateLimitError();
  }
}
