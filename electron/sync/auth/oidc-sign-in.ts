import * as oidc from 'openid-client';
import { AuthConfigSchema, SYNC_AUTH_ROUTES, type AuthConfig } from '../../../shared/sync-auth.js';
import { AppError } from '../../../shared/errors.js';
import { openLoopbackRedirect } from './loopback-redirect.js';
import type { OidcCredential } from './oidc-credential.js';

/**
 * Signing in to a sync server with OpenID Connect (RFC 8252, native apps): authorization code
 * with PKCE (S256), `state` and `nonce`, the person's own browser, and a loopback redirect. Plain
 * Node on openid-client, shared by the app (which opens the URL with shell.openExternal) and
 * `memdesk login` (which prints it). Plain http is allowed only to loopback addresses.
 */
export interface SignInOptions extends SignInTarget {
  /** Shows the sign-in page to the person: the system browser, never an embedded page. */
  openBrowser: (url: string) => Promise<void> | void;
  timeoutMs?: number;
}

/** What every way of signing in with OpenID Connect takes: the server, the device's name, a clock, an abort. */
export interface SignInTarget {
  origin: string;
  deviceName: string;
  now?: () => number;
  signal?: AbortSignal;
}

function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** What the sync server says about signing in to it. */
export async function fetchAuthConfig(origin: string): Promise<AuthConfig> {
  const url = origin.replace(/\/+$/, '') + SYNC_AUTH_ROUTES.config;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(20_000),
    });
  } catch (err) {
    throw new AppError(
      'unavailable',
      `cannot reach the sync server at ${origin} (${(err as Error).message})`,
    );
  }
  if (response.status === 404)
    throw new AppError(
      'refused',
      `${origin} offers no browser sign-in; sign in with a token from whoever runs it (memdesk login --origin URL --token TOKEN)`,
    );
  const parsed = AuthConfigSchema.safeParse(await response.json().catch(() => null)); // not JSON: refused below
  if (!response.ok || !parsed.success)
    throw new AppError('refused', `${origin} did not say how to sign in (HTTP ${response.status})`);
  return parsed.data;
}

/** The provider's configuration, from its discovery document (its issuer must match exactly). */
export async function providerConfiguration(issuer: string, clientId: string): Promise<oidc.Configuration> {
  const url = new URL(issuer);
  try {
    return await oidc.discovery(url, clientId, undefined, oidc.None(), {
      ...(isLoopback(url) ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
  } catch (err) {
    throw new AppError('refused', `cannot use the sign-in provider ${issuer}: ${describe(err)}`);
  }
}

export async function signInWithBrowser(options: SignInOptions): Promise<OidcCredential> {
  const now = options.now ?? Date.now;
  const auth = await fetchAuthConfig(options.origin);
  const config = await providerConfiguration(auth.issuer, auth.clientId);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const redirect = await openLoopbackRedirect({
    timeoutMs: options.timeoutMs ?? 10 * 60_000,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  try {
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirect.redirectUri,
      scope: auth.scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      device_name: options.deviceName,
      ...(auth.resource ? { resource: auth.resource } : {}),
    });
    await options.openBrowser(url.href);
    const callbackUrl = await redirect.callback;
    let tokens;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      const message = describe(err);
      redirect.finish({ ok: false, message });
      throw new AppError('refused', `sign-in to ${options.origin} was refused: ${message}`);
    }
    redirect.finish({ ok: true });
    return credentialFrom(auth, tokens, now(), null);
  } finally {
    redirect.close();
  }
}

/** A new access token (and, with rotation, a new refresh token) from the refresh token. */
export async function refreshCredential(
  credential: OidcCredential,
  now: () => number = Date.now,
): Promise<OidcCredential> {
  const config = await providerConfiguration(credential.issuer, credential.clientId);
  const tokens = await oidc.refreshTokenGrant(
    config,
    credential.refreshToken,
    credential.resource ? { resource: credential.resource } : undefined,
  );
  return credentialFrom(
    { issuer: credential.issuer, clientId: credential.clientId, resource: credential.resource },
    tokens,
    now(),
    credential.refreshToken,
  );
}

/** What a token response leaves in the token store (both flows store the same). */
export function credentialFrom(
  auth: Pick<AuthConfig, 'issuer' | 'clientId' | 'resource'>,
  tokens: oidc.TokenEndpointResponse,
  at: number,
  previousRefresh: string | null,
): OidcCredential {
  const refreshToken = tokens.refresh_token ?? previousRefresh;
  if (!refreshToken)
    throw new AppError(
      'refused',
      'the sign-in provider gave no refresh token; it must allow refresh tokens for this app',
    );
  return {
    kind: 'oidc',
    issuer: auth.issuer,
    clientId: auth.clientId,
    ...(auth.resource ? { resource: auth.resource } : {}),
    accessToken: tokens.access_token,
    refreshToken,
    expiresAt: at + (tokens.expires_in ?? 300) * 1000,
  };
}

/** openid-client's errors carry the provider's `error_description`; say that, not a stack. */
export function describe(err: unknown): string {
  if (err instanceof oidc.ResponseBodyError) return `${err.error}: ${err.error_description ?? err.message}`;
  if (err instanceof oidc.AuthorizationResponseError)
    return `${err.error}: ${err.error_description ?? err.message}`;
  // openid-client wraps the check that failed ("unexpected "state" response parameter value").
  const cause = (err as { cause?: unknown })?.cause;
  const detail = cause instanceof Error ? `: ${cause.message}` : '';
  return `${(err as Error)?.message ?? String(err)}${detail}`;
}
