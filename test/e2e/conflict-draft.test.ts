import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeNote } from '../../shared/note-format.js';
import { startTestServer, type TestServer } from '../sync/harness.js';
import { ensureRendererBuilt, launchChromium, openNoteIn, row, screenshot, WAIT } from './harness.js';
import {
  closeDevices,
  coreReads,
  openTab,
  readBody,
  signIn,
  startDevice,
  syncNow,
  whileCalling,
  type Device,
} from './sync-devices.js';

/**
 * Issue 17, "never lose a draft", in a sync conflict's 手动合并: what the person typed in the hand
 * merge is kept per conflict through Esc, Close, another tab and a reload, said to be a kept
 * draft when it reopens, and ends only when saved or discarded (which asks); resolving the
 * conflict another way over a kept draft asks too. Two devices and the real sync server on
 * loopback make the conflict.
 */
const PROJECT_ID = 'e2e-conflict-draft-0001';
const ID = 'draft-conflict';
const BODY = (middle: string) => `First line stays.\n${middle}\nLast line stays.\n`;
const MERGED = 'First line stays.\nMiddle line merged by hand, kept as a draft.\nLast line stays.\n';
const SUMMARY = 'A note merged by hand (draft)';

let server: TestServer;
let browser: Browser;
let A: Device;
let B: Device;

async function writeNote(d: Device, middle: string): Promise<void> {
  await fs.writeFile(
    path.join(d.userDir, `${ID}.md`),
    serializeNote({
      id: ID,
      summary: 'A note edited on two computers',
      type: 'reference',
      tags: ['e2e'],
      createdAt: 1,
      updatedAt: 1,
      body: BODY(middle),
    }),
  );
}

const editor = (page: Page) => page.locator('[data-testid="hand-merge"] .cm-content');

/** Opens 手动合并 again and checks that it shows the typed draft and says it is a kept one. */
async function reopenShowsDraft(page: Page): Promise<void> {
  await page.getByTestId('conflict-draft-waiting').waitFor();
  await page.getByTestId('resolve-merge').click();
  await showsDraft(page);
}

/** The hand merge shows the typed draft and says it is a kept one. */
async function showsDraft(page: Page): Promise<void> {
  await page.getByTestId('merge-draft-kept').waitFor();
  expect(await page.getByTestId('merge-summary').inputValue()).toBe(SUMMARY);
  expect((await editor(page).locator('.cm-line').allTextContents()).join('\n')).toBe(MERGED);
}

/**
 * Issue 17's "conflicts where you work", walked in both languages at both window sizes: the
 * round's toast counts the conflict and leads to it, the list marks the note, its editor says so
 * with a way to resolve it, which opens this conflict.
 */
async function whereYouWork(page: Page): Promise<void> {
  const toast = page.getByTestId('toasts').locator('.toast').filter({ hasText: 'conflict' });
  await expect.poll(() => toast.last().textContent(), { timeout: WAIT }).toContain('1 conflict to resolve');
  await toast.last().getByRole('button', { name: 'Open conflicts' }).click();
  await expect
    .poll(() => page.getByTestId('conflict-detail').getAttribute('data-conflict-id'), { timeout: WAIT })
    .toBe(ID);
  for (const [locale, width, height, banner] of [
    ['en', 1280, 800, 'sync conflict'],
    ['zh', 1024, 700, '同步冲突'],
  ] as const) {
    await page.getByTestId('locale').selectOption(locale);
    await page.setViewportSize({ width, height });
    await openTab(page, 'memory');
    await openNoteIn(page, ID);
    await row(page, ID).getByTestId('conflict-mark').waitFor();
    await expect
      .poll(() => page.getByTestId('sync-conflict-banner').textContent(), { timeout: WAIT })
      .toContain(banner);
    await screenshot(page, `conflict-draft-00-where-you-work-${locale}-${width}`);
  }
  await page.getByTestId('resolve-conflict').click();
  await expect
    .poll(() => page.getByTestId('conflict-detail').getAttribute('data-conflict-id'), { timeout: WAIT })
    .toBe(ID);
  await page.getByTestId('locale').selectOption('en');
  await page.setViewportSize({ width: 1280, height: 800 });
}

