import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSyncServer, type RunningSyncServer } from '../../server/app.js';
import { AccountStore } from '../../server/oidc/accounts.js';
import { FsStorage } from '../../server/storage/fs-storage.js';
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
import { launchChromium, newPage } from './harness.js';
import { tempDir } from '../support/temp-dir.js';
import { signInAt, typeSignIn } from '../sync-auth/browser-sign-in.js';

/**
 * What sign-in refuses, with words a person can act on: a forged state, nonce or PKCE verifier,
 * a token for another audience, an expired refresh token, a disabled account — and the sync server
 * accepting tokens from an external OpenID Connect provider (oidc-provider run as one).
 */
let browser: Browser;
let root: string;
let clock = Date.now();
let idp: RunningSyncServer;
const servers: RunningSyncServer[] = [];
const PASSWORD = 'correct horse battery staple';

async function builtIn(
  dir: string,
  extra: { refreshTokenTtlSeconds?: number } = {},
): Promise<RunningSyncServer> {
  const storage = new FsStorage(path.join(root, dir));
  await new AccountStore(storage).add('carol', PASSWORD);
  const server = await startSyncServer({
    storage,
    signIn: { provider: 'built-in', ...extra },
    rateLimit: null,
    now: () => clock,
  });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  root = await tempDir('oidc-refusals');
  browser = await launchChromium();
  idp = await builtIn('idp');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.close();
  await fs.rm(root, { recursive: true, force: true });
});

const typeIn = (url: string): Promise<void> => signInAt(browser, 'carol', PASSWORD)(url);

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
    const page = await newPage(browser);
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
    const storage = (dir: string) => new FsStorage(path.join(root, dir));
    const audience = `${idp.url}/v1/memory`;
    const external = await startSyncServer({
      storage: storage('external'),
      signIn: {
        provider: 'external',
        issuer: idp.url,
        audience,
        clientId: 'memory-desk',
        resource: audience,
      },
      rateLimit: null,
    });
    servers.push(external);
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

    const other = await startSyncServer({
      storage: storage('other'),
      signIn: {
        provider: 'external',
        issuer: idp.url,
        audience: 'https://sync.example/other',
        clientId: 'memory-desk',
      },
      rateLimit: null,
    });
    servers.push(other);
    await expect(
      new SyncHttpClient({ origin: other.url, token: credential.accessToken }).identity(),
    ).rejects.toMatchObject({
      failure: 'unauthorized',
      message: 'The access token is not valid for this sync server.',
    });
  }, 180_000);
});
