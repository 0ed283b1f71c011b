import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeedDirs, seedSampleNotes } from '../../electron/demo/seed.js';
import { startWebBridge, type WebBridge } from '../../electron/transports/http/web-bridge.js';
import { SYNC_ROUTES } from '../../shared/sync-protocol.js';
import { startFaultProxy } from '../sync/fault-proxy.js';
import { startTestServer, tempDir, type TestServer } from '../sync/harness.js';
import { ensureRendererBuilt, launchChromium, newPage, RENDERER_DIR, screenshot, WAIT } from './harness.js';

/**
 * End-to-end encryption from the Sync page (issue 19), in Chromium over the web bridge, with the
 * real sync server on loopback: device A turns it on (the recovery code is shown once), device B
 * sees its account is encrypted and itself locked, a wrong passphrase is refused and writes nothing
 * in B's home, the right one unlocks B and A's notes arrive. The bridges make keyrings at scrypt
 * cost 2^10 (`kdfCostForTests`, recorded in the keyring); test/sync-crypto/cli.test.ts runs the
 * production cost.
 */
const PASSPHRASE = 'correct horse battery staple';

interface Device {
  root: string;
  home: string;
  userDir: string;
  bridge: WebBridge;
  page: Page;
}

let server: TestServer;
let browser: Browser;
let A: Device;
let B: Device;
let C: Device | undefined;
let token: string;

async function startDevice(name: string, seed: boolean): Promise<Device> {
  const root = await tempDir(`e2e-enc-${name}`);
  const home = path.join(root, 'home');
  const dirs = defaultSeedDirs(home, path.join(root, 'project'));
  await fs.mkdir(dirs.userMemoryDir, { recursive: true });
  if (seed) await seedSampleNotes(dirs);
  // Rounds only when asked (sign-in, turning on, unlocking), so the test decides the order.
  const bridge = await startWebBridge({
    home,
    port: 0,
    staticDir: RENDERER_DIR,
    sync: { autoStart: false, kdfCostForTests: { logN: 10 } },
  });
  const page = await newPage(browser);
  await page.goto(bridge.url);
  return { root, home, userDir: dirs.userMemoryDir, bridge, page };
}

async function signIn(d: Device, origin = server.url, as = token): Promise<void> {
  await d.page.getByTestId('tab-sync').click();
  await d.page.getByTestId('sync-origin').fill(origin);
  await d.page.getByTestId('sync-token').fill(as);
  await d.page.getByTestId('sync-signin').click();
  await d.page.getByTestId('sync-signed-in').waitFor();
}

