import { createLocalJWKSet, createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { type AuthConfig, SYNC_OIDC_SCOPE } from '../../shared/sync-auth.js';
import type { StorageAdapter } from '../storage/storage.js';
import { AccountStore } from './accounts.js';
import type { BuiltInProvider } from './built-in-provider.js';
import { CallerCheck } from './caller-check.js';
import { DeviceStore } from './devices.js';
import { loadProviderKeys, publicJwks } from './provider-keys.js';

/**
 * How people sign in to this sync server with OpenID Connect: the built-in provider (accounts
 * from `sync-server user add`), or an external provider the self-hoster names by its issuer, the
 * audience its access tokens carry for this server, and the client id the app is registered
 * under there (its JWKS found by discovery, or named). Either way the server verifies the access
 * token's signature, issuer, audience and expiry on every request.
 */
export type SignInOptions =
  | {
      provider: 'built-in';
      /** The URL people reach this server at (the issuer); default: the address it listens on. */
      publicUrl?: string;
      accessTokenTtlSeconds?: number;
      refreshTokenTtlSeconds?: number;
      /** How long a device sign-in's code (`memdesk login --device`) can be entered. */
      deviceCodeTtlSeconds?: number;
    }
  | {
      provider: 'external';
      issuer: string;
      audience: string;
      clientId: string;
      /** Default: `jwks_uri` from the issuer's discovery document. */
      jwksUrl?: string;
      /** An RFC 8707 resource for the app to name, when the provider wants one. */
      resource?: string;
    };

export interface SignIn {
  config: AuthConfig;
  issuer: string;
  audience: string;
  keys: JWTVerifyGetKey;
  /** Built-in only: the provider's own routes, the device and account checks. */
  builtIn: { provider: BuiltInProvider; devices: DeviceStore; check: CallerCheck } | null;
}

export async function setUpSignIn(
  options: SignInOptions,
  storage: StorageAdapter,
  listenUrl: string,
  now: () => number,
  log: (line: string) => void,
): Promise<SignIn> {
  if (options.provider === 'external') {
    const issuer = options.issuer.replace(/\/+$/, '');
    return {
      config: {
        issuer,
        clientId: options.clientId,
        scope: SYNC_OIDC_SCOPE,
        ...(options.resource ? { resource: options.resource } : {}),
        builtIn: false,
      },
      issuer: options.issuer,
      audience: options.audience,
      keys: options.jwksUrl ? createRemoteJWKSet(new URL(options.jwksUrl)) : discoveredJwks(options.issuer),
      builtIn: null,
    };
  }
  const accounts = new AccountStore(storage, now);
  const devices = new DeviceStore(storage);
  const keys = await loadProviderKeys(storage);
  // Loaded only when the built-in provider is on: oidc-provider brings koa and its own stack,
  // which a server verifying tokens from a secret or an external issuer never needs.
  const { createBuiltInProvider, MEMORY_DESK_CLIENT_ID } = await import('./built-in-provider.js');
  const provider = createBuiltInProvider({
    issuer: options.publicUrl ?? listenUrl,
    storage,
    keys,
    accounts,
    devices,
    now,
    log,
    ...(options.accessTokenTtlSeconds ? { accessTokenTtlSeconds: options.accessTokenTtlSeconds } : {}),
    ...(options.refreshTokenTtlSeconds ? { refreshTokenTtlSeconds: options.refreshTokenTtlSeconds } : {}),
    ...(options.deviceCodeTtlSeconds ? { deviceCodeTtlSeconds: options.deviceCodeTtlSeconds } : {}),
  });
  log(`sign-in: built-in OpenID Connect provider at ${provider.issuer}`);
  return {
    config: {
      issuer: provider.issuer,
      clientId: MEMORY_DESK_CLIENT_ID,
      scope: SYNC_OIDC_SCOPE,
      resource: provider.audience,
      builtIn: true,
    },
    issuer: provider.issuer,
    audience: provider.audience,
    keys: createLocalJWKSet(publicJwks(keys)),
    builtIn: { provider, devices, check: new CallerCheck(accounts, devices, now) },
  };
}

/** The issuer's JWKS, found through its discovery document on first use (and again after a failure). */
export function discoveredJwks(issuer: string): JWTVerifyGetKey {
  let remote: Promise<JWTVerifyGetKey> | null = null;
  const discover = async (): Promise<JWTVerifyGetKey> => {
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    const doc = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (doc.issuer !== issuer) throw new Error(`${url} names issuer ${String(doc.issuer)}, not ${issuer}`);
    if (typeof doc.jwks_uri !== 'string') throw new Error(`${url} has no jwks_uri`);
    return createRemoteJWKSet(new URL(doc.jwks_uri));
  };
  return async (header, token) => {
    remote ??= discover().catch((err: unknown) => {
      remote = null;
      throw err;
    });
    return (await remote)(header, token);
  };
}
