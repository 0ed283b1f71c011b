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
  /** Keys already resolved (the built-in provider's own, or an issuer's discovered JWKS). */
  keys?: JWTVerifyGetKey;
  issuer?: string;
  audience?: string;
  /** Longest token lifetime accepted (`exp` − `iat`, or `exp` − now without `iat`); none if unset. */
  maxLifetimeSeconds?: number;
  /** Clock for `exp`/`nbf` checks, so tests can expire tokens without waiting. */
  now: () => number;
}

/** Which verifier accepted a token, when the server accepts several kinds (token-routing.ts). */
export type TokenSourceKind = 'secret' | 'jwks' | 'sign-in';

export interface VerifiedUser {
  sub: string;
  ent: unknown;
  /** The signed-in device (`did` claim), in tokens of the built-in provider. */
  device?: string;
  /** Which kind of token it was, when the server accepts several (token-routing.ts). */
  source?: TokenSourceKind;
}

export type TokenVerifier = (token: string) => Promise<VerifiedUser>;

/** What a key set (an identity provider's JWKS) may sign with: never a shared-secret algorithm. */
const KEY_SET_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'EdDSA',
];

/** HS256 secrets shorter than this are refused at start (RFC 7518 §3.2: at least the hash size). */
export const MIN_JWT_SECRET_BYTES = 32;

/** Verified tokens are remembered this long (a JWKS key rotation takes effect within it). */
const VERIFIED_CACHE_MS = 5 * 60_000;
const VERIFIED_CACHE_MAX = 10_000;

/**
 * Checks the settings (throws, so the server refuses to start: a weak HS secret; a JWKS without the
 * `iss` and `aud` to require) and returns the verifier. Every token must carry `exp`; a token that
 * verified is remembered (by its exact text) for a few minutes, its `exp`/`nbf` still checked on
 * every use, so a poll does not pay for the signature again.
 */
export function createTokenVerifier(config: AuthConfig): TokenVerifier {
  let key: Uint8Array | JWTVerifyGetKey | null = null;
  let algorithms: string[] | undefined;
  if (config.jwtSecret) {
    key = new TextEncoder().encode(config.jwtSecret);
    if (key.length < MIN_JWT_SECRET_BYTES) {
      throw new Error(
        `OHARNESS_SYNC_JWT_SECRET is ${key.length} bytes; it must be at least ${MIN_JWT_SECRET_BYTES} (e.g. openssl rand -hex 32).`,
      );
    }
    algorithms = ['HS256'];
  } else if (config.jwksUrl || config.keys) {
    if (!config.issuer || !config.audience) {
      throw new Error(
        'With OHARNESS_SYNC_JWKS_URL, set OHARNESS_SYNC_JWT_ISSUER and OHARNESS_SYNC_JWT_AUDIENCE too: without them any token your identity provider signs for another application would be accepted.',
      );
    }
    key = config.keys ?? createRemoteJWKSet(new URL(config.jwksUrl!));
    algorithms = KEY_SET_ALGORITHMS;
  }
  const verified = new Map<string, { user: VerifiedUser; exp: number; nbf: number; until: number }>();
  return async (token) => {
    const now = config.now();
    const known = verified.get(token);
    if (known && now < known.until && now >= known.nbf) {
      if (now >= known.exp)
        throw new SyncError('token_expired', 'The access token has expired: sign in again.');
      return known.user;
    }
    return verifyToken(token, now);
  };

  async function verifyToken(token: string, now: number): Promise<VerifiedUser> {
    if (!key)
      throw new SyncError(
        'unauthorized',
        'This sync server has no token verification configured (OHARNESS_SYNC_JWT_SECRET or OHARNESS_SYNC_JWKS_URL).',
      );
    try {
      const options = {
        currentDate: new Date(now),
        requiredClaims: ['exp'],
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
      const exp = payload.exp! * 1000;
      const issued = typeof payload.iat === 'number' ? payload.iat * 1000 : now;
      if (config.maxLifetimeSeconds !== undefined && exp - issued > config.maxLifetimeSeconds * 1000) {
        throw new SyncError(
          'unauthorized',
          `The access token is valid for longer than this sync server allows (${config.maxLifetimeSeconds} s): get a shorter-lived one.`,
        );
      }
      const user: VerifiedUser = {
        sub: payload.sub,
        ent: payload.ent,
        ...(typeof payload.did === 'string' ? { device: payload.did } : {}),
      };
      const nbf = typeof payload.nbf === 'number' ? payload.nbf * 1000 : 0;
      verified.set(token, { user, exp, nbf, until: now + VERIFIED_CACHE_MS });
      if (verified.size > VERIFIED_CACHE_MAX) verified.delete(verified.keys().next().value!);
      return user;
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
  }
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
