/**
 * JWTs for users: `{ id }` signed with HS256, always with an expiry. Verify
 * pins the algorithm (no `none`, no HS512 or RSA confusion) and requires
 * `exp`; any failure is "not a valid token", never a reason to fall back.
 */
import jwt from 'jsonwebtoken';

export interface JwtService {
  issue(payload: { id: number }): string;
  /** The user id of a valid token, or null. */
  verify(token: string): number | null;
}

export const ALGORITHM = 'HS256';

export function createJwtService(secret: string, expiresIn: string | number): JwtService {
  return {
    issue(payload) {
      return jwt.sign({ id: payload.id }, secret, { algorithm: ALGORITHM, expiresIn } as jwt.SignOptions);
    },
    verify(token) {
      try {
        const payload = jwt.verify(token, secret, { algorithms: [ALGORITHM] });
        if (typeof payload !== 'object' || payload === null || typeof payload.exp !== 'number') return null;
        const id = (payload as { id?: unknown }).id;
        return Number.isSafeInteger(id) && (id as number) > 0 ? (id as number) : null;
      } catch {
        return null;
      }
    },
  };
}

/** Does this bearer token look like a JWT at all (three base64url parts)? Other strategies' tokens are not. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}
