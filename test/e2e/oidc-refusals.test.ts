import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningSyncServer } from '../../server/app.js';
import { AccountStore } from '../../server/oidc/accounts.js';
import { accessTokenFor } from '../../electron/sync/auth/access-token.js';
import { openLoopbackRedirect } from '../../electron/sync/auth/loopback-redirect.js';
import { serializeCredential } from '../../electron/sync/auth/oidc-credential.js';
import {
  describe as explain,
  fetchAuthConfig,
  providerConfiguration,
  signInWithBrowser,
} from '../../electron/sync/auth/oidc-sign-in.js';
import { SyncHttpClient } from '../../electron/sync/http-client.js';
import { MemoryTokenStore } from '../../electron/sync/token-store.js';
import { newPage } from './harness.js';
import { signInAt, typeSignIn } from '../sync-auth/browser-sign-in.js';
import { PASSWORD, useSignInScene } from '../sync-auth/sign-in-scene.js';

/**
 * What sign-in refuses, with words a person can act on: a forged state, nonce or PKCE verifier,
 * a token for another audience, an expired refresh token, a disabled account — and the sync server
 * accepting tokens from an external OpenID Connect provider (oidc-provider run as one).
 */
const scene = useSignInScene('oidc-refusals');
let clock = Date.now();
let idp: RunningSyncServer;

const builtIn = (dir: string, extra: { refreshTokenTtlSeconds?: number } = {}) =>
  scene.builtIn(dir, ['carol'], { ...extra, now: () => clock });

beforeAll(async () => {
  idp = await builtIn('idp');
}, 60_000);

const typeIn = (url: string): Promise<void> => signInAt(scene.browser, 'carol', PASSWORD)(url);

/**
 * One authorization in the browser with the checks the test chooses, so it can forge them:
 * returns what the token exchange says.
 */
async function exchange(forge: { state?: boolean; nonce?: boolean; verifier?: boolean }): Promise<unknown> {
  const auth = await fetchAuthConfig(idp.url);
  const config = await providerConfiguration(auth.issuer, auth.clientId);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const redirect = await openLoopbackRedirect({ timeoutMs: 60_000 });
  try {
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirect.redirectUri,
      scope: auth.scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    await typeIn(url.href);
    const callback = await redirect.callback;
    redirect.finish({ ok: true });
    return await oidc
      .authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: forge.verifier ? oidc.randomPKCECodeVerifier() : verifier,
        expectedState: forge.state ? oidc.randomState() : state,
        expectedNonce: forge.nonce ? oidc.randomNonce() : nonce,
        idTokenExpected: true,
      })
      .catch((err: unknown) => explain(err));
  } finally {
    redirect.close();
  }
}

describe('sign-in refusals', () => {
  it('refuses a forged state, a forged nonce and a wrong PKCE verifier', async () => {
    // The words are what the app shows (describe in oidc-sign-in.ts).
    expect(await exchange({ state: true })).toMatch(/unexpected "state" response parameter value/);
    expect(await exchange({ nonce: true })).toMatch(/unexpected ID Token "nonce" claim value/);
    expect(await exchange({ verifier: true })).toBe(
      // oidc-provider names the failed check only in its debug log.
      'invalid_grant: grant request is invalid',
    );
    expect(await exchange({})).toMatchObject({ access_token: expect.any(String) });
  }, 180_000);

  it('a wrong password is refused on the page, with words', async () => {
    const auth = await fetchAuthConfig(idp.url);
    const config = await providerConfiguration(auth.issuer, auth.clientId);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: 'http://127.0.0.1:9/callback',
      scope: auth.scope,
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const page = await newPage(scene.browser);
    await page.goto(url.href);
    await typeSignIn(page, 'carol', 'not the password');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('That account name and password do not match.');
  }, 60_000);

  it('an expired refresh token and a disabled account are refused with clear words', async () => {
    const server = await builtIn('expiring', { refreshTokenTtlSeconds: 3600 });
    const credential = await signInWithBrowser({
      origin: server.url,
      deviceName: 'Old laptop',
      openBrowser: (u) => typeIn(u),
    });
    const tokens = new MemoryTokenStore();
    await tokens.set(server.url, serializeCredential(credential));
    const start = clock;
    try {
      clock = start + 2 * 3600_000;
      await expect(accessTokenFor(tokens, server.url, () => clock)).rejects.toMatchObject({
        failure: 'unauthorized',
        message: expect.stringMatching(/signed out by the sync server .*sign in again/),
      });
    } finally {
      clock = start;
    }

    const fresh = await signInWithBrowser({
      origin: server.url,
      deviceName: 'New laptop',
      openBrowser: (u) => typeIn(u),
    });
    const client = new SyncHttpClient({ origin: server.url, token: fresh.accessToken });
    expect((await client.identity()).userId).toBe('carol');
    await new AccountStore(server.storage).disable('carol');
    clock = start + 20_000; // past the server's 15 s memory of the account
    try {
      await expect(client.identity()).rejects.toMatchObject({
        failure: 'unauthorized',
        message: expect.stringMatching(
          /The account "carol" is disabled on this sync server.*Notes on this computer are kept/,
        ),
      });
    } finally {
      clock = start;
    }
  }, 180_000);

  it('accepts tokens of an external provider by issuer, audience and discovered JWKS; refuses another audience', async () => {
    const external = await scene.external('external', idp.url);
    const credential = await signInWithBrowser({
      origin: external.url,
      deviceName: 'Desk',
      openBrowser: (u) => typeIn(u),
    });
    expect(credential.issuer).toBe(idp.url);
    const client = new SyncHttpClient({ origin: external.url, token: credential.accessToken });
    expect((await client.identity()).userId).toBe('carol');
    await expect(client.devices()).rejects.toMatchObject({
      failure: 'not_found',
      message: expect.stringMatching(/keeps no list of devices/),
    });

    const other = await scene.external('other', idp.url, 'https://sync.example/other');
    await expect(
      new SyncHttpClient({ origin: other.url, token: credential.accessToken }).identity(),
    ).rejects.toMatchObject({
      failure: 'unauthorized',
      message: 'The access token is not valid for this sync server.',
    });
  }, 180_000);
});
