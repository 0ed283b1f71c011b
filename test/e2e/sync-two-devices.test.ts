import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../electron/api/handlers.js';
import { serializeNote } from '../../shared/note-format.js';
import type { Note } from '../../shared/note.js';
import { startTestServer, type TestServer } from '../sync/harness.js';
import { ensureRendererBuilt, launchChromium, screenshot, WAIT } from './harness.js';
import {
  closeDevices,
  coreReads,
  openTab,
  readBody,
  restartDevice,
  signIn,
  startDevice,
  syncNow,
  whileCalling,
  type Device,
} from './sync-devices.js';

/**
 * Sync in Chromium: two devices (two temp homes, two web bridges) and one real sync server on
 * loopback. Conflicts are made for real (the same line edited on both devices, both synced) and
 * resolved in the page with each of the four resolutions; the files on both devices are checked
 * after syncing again. Then 关闭云同步 survives a reload and sends nothing (requests counted at
 * the server), a free plan shows its limits, and a 429 from a rate-limited server shows "sync ran
 * too often and will retry".
 */
const PROJECT_ID = 'e2e-shared-project-0001';

let server: TestServer;
let limitedServer: TestServer;
let browser: Browser;
let A: Device;
let B: Device;
let C: Device;
let token: string;

function note(id: string, body: string): Note {
  return {
    id,
    summary: `Conflict sample ${id}`,
    type: 'reference',
    tags: ['e2e'],
    createdAt: 1,
    updatedAt: 1,
    body,
  };
}

const BODY = (middle: string) => `First line stays.\n${middle}\nLast line stays.\n`;

async function writeNote(dir: string, n: Note): Promise<void> {
  await fs.writeFile(path.join(dir, `${n.id}.md`), serializeNote(n));
}

beforeAll(async () => {
  ensureRendererBuilt();
  browser = await launchChromium();
  // The sync tests' harness: the real server on loopback, on its own injected clock.
  server = await startTestServer();
  limitedServer = await startTestServer({ rateLimit: { requests: 3, windowMs: 10 * 60_000 } });
  token = await server.token('alice', 'free');
  // A polls on its own (like the app); B and C sync only when asked, so the test decides the order.
  [A, B, C] = await Promise.all([
    startDevice(browser, PROJECT_ID, 'a', { seed: true, project: true, autoStart: true }),
    startDevice(browser, PROJECT_ID, 'b', { seed: false, project: true, autoStart: false }),
    startDevice(browser, PROJECT_ID, 'c', { seed: false, project: false, autoStart: false }),
  ]);
  for (const id of ['c-both', 'c-cloud', 'c-local', 'c-merge'])
    await writeNote(A.userDir, note(id, BODY('Middle line as synced.')));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await closeDevices([A, B, C]);
  await server?.close();
  await limitedServer?.close();
});

