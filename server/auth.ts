import { createHash, timingSafeEqual } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { SyncError } from './sync-error.js';

/**
 * Token verification. User tokens are JWTs: HS256 with a shared secret (OHARNESS_SYNC_JWT_SECRET),
 * or any JWKS-published key of an external identity provider (OHARNESS_SYNC_JWKS_URL). The account
 * id is the verified `sub` and nothing else; the `ent` claim carries the plan.
 */
export interface AuthConfig {
  jwtSecret?: string;
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /** Clock for `exp`/`nbf` checks, so tests can expire tokens without waiting. */
  now: () => number;
}

export interface VerifiedUser {
  sub: string;
  ent: unknown;
}

export type TokenVerifier = (token: string) => Promise<VerifiedUser>;

export function createTokenVerifier(config: AuthConfig): TokenVerifier {
  let key: Uint8Array | JWTVerifyGetKey | null = null;
  let algorithms: string[] | undefined;
  if (config.jwtSecret) {
    key = new TextEncoder().encode(config.jwtSecret);
    algorithms = ['HS256'];
  } else if (config.jwksUrl) {
    key = createRemoteJWKSet(new URL(config.jwksUrl));
  }
  return async (token) => {
    if (!key)
      throw new SyncError(
        'unauthorized',
        'This sync server has no token verification configured (OHARNESS_SYNC_JWT_SECRET or OHARNESS_SYNC_JWKS_URL).',
      );
    try {
      const options = {
        currentDate: new Date(config.now()),
        ...(algorithms ? { algorithms } : {}),
        ...(config.issuer ? { issuer: config.issuer } : {}),
        ...(config.audience ? { audience: config.audience } : {}),
      };
      const { payload } =
        key instanceof Uint8Array
          ? await jwtVerify(token, key, options)
          : await jwtVerify(token, key, options);
      if (typeof payload.sub !== 'string' || payload.sub.length === 0 || payload.sub.length > 512) {
        throw new SyncError('unauthorized', 'The access token has no usable subject (sub).');
      }
      return { sub: payload.sub, ent: payload.ent };
    } catch (err) {
      if (err instanceof SyncError) throw err;
      if (err instanceof joseErrors.JWTExpired) {
        throw new SyncError('token_expired', 'The access token has expired: sign in again.');
      }
      // The identity provider's keys could not be fetched: not the token's fault, so not a 401.
      if (err instanceof joseErrors.JWKSTimeout || !(err instanceof joseErrors.JOSEError)) {
        throw new SyncError(
          'auth_unavailable',
          'The sync server cannot reach its identity provider to check the access token; try again later.',
        );
      }
      throw new SyncError('unauthorized', 'The access token is not valid for this sync server.');
    }
  };
}

/** `Authorization: Bearer <token>` → token, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** Constant-time comparison of the admin key (hashed first so lengths do not leak). */
export function adminKeyMatches(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** A short, non-reversible label for logs: never the token, never the raw account id. */
export function logLabel(sub: string): string {
  return createHash('sha256').update(sub).digest('hex').slice(0, 10);
}
