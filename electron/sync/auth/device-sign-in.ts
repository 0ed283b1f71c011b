import * as oidc from 'openid-client';
import { AppError } from '../../../shared/errors.js';
import type { DeviceCodePrompt } from '../../../shared/events.js';
import type { OidcCredential } from './oidc-credential.js';
import {
  credentialFrom,
  describe,
  fetchAuthConfig,
  providerConfiguration,
  type SignInTarget,
} from './oidc-sign-in.js';

/**
 * Signing in from a terminal without a browser: the OAuth 2.0 device authorization grant
 * (RFC 8628) on openid-client. The provider (found through the sync server's `/v1/auth/config`
 * and its discovery document) hands out a code; the person enters it at the verification address
 * on any device with a browser and confirms; meanwhile this polls the token endpoint, as often as
 * the provider's `interval` allows and slower after `slow_down` (openid-client does both). The
 * tokens are stored exactly as the browser sign-in's (credentialFrom).
 */
export interface DeviceSignInOptions extends SignInTarget {
  /** Shows the address and the code to the person (the CLI prints them). */
  showCode: (prompt: DeviceCodePrompt) => Promise<void> | void;
}

/** Why a device sign-in ended without tokens (`details.reason` of the AppError). */
export type DeviceSignInRefusal = 'access_denied' | 'expired_token';

export async function signInWithDeviceCode(options: DeviceSignInOptions): Promise<OidcCredential> {
  const now = options.now ?? Date.now;
  const auth = await fetchAuthConfig(options.origin);
  const config = await providerConfiguration(auth.issuer, auth.clientId);
  if (!config.serverMetadata().device_authorization_endpoint)
    throw new AppError(
      'refused',
      `the sign-in provider ${auth.issuer} offers no device sign-in; sign in in a browser instead (memdesk login --origin ${options.origin})`,
    );
  const resource: Record<string, string> = auth.resource ? { resource: auth.resource } : {};
  let started: oidc.DeviceAuthorizationResponse;
  try {
    started = await oidc.initiateDeviceAuthorization(config, {
      scope: auth.scope,
      device_name: options.deviceName,
      ...resource,
    });
  } catch (err) {
    throw new AppError('refused', `${auth.issuer} refused to start a device sign-in: ${describe(err)}`);
  }
  await options.showCode({
    verificationUri: started.verification_uri,
    ...(started.verification_uri_complete
      ? { verificationUriComplete: started.verification_uri_complete }
      : {}),
    userCode: started.user_code,
    expiresInSeconds: started.expires_in,
  });
  // The provider says `expired_token` once the code has expired; this deadline (a few polls
  // later) only ends the wait on one that never does.
  const interval = started.interval ?? 5;
  const deadline = AbortSignal.timeout((started.expires_in + 3 * interval + 30) * 1000);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  let tokens;
  try {
    tokens = await oidc.pollDeviceAuthorizationGrant(config, started, resource, { signal });
  } catch (err) {
    if (options.signal?.aborted) throw new AppError('refused', 'the sign-in was cancelled');
    const code =
      err instanceof oidc.ResponseBodyError ? err.error : deadline.aborted ? 'expired_token' : null;
    if (code === 'access_denied')
      throw refusal(
        'access_denied',
        `the sign-in was denied in the browser; this device is not signed in to ${options.origin}`,
      );
    if (code === 'expired_token')
      throw refusal(
        'expired_token',
        `the code ${started.user_code} expired before it was confirmed; run memdesk login --device again for a new one`,
      );
    throw new AppError('refused', `sign-in to ${options.origin} was refused: ${describe(err)}`);
  }
  return credentialFrom(auth, tokens, now(), null);
}

function refusal(reason: DeviceSignInRefusal, message: string): AppError {
  return new AppError('refused', message, { reason });
}
