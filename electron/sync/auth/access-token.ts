import * as oidc from 'openid-client';
import { SyncRequestError } from '../http-client.js';
import type { TokenStore } from '../token-store.js';
import { type OidcCredential, parseCredential, serializeCredential } from './oidc-credential.js';
import { describe, refreshCredential } from './oidc-sign-in.js';

/**
 * The access token to sync with: a pasted token as it is; a signed-in one renewed silently with
 * its refresh token a minute before it expires (by `now`, so tests move the clock). Refresh tokens
 * rotate, and using one twice makes the provider revoke the device, so renewals for one origin
 * run one at a time — in this process, and across processes through the store's lock
 * (`TokenStore.exclusive`: the CLI's token file) — and each first re-reads the store once it holds
 * the lock (another process may have renewed it meanwhile).
 */
export const REFRESH_BEFORE_MS = 60_000;

export type Refresher = (credential: OidcCredential, now: () => number) => Promise<OidcCredential>;

const inFlight = new Map<string, Promise<string>>();

export async function accessTokenFor(
  tokens: TokenStore,
  origin: string,
  now: () => number = Date.now,
  refresh: Refresher = refreshCredential,
): Promise<string | null> {
  const stored = await tokens.get(origin);
  if (!stored) return null;
  const credential = parseCredential(stored);
  if (!credential) return stored;
  if (now() < credential.expiresAt - REFRESH_BEFORE_MS) return credential.accessToken;
  const running = inFlight.get(origin);
  if (running) return running;
  const once = (): Promise<string> => renew(tokens, origin, now, refresh);
  // One at a time in this process (inFlight) and across processes sharing the store (exclusive).
  const renewal = (tokens.exclusive ? tokens.exclusive(once) : once()).finally(() => inFlight.delete(origin));
  inFlight.set(origin, renewal);
  return renewal;
}

async function renew(
  tokens: TokenStore,
  origin: string,
  now: () => number,
  refresh: Refresher,
): Promise<string> {
  const current = parseCredential((await tokens.get(origin)) ?? '');
  if (!current) throw signedOut('the sign-in was removed');
  if (now() < current.expiresAt - REFRESH_BEFORE_MS) return current.accessToken;
  let next: OidcCredential;
  try {
    next = await refresh(current, now);
  } catch (err) {
    if (err instanceof oidc.ResponseBodyError && err.error === 'invalid_grant')
      throw signedOut(
        `this device was signed out by the sync server (revoked, its account disabled, or its sign-in expired: ${describe(err)}). Notes on this computer are kept; sign in again to sync`,
      );
    throw new SyncRequestError(
      'offline',
      `cannot renew the sign-in with ${current.issuer} (${describe(err)}); will retry`,
      null,
    );
  }
  await tokens.set(origin, serializeCredential(next));
  return next.accessToken;
}

function signedOut(message: string): SyncRequestError {
  return new SyncRequestError('unauthorized', message, 401, null, null, { reason: 'refresh_refused' });
}
