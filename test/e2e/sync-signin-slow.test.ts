import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_ROUTES } from '../../shared/sync-protocol.js';
import { startTestServer, type TestServer } from '../sync/harness.js';
import { ensureRendererBuilt, launchChromium, WAIT } from './harness.js';
import { closeDevices, openTab, startDevice, type Device } from './sync-devices.js';

/**
 * A refused sign-in whose check against the server is slow. Signing in keeps the token first and
 * asks the server's identity after; meanwhile the device's own round (a sign-in schedules one,
 * ~3 s later) may end and the page reads the sync status — which says signed in until the refused
 * token is dropped. The sign-in form must stay up through that, keep what was typed and show why
 * the server refused (on a loaded machine this is what sync-two-devices' first test met).
 */
let server: TestServer;
let browser: Browser;
let A: Device;
let release: () => void = () => {};
const held = new Promise<void>((resolve) => (release = resolve));
let holding = true;

/** The device's fetch: its first identity request (the sign-in's check) waits until released. */
const slowFetch: typeof fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (holding && new URL(url).pathname === SYNC_ROUTES.identity) {
    holding = false;
    await held;
  }
  return fetch(input, init);
};

beforeAll(async () => {
  ensureRendererBuilt();
  browser = await launchChromium();
  server = await startTestServer();
  A = await startDevice(browser, 'e2e-slow-signin-0001', 'a', {
    seed: false,
    project: false,
    autoStart: true,
    fetch: slowFetch,
  });
}, 120_000);

afterAll(async () => {
  release();
  await browser?.close();
  await closeDevices([A]);
  await server?.close();
});

describe('Sync sign-in in Chromium, with a slow identity check', { timeout: 120_000 }, () => {
  it('a refused token shows its reason even if the status was read mid-check; a good one signs in', async () => {
    const page = A.page;
    await openTab(page, 'sync');
    await page.getByTestId('sync-signed-out').waitFor();
    await page.getByTestId('sync-origin').fill(server.url);
    await page.getByTestId('sync-token').fill('not-a-token');

    // The page reads the status while the check is held: it says signed in (the token is kept).
    const readSignedIn = page.waitForResponse(
      async (r) =>
        r.url().endsWith('/api/invoke') &&
        (r.request().postData() ?? '').includes('"method":"sync.status"') &&
        (await r.text()).includes('"signedIn":true'),
      { timeout: WAIT },
    );
    await page.getByTestId('sync-signin').click();
    await readSignedIn;
    // Two frames: whatever that answer draws is on screen before the check goes on.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    release();

    const error = page.getByTestId('sync-signin-error');
    await error.waitFor({ timeout: WAIT });
    expect(await error.textContent()).toContain('Could not sign in');
    expect(await page.getByTestId('sync-origin').inputValue()).toBe(server.url);
    await page.getByTestId('sync-signed-out').waitFor();

    // The origin is still there: a good token signs in.
    await page.getByTestId('sync-token').fill(await server.token('alice', 'free'));
    await page.getByTestId('sync-signin').click();
    await page.getByTestId('sync-signed-in').waitFor();
  });
});