describe('Sync in Chromium: two devices, one real sync server', { timeout: 180_000 }, () => {
  it('signs in (verified against identity), syncs both devices and shows the free plan and the last pull', async () => {
    await openTab(A.page, 'sync');
    await A.page.getByTestId('sync-e2e').waitFor();
    expect(await A.page.getByTestId('sync-e2e').textContent()).toContain('not end-to-end encrypted');
    await A.page.getByTestId('sync-signed-out').waitFor();
    await screenshot(A.page, 'sync-01-signed-out');

    // A wrong token is refused with the server's reason, and nothing is kept.
    await A.page.getByTestId('sync-origin').fill(server.url);
    await A.page.getByTestId('sync-token').fill('not-a-token');
    await A.page.getByTestId('sync-signin').click();
    await A.page.getByTestId('sync-signin-error').waitFor();
    expect(await A.page.getByTestId('sync-signin-error').textContent()).toContain('Could not sign in');

    await signIn(A, server.url, token);
    await signIn(B, server.url, token);
    await syncNow(A);
    await syncNow(B);
    expect(await readBody(B.userDir, 'c-merge')).toBe(BODY('Middle line as synced.'));

    await expect
      .poll(() => B.page.getByTestId('sync-last-pull-user').textContent(), { timeout: WAIT })
      .toMatch(/\d+ added/);
    await expect.poll(() => B.page.getByTestId('sync-last-synced').textContent()).not.toContain('never');
    const plan = B.page.getByTestId('sync-plan-free');
    await plan.waitFor();
    expect(await plan.textContent()).toMatch(/1000 notes per scope.*32 KiB per note/);
    await screenshot(B.page, 'sync-02-signed-in-free-plan');
  });

  it('a real conflict on B, resolved with each of the four resolutions; both devices agree after syncing', async () => {
    const ids = ['c-both', 'c-cloud', 'c-local', 'c-merge'];
    for (const id of ids) {
      await writeNote(A.userDir, note(id, BODY(`Middle line edited on A (${id}).`)));
      await writeNote(B.userDir, note(id, BODY(`Middle line edited on B (${id}).`)));
    }
    // Both cores see their edits before anything syncs (on a loaded machine the watcher may lag).
    for (const d of [A, B]) for (const id of ids) await coreReads(d, id, `edited on ${d.name.toUpperCase()}`);
    await syncNow(A);
    await syncNow(B);

    // The badge counts the conflicts, and they survive a restart of the app.
    await expect
      .poll(() => B.page.getByTestId('tab-conflicts').textContent(), { timeout: WAIT })
      .toContain('4');
    await restartDevice(B);
    await expect
      .poll(() => B.page.getByTestId('tab-conflicts').textContent(), { timeout: WAIT })
      .toContain('4');
    await openTab(B.page, 'conflicts');
    const detail = B.page.getByTestId('conflict-detail');
    await expect.poll(() => detail.getAttribute('data-conflict-id')).toBe('c-both');
    await B.page.getByTestId('pane-cloud-body').waitFor();
    expect(
      await B.page.getByTestId('pane-local-body').locator('[data-kind="changed"]').textContent(),
    ).toContain('edited on B');
    expect(
      await B.page.getByTestId('pane-cloud-body').locator('[data-kind="changed"]').textContent(),
    ).toContain('edited on A');
    expect(await B.page.getByTestId('pane-base-body').textContent()).toContain('Middle line as synced.');
    await screenshot(B.page, 'sync-03-three-pane');

    // Keyboard: the list is a listbox; ArrowDown moves, "Next conflict" wraps.
    await B.page.getByTestId('conflict-list').focus();
    await B.page.keyboard.press('ArrowDown');
    await expect.poll(() => detail.getAttribute('data-conflict-id')).toBe('c-cloud');
    await B.page.keyboard.press('Home');
    await expect.poll(() => detail.getAttribute('data-conflict-id')).toBe('c-both');

    // Both locales and the dark theme.
    await B.page.getByTestId('locale').selectOption('zh');
    await B.page.getByTestId('theme').selectOption('dark');
    await B.page.getByText('保留这台电脑的').waitFor();
    await screenshot(B.page, 'sync-04-three-pane-zh-dark');
    await B.page.getByTestId('locale').selectOption('en');
    await B.page.getByTestId('theme').selectOption('light');

    // Keep both → moves on to the next conflict (c-cloud).
    await whileCalling(B.page, 'sync.resolve', () => B.page.getByTestId('resolve-both').click());
    await expect.poll(() => detail.getAttribute('data-conflict-id'), { timeout: WAIT }).toBe('c-cloud');
    await whileCalling(B.page, 'sync.resolve', () => B.page.getByTestId('resolve-cloud').click());
    await expect.poll(() => detail.getAttribute('data-conflict-id'), { timeout: WAIT }).toBe('c-local');
    await whileCalling(B.page, 'sync.resolve', () => B.page.getByTestId('resolve-local').click());
    await expect.poll(() => detail.getAttribute('data-conflict-id'), { timeout: WAIT }).toBe('c-merge');

    // Merge by hand: CodeMirror seeded with the automatic merge and its markers; saving waits for them to go.
    await B.page.getByTestId('resolve-merge').click();
    await B.page.getByTestId('hand-merge').waitFor();
    const editor = B.page.locator('[data-testid="hand-merge"] .cm-content');
    await expect.poll(() => editor.textContent(), { timeout: WAIT }).toContain('<<<<<<<');
    await B.page.getByTestId('merge-markers-left').waitFor();
    expect(await B.page.getByTestId('merge-save').isDisabled()).toBe(true);
    await screenshot(B.page, 'sync-05-merge-by-hand');
    await editor.click();
    await B.page.keyboard.press('Control+a');
    await B.page.keyboard.type('First line stays.\nMiddle line merged by hand.\nLast line stays.\n');
    await expect.poll(() => B.page.getByTestId('merge-save').isEnabled()).toBe(true);
    await whileCalling(B.page, 'sync.resolve', () => B.page.getByTestId('merge-save').click());
    await B.page.getByTestId('conflicts-empty').waitFor();
    await expect.poll(() => B.page.getByTestId('tab-conflicts').textContent()).not.toMatch(/\d/);
    await screenshot(B.page, 'sync-06-no-conflicts');

    // B uploads the resolutions, A pulls them: the files on both devices agree.
    await syncNow(B);
    await syncNow(A);
    const expected: Record<string, string> = {
      'c-local': BODY('Middle line edited on B (c-local).'),
      'c-cloud': BODY('Middle line edited on A (c-cloud).'),
      'c-both': BODY('Middle line edited on B (c-both).'),
      'c-both-cloud': BODY('Middle line edited on A (c-both).'),
      'c-merge': 'First line stays.\nMiddle line merged by hand.\nLast line stays.\n',
    };
    for (const [id, body] of Object.entries(expected)) {
      expect(await readBody(B.userDir, id), `B ${id}`).toBe(body);
      await expect.poll(() => readBody(A.userDir, id), { timeout: WAIT, message: `A ${id}` }).toBe(body);
    }
    await openTab(A.page, 'conflicts');
    await A.page.getByTestId('conflicts-empty').waitFor();
  });

  it('a round the page did not start (the scheduler’s) still gets a toast with its counts', async () => {
    await openTab(B.page, 'memory');
    await writeNote(A.userDir, note('bg-round', 'Written on A, pulled by B in the background.\n'));
    const onA = createHandlers(A.bridge.context);
    await expect
      .poll(
        () =>
          onA['notes.get']({ id: 'bg-round', scope: 'user' }).then(
            (n) => n.body,
            () => null,
          ),
        {
          timeout: WAIT,
        },
      )
      .toContain('Written on A');
    await onA['sync.now']({});
    // B's round runs in its core (as the scheduler's would): no click, no 立即同步 in the page.
    await createHandlers(B.bridge.context)['sync.now']({});
    const toast = B.page.getByTestId('toasts').locator('.toast', { hasText: 'Sync finished' });
    await expect.poll(() => toast.textContent(), { timeout: WAIT }).toContain('1 added');
    expect(await readBody(B.userDir, 'bg-round')).toContain('Written on A');
  });

  it('关闭云同步 survives a reload and no request reaches the server while it is off', async () => {
    await openTab(A.page, 'sync');
    const toggle = A.page.getByTestId('sync-toggle');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    await whileCalling(A.page, 'sync.setEnabled', () => toggle.click());
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    // A round running at the moment of the switch is aborted; settle before counting.
    await A.bridge.sync!.engine.coordinator.idle();
    const before = server.requests.length;

    await A.page.reload();
    await openTab(A.page, 'sync');
    await expect.poll(() => A.page.getByTestId('sync-toggle').getAttribute('aria-checked')).toBe('false');
    // The switch and the state line come from two queries: after a reload either may answer first.
    await expect.poll(() => A.page.getByTestId('sync-state').textContent()).toBe('Cloud sync is off');
    await expect.poll(() => A.page.getByTestId('sync-now').isDisabled()).toBe(true);
    await screenshot(A.page, 'sync-07-off-after-reload');

    // A local edit and a manual 立即同步 (as the menu would send it) still send nothing.
    await writeNote(A.userDir, note('c-local', BODY('Edited while sync is off.')));
    const handlers = createHandlers(A.bridge.context);
    const out = await handlers['sync.now']({});
    expect(out.scopes.user?.error?.code).toBe('sync_off');
    await A.bridge.sync!.engine.coordinator.idle();
    expect(server.requests.slice(before)).toEqual([]);
    expect(await readBody(A.userDir, 'c-local')).toBe(BODY('Edited while sync is off.'));

    // On again: the edit goes up.
    await whileCalling(A.page, 'sync.setEnabled', () => A.page.getByTestId('sync-toggle').click());
    await syncNow(A);
    expect(server.requests.length).toBeGreaterThan(before);
  });

  it('a 429 from the server says sync ran too often and will retry', async () => {
    await writeNote(C.userDir, note('c-limited', BODY('A note to upload.')));
    await signIn(C, limitedServer.url, token);
    const banner = C.page.getByTestId('sync-rate-limited');
    for (let i = 0; i < 4 && !(await banner.isVisible()); i++) await syncNow(C);
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/Sync ran too often and will retry at \d\d:\d\d/);
    await screenshot(C.page, 'sync-08-rate-limited');
    await C.page.getByTestId('locale').selectOption('zh');
    await expect.poll(() => banner.textContent()).toContain('同步过于频繁');
    await C.page.getByTestId('theme').selectOption('dark');
    await screenshot(C.page, 'sync-09-rate-limited-zh-dark');

    // Sign out: the token goes, the notes and the sync setting stay.
    await C.page.getByTestId('sync-signout').click();
    await C.page.getByTestId('sync-signed-out').waitFor();
    expect(await readBody(C.userDir, 'c-limited')).toBe(BODY('A note to upload.'));
    expect(await C.page.getByTestId('sync-toggle').getAttribute('aria-checked')).toBe('true');
  });
});
