import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningSyncServer } from '../../server/app.js';
import { accessTokenFor } from '../../electron/sync/auth/access-token.js';
import { parseCredential, serializeCredential } from '../../electron/sync/auth/oidc-credential.js';
import { signInWithBrowser } from '../../electron/sync/auth/oidc-sign-in.js';
import { SyncHttpClient } from '../../electron/sync/http-client.js';
import { MemoryTokenStore } from '../../electron/sync/token-store.js';
import { cli } from '../sync/cli-runner.js';
import { closeDemoPage, ensureRendererBuilt, newPage, screenshot, startDemo, WAIT } from './harness.js';
import { signInAt } from '../sync-auth/browser-sign-in.js';
import { PASSWORD, useSignInScene } from '../sync-auth/sign-in-scene.js';

/**
 * The sign-in flow of electron/sync/auth in real Chromium against the sync server's built-in
 * OpenID Connect provider on loopback: authorization code + PKCE, loopback redirect, silent
 * refresh on an injected clock, device list and revocation.
 */
const scene = useSignInScene('oidc');
let server: RunningSyncServer;

beforeAll(async () => {
  server = await scene.builtIn('data', ['alice', 'bob']);
}, 60_000);

/** The person in the browser: opens the URL, types name and password, submits. */
const person = (name: string, password: string, seen: { page?: Page } = {}) =>
  signInAt(scene.browser, name, password, seen);

describe('OpenID Connect sign-in with the built-in provider', () => {
  it('serves discovery with S256 PKCE', async () => {
    const doc = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(doc).toMatchObject({
      issuer: server.url,
      authorization_endpoint: expect.stringContaining(server.url),
      token_endpoint: expect.stringContaining(server.url),
      jwks_uri: expect.stringContaining(server.url),
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('signs in through the browser, syncs, refreshes silently, lists and revokes the device', async () => {
    const seen: { page?: Page } = {};
    const credential = await signInWithBrowser({
      origin: server.url,
      deviceName: 'Laptop',
      openBrowser: person('alice', PASSWORD, seen),
    });
    await expect
      .poll(() => seen.page!.textContent('body'), { timeout: WAIT })
      .toContain('Signed in to Memory Desk sync');
    const client = new SyncHttpClient({ origin: server.url, token: credential.accessToken });
    expect((await client.identity()).userId).toBe('alice');
    const { devices } = await client.devices();
    expect(devices).toMatchObject([{ name: 'Laptop', current: true, revokedAt: null }]);

    // Silent refresh: the clock passes the access token's expiry.
    const tokens = new MemoryTokenStore();
    await tokens.set(server.url, serializeCredential(credential));
    let clock = Date.now();
    expect(await accessTokenFor(tokens, server.url, () => clock)).toBe(credential.accessToken);
    clock = credential.expiresAt + 1;
    const renewed = await accessTokenFor(tokens, server.url, () => clock);
    expect(renewed).not.toBe(credential.accessToken);
    expect(parseCredential((await tokens.get(server.url))!)!.refreshToken).not.toBe(credential.refreshToken);
    expect((await new SyncHttpClient({ origin: server.url, token: renewed! }).identity()).userId).toBe(
      'alice',
    );

    // Revoke: the access token is refused with clear words, and so is the refresh token.
    await client.revokeDevice(devices[0]!.id);
    await expect(
      new SyncHttpClient({ origin: server.url, token: renewed! }).identity(),
    ).rejects.toMatchObject({
      failure: 'unauthorized',
      message: expect.stringMatching(/signed out of the sync server.*Notes on this computer are kept/),
    });
    clock = parseCredential((await tokens.get(server.url))!)!.expiresAt + 1;
    await expect(accessTokenFor(tokens, server.url, () => clock)).rejects.toMatchObject({
      failure: 'unauthorized',
      message: expect.stringMatching(/this device was signed out by the sync server/),
    });
  }, 120_000);

  it('memdesk login prints the URL, signs in, syncs; devices lists it; devices revoke signs it out', async () => {
    const home = path.join(scene.root, 'cli-home');
    const project = path.join(scene.root, 'cli-project');
    await fs.mkdir(project, { recursive: true });
    const g = ['--home', home, '--project', project];
    expect((await cli([...g, 'project', 'init'], project)).code).toBe(0);
    expect(
      (await cli([...g, 'remember', '--summary', 'kept', '--type', 'project', '--body', 'x'], project)).code,
    ).toBe(0);

    let opened: Promise<void> | null = null;
    const login = await cli(
      [...g, 'login', '--origin', server.url, '--device-name', 'CLI box'],
      project,
      (err) => {
        const url = /^\s+(http\S+)$/m.exec(err)?.[1];
        if (url && !opened) opened = person('bob', PASSWORD)(url);
      },
    );
    expect(login.stderr).toMatch(/Open this address in your browser to sign in/);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`signed in to ${server.url} as bob`);
    await opened;

    const sync = JSON.parse((await cli([...g, '--json', 'sync'], project)).stdout);
    expect(sync.scopes.project).toMatchObject({ pushed: 1, error: null });

    const listed = JSON.parse((await cli([...g, '--json', 'devices'], project)).stdout);
    expect(listed.devices).toMatchObject([
      { name: 'CLI box', current: true, revokedAt: null, lastSeenAt: expect.any(Number) },
    ]);
    const text = await cli([...g, 'devices'], project);
    expect(text.stdout).toMatch(/CLI box \(this device\)/);

    const revoke = await cli([...g, 'devices', 'revoke', listed.devices[0].id], project);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout).toMatch(/revoked CLI box .*this device is signed out, its notes stay/);
    const after = JSON.parse((await cli([...g, '--json', 'sync'], project)).stdout);
    expect(after.scopes.project.error).toMatchObject({ code: 'signed_out' });
    expect((await cli([...g, 'list'], project)).stdout).toContain('kept');
  }, 180_000);

  it('the Sync page signs in in the browser, lists devices, revokes this one and keeps the notes', async () => {
    ensureRendererBuilt();
    const env = await startDemo();
    const page = await newPage(scene.browser);
    try {
      // What shell.openExternal does in the app: the provider's page opens in the browser.
      env.bridge.context.openExternal = person('alice', PASSWORD);
      await page.goto(env.bridge.url);
      const count = () => page.getByTestId('list-count').textContent();
      await expect.poll(count, { timeout: WAIT }).toMatch(/^\d+ notes$/);
      const notesBefore = await count();
      await page.getByTestId('tab-sync').click();
      await page.getByTestId('sync-oidc-origin').fill(server.url);
      await page.getByTestId('sync-oidc-signin').click();
      await page.getByTestId('sync-signed-in').waitFor();
      const item = page.getByTestId('sync-devices').locator('li', { hasText: 'this device' });
      await item.waitFor();
      await screenshot(page, 'oidc-sync-page-devices');
      await item.getByRole('button', { name: 'Sign out this device' }).click();
      await page.getByTestId('sync-signed-out').waitFor();
      await page.getByTestId('tab-memory').click();
      await expect.poll(count, { timeout: WAIT }).toBe(notesBefore);
    } finally {
      await page.context().close();
      await closeDemoPage({ env });
    }
  }, 180_000);
});
