/**
 * `POST /admin/login`'s rate limit, Strapi 4.26.2's (`admin::rateLimit`, over
 * koa2-ratelimit): 5 requests per 5 minutes per lower-cased email, normalised
 * path and client address, then 429 RateLimitError with `X-RateLimit-*`
 * headers. `admin.rateLimit` in config/admin changes it (`enabled`,
 * `interval: { min }`, `max`), as on Strapi.
 *
 * Counters are kept in this process, in fixed windows. The key holds the
 * email the client sent, so a client can make many keys: the map is bounded,
 * its expired windows swept, and past the bound the oldest windows go first.
 */
import path from 'node:path';
import type Koa from 'koa';
import { RateLimitError } from '@tessera/errors';
import type { App, RouteMiddleware } from '@tessera/core';

interface RateLimitConfig {
  enabled?: boolean;
  interval?: { min?: number; ms?: number };
  max?: number;
}

interface Window {
  count: number;
  resetAt: number;
}

const MAX_KEYS = 50_000;

export class LoginRateLimit {
  private readonly windows = new Map<string, Window>();
  private nextSweep = 0;

  hit(key: string, windowMs: number, now: number): Window {
    if (now >= this.nextSweep || this.windows.size >= MAX_KEYS) this.sweep(now, windowMs);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      this.windows.delete(key);
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window;
  }

  private sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    // Still full: the oldest windows (the map keeps insertion order) make room.
    for (const key of this.windows.keys()) {
      if (this.windows.size < MAX_KEYS) break;
      this.windows.delete(key);
    }
    this.nextSweep = now + windowMs;
  }
}

export function loginRateLimit(app: App, counters: LoginRateLimit): RouteMiddleware {
  return async (ctx: Koa.Context, next: Koa.Next) => {
    const config = app.config.get<RateLimitConfig>('admin.rateLimit') ?? {};
    if (config.enabled === false) return next();
    const max = typeof config.max === 'number' ? config.max : 5;
    const windowMs = typeof config.interval?.ms === 'number' ? config.interval.ms : (typeof config.interval?.min === 'number' ? config.interval.min : 5) * 60_000;
    const body = (ctx.request as { body?: unknown }).body;
    const email = body && typeof body === 'object' && 'email' in body ? String((body as { email: unknown }).email).toLowerCase() : 'unknownemail';
    const requestPath = path.posix.normalize(ctx.path).toLowerCase().replace(/\/$/, '');
    const window = counters.hit(`${email}:${requestPath}:${ctx.ip}`, windowMs, Date.now());
    ctx.set('X-RateLimit-Limit', String(max));
    ctx.set('X-RateLimit-Remaining', String(Math.max(0, max - window.count)));
    ctx.set('X-RateLimit-Reset', String(Math.ceil(window.resetAt / 1000)));
    if (window.count > max) throw new RateLimitError();
    return next();
  };
}
