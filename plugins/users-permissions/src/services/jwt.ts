/**
 * JWTs for users: `{ id }` signed with HS256, always with an expiry — plus,
 * for a user who has changed their password, a `passwordChangedAt` claim
 * (password-change.ts). Verify pins the algorithm (no `none`, no HS512 or
 * RSA confusion) and requires `exp` and `iat`; any failure is "not a valid
 * token", never a reason to fall back.
 */
import jwt from 'jsonwebtoken';
import type { TokenTimes } from '../password-change';

export interface JwtClaims extends TokenTimes {
  id: number;
}

export interface JwtService {
  /**
   * `passwordChangedAt`: the user's last change of password in ms, when there was one. Strapi v4's second argument,
   * jsonwebtoken's options (`{ expiresIn: '1h' }`), is taken too; the algorithm stays the one `verify` accepts.
   */
  issue(payload: { id: number }, passwordChangedAt?: number | null | jwt.SignOptions): string;
  /**
   * Strapi v4's `verify`, for plugins that check a user's token themselves (strapi-plugin-io's socket handshake):
   * resolves the payload of a valid token (`{ id, iat, exp, … }`), rejects with "Invalid token." otherwise.
   */
  verify(token: string): Promise<jwt.JwtPayload>;
  /** Strapi v4's `getToken(ctx)`: the verified payload of the request's `Authorization: Bearer` token, or null. */
  getToken(ctx: { request?: { header?: Record<string, string | string[] | undefined> } }): Promise<jwt.JwtPayload> | null;
  /** The claims of a valid token, or null. */
  claims(token: string): JwtClaims | null;
}

export const ALGORITHM = 'HS256';

export function createJwtService(secret: string, expiresIn: string | number): JwtService {
  const service: JwtService = {
    issue(payload, second) {
      const options = typeof second === 'object' && second !== null ? second : {};
      const passwordChangedAt = typeof second === 'number' ? second : undefined;
      const claims = passwordChangedAt === undefined ? { id: payload.id } : { id: payload.id, passwordChangedAt };
      return jwt.sign(claims, secret, { expiresIn, ...options, algorithm: ALGORITHM } as jwt.SignOptions);
    },
    async verify(token) {
      // The same checks as the request strategy's (algorithm, exp and iat, a positive id).
      if (typeof token !== 'string' || service.claims(token) === null) throw new Error('Invalid token.');
      return jwt.decode(token) as jwt.JwtPayload;
    },
    getToken(ctx) {
      const header = ctx?.request?.header?.authorization;
      if (typeof header !== 'string') return null;
      const parts = header.split(/\s+/);
      if (parts[0].toLowerCase() !== 'bearer' || parts.length !== 2) return null;
      return service.verify(parts[1]);
    },
    claims(token) {
      try {
        const payload = jwt.verify(token, secret, { algorithms: [ALGORITHM] });
        if (typeof payload !== 'object' || payload === null || typeof payload.exp !== 'number' || typeof payload.iat !== 'number') return null;
        const { id, passwordChangedAt } = payload as { id?: unknown; passwordChangedAt?: unknown };
        if (!Number.isSafeInteger(id) || (id as number) <= 0) return null;
        if (passwordChangedAt !== undefined && !Number.isSafeInteger(passwordChangedAt)) return null;
        return { id: id as number, issuedAt: payload.iat, ...(passwordChangedAt === undefined ? {} : { passwordChangedAt: passwordChangedAt as number }) };
      } catch {
        return null;
      }
    },
  };
  return service;
}

/** Does this bearer token look like a JWT at all (three base64url parts)? Other strategies' tokens are not. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}