/** Every file under a directory with its bytes: what a refused unlock must leave as it was. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = (await fs.readFile(file)).toString('base64');
  }
  return out;
}

const e2eState = (page: Page) => page.getByTestId('sync-e2e').getAttribute('data-state');

beforeAll(async () => {
  ensureRendererBuilt();
  browser = await launchChromium();
  server = await startTestServer();
  token = await server.token('erin');
  [A, B] = await Promise.all([startDevice('a', true), startDevice('b', false)]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const d of [A, B, C]) {
    if (!d) continue;
    await d.bridge.close();
    await fs.rm(d.root, { recursive: true, force: true });
  }
  await server?.close();
});

describe('End-to-end encryption on the Sync page', { timeout: 240_000 }, () => {
  it('turns encryption on from the page and shows the recovery code once', async () => {
    await signIn(A);
    await expect.poll(() => e2eState(A.page), { timeout: WAIT }).toBe('lineOff');
    expect(await A.page.getByTestId('sync-e2e').textContent()).toContain('not end-to-end encrypted');

    // Two different passphrases are caught in the page, before anything is asked of the engine.
    await A.page.getByTestId('sync-enc-passphrase').fill(PASSPHRASE);
    await A.page.getByTestId('sync-enc-confirm').fill(`${PASSPHRASE}!`);
    await A.page.getByTestId('sync-enc-on').click();
    expect(await A.page.getByTestId('sync-enc-error').textContent()).toContain('differ');
    await screenshot(A.page, 'enc-01-turn-on');

    // Keyboard only: Enter in the confirm field submits the form.
    await A.page.getByTestId('sync-enc-confirm').fill(PASSPHRASE);
    await A.page.getByTestId('sync-enc-confirm').press('Enter');
    await A.page.getByTestId('sync-enc-working').waitFor();
    expect(await A.page.getByTestId('sync-enc-on').isDisabled()).toBe(true);
    await A.page.getByTestId('sync-enc-code').waitFor({ timeout: WAIT * 4 });
    const code = (await A.page.getByTestId('sync-enc-code').textContent())?.trim() ?? '';
    expect(code.length).toBeGreaterThan(20);
    await expect.poll(() => e2eState(A.page), { timeout: WAIT }).toBe('lineOn');
    await A.page.getByTestId('sync-enc-unlocked').waitFor();
    await screenshot(A.page, 'enc-02-recovery-code');

    await A.page.getByTestId('sync-enc-code-done').click();
    expect(await A.page.getByTestId('sync-enc-code').count()).toBe(0);
    // Gone for good: a reload shows the encrypted state, never the code again.
    await A.page.reload();
    await A.page.getByTestId('tab-sync').click();
    await expect.poll(() => e2eState(A.page), { timeout: WAIT }).toBe('lineOn');
    expect(await A.page.getByTestId('sync-enc-code').count()).toBe(0);
  });

  it('a second device is locked; a wrong passphrase stores nothing; the right one unlocks it', async () => {
    await signIn(B);
    await expect.poll(() => e2eState(B.page), { timeout: WAIT }).toBe('lineLocked');
    await B.page.getByTestId('sync-enc-unlock-form').waitFor();
    expect(await fs.readdir(B.userDir)).toEqual([]);

    const before = await snapshot(B.home);
    await B.page.getByTestId('sync-enc-secret').fill('not the passphrase');
    await B.page.getByTestId('sync-enc-unlock').click();
    await B.page.getByTestId('sync-enc-error').waitFor({ timeout: WAIT * 4 });
    expect(await B.page.getByTestId('sync-enc-error').textContent()).toContain(
      'does not unlock this account. Nothing was stored.',
    );
    expect(await snapshot(B.home)).toEqual(before);
    await screenshot(B.page, 'enc-03-wrong-passphrase');

    await B.page.getByTestId('sync-enc-secret').fill(PASSPHRASE);
    await B.page.getByTestId('sync-enc-secret').press('Enter');
    await expect.poll(() => e2eState(B.page), { timeout: WAIT * 4 }).toBe('lineOn');
    await B.page.getByTestId('sync-enc-unlocked').waitFor();
    // Unlocking ran a round: A's notes, sealed on the server, are here in the clear.
    const seeded = (await fs.readdir(A.userDir)).filter((f) => f.endsWith('.md')).sort();
    expect(seeded.length).toBeGreaterThan(0);
    await expect
      .poll(async () => (await fs.readdir(B.userDir)).filter((f) => f.endsWith('.md')).sort(), {
        timeout: WAIT,
      })
      .toEqual(seeded);
    await screenshot(B.page, 'enc-04-unlocked');
  });

  it('changing the passphrase refuses a wrong current one, in Chinese too', async () => {
    const page = await newPage(browser, { locale: 'zh-CN' });
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.goto(A.bridge.url);
    await page.getByTestId('tab-sync').click();
    await expect.poll(() => e2eState(page), { timeout: WAIT }).toBe('lineOn');
    await page.locator('.sync-enc-change summary').click();
    await page.getByTestId('sync-enc-current').fill('not the passphrase');
    await page.getByTestId('sync-enc-new').fill('a new passphrase 2');
    await page.getByTestId('sync-enc-new-confirm').fill('a new passphrase 2');
    await page.getByTestId('sync-enc-change').click();
    await page.getByTestId('sync-enc-error').waitFor({ timeout: WAIT * 4 });
    expect(await page.getByTestId('sync-enc-error').textContent()).toContain('这个密码无法解锁此账户');
    await screenshot(page, 'enc-05-zh-change-wrong');
    await page.close();
  });

  it('with 关闭云同步 the page does not ask the server and says so', async () => {
    await A.page.getByTestId('tab-sync').click();
    await A.page.getByTestId('sync-toggle').click();
    await expect.poll(() => e2eState(A.page), { timeout: WAIT }).toBe('lineSyncOff');
    expect(await A.page.getByTestId('sync-enc').count()).toBe(0);
    await A.page.getByTestId('sync-toggle').click();
    await expect.poll(() => e2eState(A.page), { timeout: WAIT }).toBe('lineOn');
  });

  it('an interrupted turn-on resumes from the Resume form, with live progress', async () => {
    // Device C (its own account) reaches the real server through a fault proxy: once the keyring
    // is published, sealed commits first fail (the re-upload is cut short), then are held so the
    // page's progress can be read while the re-upload waits on them.
    let keyringPublished = false;
    let commits: 'fail' | 'hold' | 'pass' = 'fail';
    const proxy = await startFaultProxy(server.url, ({ method, url }) => {
      if (method === 'POST' && url.startsWith(SYNC_ROUTES.keyringUpdate)) keyringPublished = true;
      if (!keyringPublished || method !== 'POST' || !url.startsWith(SYNC_ROUTES.commit)) return 'pass';
      return commits === 'fail' ? 'error500' : commits;
    });
    try {
      C = await startDevice('c', true);
      await signIn(C, proxy.url, await server.token('gwen'));
      await expect.poll(() => e2eState(C!.page), { timeout: WAIT }).toBe('lineOff');
      await C.page.getByTestId('sync-enc-passphrase').fill(PASSPHRASE);
      await C.page.getByTestId('sync-enc-confirm').fill(PASSPHRASE);
      await C.page.getByTestId('sync-enc-on').click();
      await C.page.getByTestId('sync-enc-code').waitFor({ timeout: WAIT * 4 });
      await C.page.getByTestId('sync-enc-code-done').click();
      // The re-upload did not finish: the form asks to resume, with the passphrase only.
      await expect
        .poll(() => C!.page.getByTestId('sync-enc-on').textContent(), { timeout: WAIT })
        .toBe('Resume');
      expect(await C.page.getByTestId('sync-enc-confirm').count()).toBe(0);
      // The top line does not claim encryption while the server still holds the readable copy.
      expect(await e2eState(C.page)).toBe('linePending');
      const plainCopy = path.join(server.dataDir, 'users', 'gwen', 'memory');
      expect((await fs.readdir(plainCopy)).length).toBeGreaterThan(0);

      // A wrong passphrase is refused before anything is uploaded.
      await C.page.getByTestId('sync-enc-passphrase').fill('not the passphrase');
      await C.page.getByTestId('sync-enc-on').click();
      await C.page.getByTestId('sync-enc-error').waitFor({ timeout: WAIT * 4 });
      expect(await C.page.getByTestId('sync-enc-error').textContent()).toContain('does not unlock');

      commits = 'hold';
      const held = new Promise<void>((resolve) => {
        proxy.onHold = () => resolve();
      });
      await C.page.getByTestId('sync-enc-passphrase').fill(PASSPHRASE);
      await C.page.getByTestId('sync-enc-passphrase').press('Enter');
      await held;
      const notes = (await fs.readdir(C.userDir)).filter((f) => f.endsWith('.md')).length;
      await expect
        .poll(() => C!.page.getByTestId('sync-enc-progress').textContent(), { timeout: WAIT })
        .toBe(`Uploading sealed notes: 0 of ${notes}`);
      expect(
        await C.page.getByTestId('sync-enc-working').getByRole('progressbar').getAttribute('aria-valuemax'),
      ).toBe(String(notes));
      await screenshot(C.page, 'enc-06-resume-progress');
      commits = 'pass';
      proxy.release();

      await C.page.getByTestId('sync-enc-unlocked').waitFor({ timeout: WAIT * 4 });
      await expect.poll(() => e2eState(C!.page), { timeout: WAIT }).toBe('lineOn');
      // Finished: the server removed the unencrypted copy.
      expect(await fs.readdir(plainCopy).catch(() => [])).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
