import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { TokenSourceKind, TokenVerifier, VerifiedUser } from './auth.js';
import { SyncError } from './sync-error.js';

/**
 * A server can accept more than one kind of token at once: OpenID Connect sign-in (the built-in
 * provider or an external one) and, as the advanced fallback, tokens from `sync-server token`
 * (the HS256 secret) or an older JWKS setting. Each token goes to the one verifier it names —
 * HS256 in its header: the secret; any other algorithm: the source whose issuer is its `iss` —
 * and is refused if that one refuses it: it never falls through to another check. The header and
 * `iss` are read unverified only to choose; the chosen verifier checks everything again.
 */
export interface TokenSource {
  kind: TokenSourceKind;
  /** The `iss` its tokens carry (required for key-signed sources, optional for the secret). */
  issuer: string | undefined;
  verify: TokenVerifier;
}

export function routeTokens(sources: TokenSource[]): TokenVerifier {
  const secret = sources.find((s) => s.kind === 'secret');
  const keyed = sources.filter((s) => s.kind !== 'secret');
  return async (token): Promise<VerifiedUser> => {
    let alg: string | undefined;
    let iss: string | undefined;
    try {
      alg = decodeProtectedHeader(token).alg;
      iss = decodeJwt(token).iss;
    } catch {
      throw new SyncError('unauthorized', 'The access token is not valid for this sync server.');
    }
    // A token claiming a key-signed issuer but made with the shared secret is a forgery by
    // whoever holds the secret, or a mistake: refused, not verified by the weaker check.
    if (alg === 'HS256' && iss !== undefined && keyed.some((s) => s.issuer === iss))
      throw new SyncError(
        'unauthorized',
        `The access token names ${iss} as its issuer but is not signed by it: sign in again.`,
      );
    const source = alg === 'HS256' ? secret : keyed.find((s) => s.issuer === iss);
    if (!source) throw new SyncError('unauthorized', 'The access token is not valid for this sync server.');
    return { ...(await source.verify(token)), source: source.kind };
  };
}