beforeAll(async () => {
  ensureRendererBuilt();
  browser = await launchChromium();
  server = await startTestServer();
  [A, B] = await Promise.all([
    startDevice(browser, PROJECT_ID, 'a', { seed: false, project: true, autoStart: false }),
    startDevice(browser, PROJECT_ID, 'b', { seed: false, project: true, autoStart: false }),
  ]);
  await writeNote(A, 'Middle line as synced.');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await closeDevices([A, B]);
  await server?.close();
});

describe('a sync conflict’s hand-merge draft', { timeout: 240_000 }, () => {
  it('survives Esc, Close, another tab and a reload; discarding or resolving another way asks', async () => {
    const token = await server.token('alice', 'free');
    await signIn(A, server.url, token);
    await signIn(B, server.url, token);
    await syncNow(A);
    await syncNow(B);
    await expect.poll(() => readBody(B.userDir, ID), { timeout: WAIT }).toBe(BODY('Middle line as synced.'));
    for (const d of [A, B]) await writeNote(d, `Middle line edited on ${d.name.toUpperCase()}.`);
    for (const d of [A, B]) await coreReads(d, ID, `edited on ${d.name.toUpperCase()}`);
    await syncNow(A);
    await syncNow(B);
    await expect
      .poll(() => B.page.getByTestId('tab-conflicts').textContent(), { timeout: WAIT })
      .toContain('1');

    const page = B.page;
    await whereYouWork(page);
    await page.getByTestId('resolve-merge').click();
    await page.getByTestId('hand-merge').waitFor();
    await expect.poll(() => editor(page).textContent(), { timeout: WAIT }).toContain('edited on A');
    expect(await page.getByTestId('merge-draft-kept').count()).toBe(0);
    await page.getByTestId('merge-summary').fill(SUMMARY);
    await editor(page).click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type(MERGED);

    // Esc closes the hand merge; the draft stays.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('hand-merge').count()).toBe(0);
    await reopenShowsDraft(page);
    // Close, likewise.
    await page.getByTestId('merge-cancel').click();
    await expect.poll(() => page.getByTestId('hand-merge').count()).toBe(0);
    await reopenShowsDraft(page);
    // Another tab and back: the hand merge is open again, with the draft.
    await openTab(page, 'memory');
    await page.getByTestId('search').waitFor();
    await openTab(page, 'conflicts');
    await showsDraft(page);
    // A reload.
    await page.reload();
    await openTab(page, 'conflicts');
    await reopenShowsDraft(page);
    await screenshot(page, 'conflict-draft-01-kept-after-reload');

    // Discarding asks; Esc answers only the question, and the draft stays.
    await page.getByTestId('merge-discard').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await screenshot(page, 'conflict-draft-02-discard-asks');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('confirm-dialog').count()).toBe(0);
    expect(await page.getByTestId('hand-merge').count()).toBe(1);
    expect(await page.getByTestId('merge-summary').inputValue()).toBe(SUMMARY);

    // Another resolution over the kept draft asks first; cancelled, nothing is resolved.
    await page.getByTestId('resolve-local').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).last().click();
    await expect.poll(() => page.getByTestId('confirm-dialog').count()).toBe(0);
    expect(await page.getByTestId('conflict-detail').getAttribute('data-conflict-id')).toBe(ID);
    expect(await page.getByTestId('merge-summary').inputValue()).toBe(SUMMARY);

    // Saved: the conflict is resolved with the typed text and no draft is left behind.
    await whileCalling(page, 'sync.resolve', () => page.getByTestId('merge-save').click());
    await page.getByTestId('conflicts-empty').waitFor();
    expect(await readBody(B.userDir, ID)).toBe(MERGED);
    const left = await page.evaluate(() => localStorage.getItem('memdesk.drafts') ?? '');
    expect(left).not.toContain('sync:user:');
  });
});
