import { promises as fs } from 'node:fs';
import path from 'node:path';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcCredential } from '../../electron/sync/auth/oidc-credential.js';
import { signInWithBrowser } from '../../electron/sync/auth/oidc-sign-in.js';
import { SyncHttpClient } from '../../electron/sync/http-client.js';
import { startSyncServer, type RunningSyncServer } from '../../server/app.js';
import { AccountStore } from '../../server/oidc/accounts.js';
import { FsStorage } from '../../server/storage/fs-storage.js';
import { signUserToken } from '../../server/token.js';
import { launchChromium } from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';
import { signInAt } from '../sync-auth/browser-sign-in.js';

/**
 * One sync server running the built-in OpenID Connect provider and accepting `sync-server token`'s
 * HS256 tokens too (the advanced fallback): each kind is verified by its own verifier, and a token
 * of one kind dressed in the other's header or issuer is refused, never passed to a weaker check.
 */
const SECRET = 'a-shared-secret-of-at-least-32-bytes!';
const PASSWORD = 'correct horse battery staple';
let browser: Browser;
let root: string;
let server: RunningSyncServer;
let signedIn: OidcCredential;

const identity = (token: string) => new SyncHttpClient({ origin: server.url, token }).identity();

beforeAll(async () => {
  root = await tempDir('token-kinds');
  const storage = new FsStorage(path.join(root, 'data'));
  await new AccountStore(storage).add('erin', PASSWORD);
  await new AccountStore(storage).add('frank', PASSWORD);
  server = await startSyncServer({
    storage,
    signIn: { provider: 'built-in' },
    jwtSecret: SECRET,
    rateLimit: null,
  });
  browser = await launchChromium();
  signedIn = await signInWithBrowser({
    origin: server.url,
    deviceName: 'Laptop',
    openBrowser: signInAt(browser, 'erin', PASSWORD),
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await fs.rm(root, { recursive: true, force: true });
});

describe('OpenID Connect sign-in and the shared-secret fallback on one server', () => {
  it('accepts a signed-in access token and a sync-server token, each for its account', async () => {
    expect((await identity(signedIn.accessToken)).userId).toBe('erin');
    expect(
      (await identity(await signUserToken({ secret: SECRET, user: 'grace', ttlSeconds: 600 }))).userId,
    ).toBe('grace');
    // The device list belongs to sign-in; a secret token's caller sees its account's devices.
    const devices = await new SyncHttpClient({
      origin: server.url,
      token: await signUserToken({ secret: SECRET, user: 'erin', ttlSeconds: 600 }),
    }).devices();
    expect(devices.devices).toMatchObject([{ name: 'Laptop', current: false }]);
  });

  it('refuses a secret-signed token that names the sign-in provider as its issuer', async () => {
    const claims = decodeJwt(signedIn.accessToken);
    // Everything a provider's token carries (issuer, audience, device), but made with the secret:
    // the secret alone would accept it, so it must never get that far.
    const dressed = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(SECRET));
    await expect(identity(dressed)).rejects.toMatchObject({
      failure: 'unauthorized',
      message: `The access token names ${server.url} as its issuer but is not signed by it: sign in again.`,
    });
  });

  it('refuses a key-signed token whose key or issuer is not the provider’s', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const sign = (iss: string | null) => {
      let jwt = new SignJWT({ did: 'x', ent: { plan: 'paid' } })
        .setProtectedHeader({ alg: 'ES256', kid: 'attacker' })
        .setSubject('erin')
        .setAudience(`${server.url}/v1/memory`)
        .setIssuedAt()
        .setExpirationTime('5m');
      if (iss) jwt = jwt.setIssuer(iss);
      return jwt.sign(privateKey);
    };
    for (const iss of [server.url, 'https://elsewhere.example', null])
      await expect(identity(await sign(iss))).rejects.toMatchObject({
        failure: 'unauthorized',
        message: 'The access token is not valid for this sync server.',
      });
    // Algorithm confusion: HS256 keyed with the provider-looking public key goes to the secret's
    // check (its header says so), which refuses it.
    const confused = await new SignJWT({ ent: {} })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('erin')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(JSON.stringify(await exportJWK(publicKey))));
    await expect(identity(confused)).rejects.toMatchObject({ failure: 'unauthorized' });
  });

  it('a disabled account is refused with a secret token too', async () => {
    const token = await signUserToken({ secret: SECRET, user: 'frank', ttlSeconds: 600 });
    expect((await identity(token)).userId).toBe('frank');
    await new AccountStore(server.storage).disable('frank');
    // A fresh server reads the account at once (this one remembers it for 15 s).
    const again = await startSyncServer({
      storage: server.storage,
      signIn: { provider: 'built-in' },
      jwtSecret: SECRET,
      rateLimit: null,
    });
    try {
      await expect(new SyncHttpClient({ origin: again.url, token }).identity()).rejects.toMatchObject({
        failure: 'unauthorized',
        message: expect.stringMatching(/The account "frank" is disabled on this sync server/),
      });
    } finally {
      await again.close();
    }
  });

  it('refuses to start when the secret’s tokens would carry the provider’s issuer', async () => {
    await expect(
      startSyncServer({
        storage: new FsStorage(path.join(root, 'same-issuer')),
        signIn: { provider: 'built-in', publicUrl: 'https://sync.example' },
        jwtSecret: SECRET,
        issuer: 'https://sync.example',
      }),
    ).rejects.toThrow(/OHARNESS_SYNC_JWT_ISSUER is the sign-in provider's issuer/);
  });
});
