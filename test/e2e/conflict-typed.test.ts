import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeNote } from '../../shared/note-format.js';
import { startTestServer, type TestServer } from '../sync/harness.js';
import {
  englishWords,
  ensureRendererBuilt,
  launchChromium,
  openNoteIn,
  screenshot,
  WAIT,
} from './harness.js';
import {
  closeDevices,
  openTab,
  readBody,
  signIn,
  startDevice,
  syncNow,
  whileCalling,
  type Device,
} from './sync-devices.js';

/**
 * A sync conflict made and resolved the way a person does it, in Chromium: two devices (two web
 * bridges over two temp homes) and the real sync server on loopback. The same line of one note is
 * edited by typing in each device's editor and saved with Ctrl+S; both sync; the device that syncs
 * second gets the conflict, opens 手动合并 in the three-pane view, types the merged text in its
 * editor (CodeMirror) and saves; after syncing, both devices hold exactly the typed text.
 */
const PROJECT_ID = 'e2e-typed-conflict-0001';
const ID = 'typed-conflict';
const BODY = (middle: string) => `First line stays.\n${middle}\nLast line stays.\n`;
const TYPED = 'First line stays.\nMiddle line: both edits, merged by hand.\nLast line stays.\n';

let server: TestServer;
let browser: Browser;
let A: Device;
let B: Device;
let token: string;

/** Replaces the middle line of the open note by typing in its editor, then saves with Ctrl+S. */
async function typeMiddleLine(page: Page, text: string): Promise<void> {
  const editor = page.locator('.cm-content');
  await editor.locator('.cm-line').nth(1).click();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+End');
  await page.keyboard.type(text);
  await page.keyboard.press('Control+s');
  await expect.poll(() => page.getByTestId('unsaved').count(), { timeout: WAIT }).toBe(0);
}

/**
 * Issue 17's polish where conflicts are resolved: the merge text in the text colour (not greyed as
 * if disabled), toasts beside the panes, never over them (the round's toast is up now, and the
 * toasts sit in the page's flow whenever they come), and no English word in the Chinese UI.
 */
async function polishOfTheConflictView(page: Page): Promise<void> {
  const look = await page.evaluate(() => {
    // What shows of an element: its box inside the tab's scrolling panel.
    const panel = document.querySelector('.tab-panel')!.getBoundingClientRect();
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return {
        left: r.left,
        right: r.right,
        top: Math.max(r.top, panel.top),
        bottom: Math.min(r.bottom, panel.bottom),
      };
    };
    const overlaps = (a: ReturnType<typeof box>, b: ReturnType<typeof box>) =>
      a.top < a.bottom &&
      b.top < b.bottom &&
      a.left < b.right &&
      b.left < a.right &&
      a.top < b.bottom &&
      b.top < a.bottom;
    const panes = [
      ...document.querySelectorAll('[data-testid="three-pane"] .pane, [data-testid="hand-merge"]'),
    ];
    const toasts = [...document.querySelectorAll('.toast')];
    return {
      merge: getComputedStyle(document.querySelector('[data-testid="hand-merge"] .cm-line')!).color,
      text: getComputedStyle(document.querySelector('[data-testid="merge-summary"]')!).color,
      panes: panes.length,
      labels: [
        ...document.querySelectorAll('[data-testid="hand-merge"] .fields > label, .merge-body-label'),
      ].map((l) => l.textContent),
      toastsOverPanes: toasts.filter((t) => panes.some((p) => overlaps(box(t), box(p)))).length,
      toastsPosition: getComputedStyle(document.querySelector('.toasts') ?? document.body).position,
    };
  });
  await screenshot(page, 'conflict-typed-panes-en');
  expect(look.merge).toBe(look.text);
  expect(look.labels).toEqual(['Summary', 'Type', 'Tags', 'Body']);
  expect(look.panes).toBeGreaterThan(0);
  expect(look.toastsOverPanes).toBe(0);
  expect(['static', 'relative']).toContain(look.toastsPosition);
  // Toasts closed first, so that only the page is checked (toasts switching language: status-and-keyboard).
  // Always the first one: `.all()` pins nth(i) locators, and a closed toast shifts the rest.
  const closeButtons = page.getByTestId('toasts').getByRole('button', { name: 'Close' });
  while ((await closeButtons.count()) > 0) await closeButtons.first().click();
  await page.getByTestId('locale').selectOption('zh');
  await expect.poll(() => page.getByTestId('tab-conflicts').textContent()).toContain('冲突');
  expect(await englishWords(page)).toEqual([]);
  await screenshot(page, 'conflict-typed-panes-zh');
  await page.getByTestId('locale').selectOption('en');
}

/** The hand-merge editor's conflict-marker lines, as shown. */
function markerLines(page: Page): Promise<string[]> {
  return page.locator('[data-testid="hand-merge"] .cm-conflict-marker').allTextContents();
}

beforeAll(async () => {
  ensureRendererBuilt();
  browser = await launchChromium();
  server = await startTestServer();
  token = await server.token('alice', 'free');
  [A, B] = await Promise.all([
    startDevice(browser, PROJECT_ID, 'a', { seed: false, project: true, autoStart: false }),
    startDevice(browser, PROJECT_ID, 'b', { seed: false, project: true, autoStart: false }),
  ]);
  // The note both devices start from (written before A's page lists it, then synced to B).
  await fs.writeFile(
    path.join(A.userDir, `${ID}.md`),
    serializeNote({
      id: ID,
      summary: 'A note edited on two computers',
      type: 'reference',
      tags: ['e2e'],
      createdAt: 1,
      updatedAt: 1,
      body: BODY('Middle line as synced.'),
    }),
  );
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await closeDevices([A, B]);
  await server?.close();
});

describe('a conflict resolved by typing', { timeout: 180_000 }, () => {
  it('typed on both devices, merged by typing in the three-pane editor; both devices end with the typed text', async () => {
    await signIn(A, server.url, token);
    await signIn(B, server.url, token);
    await syncNow(A);
    await syncNow(B);
    await expect.poll(() => readBody(B.userDir, ID), { timeout: WAIT }).toBe(BODY('Middle line as synced.'));
    for (const [d, text] of [
      [A, 'Middle line typed on A.'],
      [B, 'Middle line typed on B.'],
    ] as const) {
      await openTab(d.page, 'memory');
      await openNoteIn(d.page, ID);
      await typeMiddleLine(d.page, text);
      await expect.poll(() => readBody(d.userDir, ID), { timeout: WAIT }).toBe(BODY(text));
    }
    await syncNow(A);
    await syncNow(B);

    await expect
      .poll(() => B.page.getByTestId('tab-conflicts').textContent(), { timeout: WAIT })
      .toContain('1');
    await openTab(B.page, 'conflicts');
    await expect
      .poll(() => B.page.getByTestId('conflict-detail').getAttribute('data-conflict-id'), { timeout: WAIT })
      .toBe(ID);
    await B.page.getByTestId('resolve-merge').click();
    await B.page.getByTestId('hand-merge').waitFor();
    const editor = B.page.locator('[data-testid="hand-merge"] .cm-content');
    // Seeded with both sides between conflict markers; saving waits until they are gone.
    await expect.poll(() => editor.textContent(), { timeout: WAIT }).toContain('typed on A');
    expect(await editor.textContent()).toContain('typed on B');
    expect(await B.page.getByTestId('merge-save').isDisabled()).toBe(true);
    await polishOfTheConflictView(B.page);
    // Started in English: the core's markers, and a word typed before switching to Chinese.
    expect(await markerLines(B.page)).toEqual([
      '<<<<<<< this computer',
      '||||||| last synced',
      '=======',
      '>>>>>>> cloud',
    ]);
    await editor.locator('.cm-line').first().click();
    await B.page.keyboard.press('End');
    await B.page.keyboard.type(' (typed in English)');
    await B.page.getByTestId('locale').selectOption('zh');
    // Finished in Chinese: the same draft, its markers in Chinese, still read as markers.
    await expect
      .poll(() => markerLines(B.page), { timeout: WAIT })
      .toEqual(['<<<<<<< 这台电脑', '||||||| 上次同步', '=======', '>>>>>>> 云端']);
    expect(await editor.textContent()).toContain('First line stays. (typed in English)');
    expect(await B.page.getByTestId('merge-markers-left').textContent()).toBe('保存前请删除冲突标记。');
    expect(await B.page.getByTestId('merge-save').isDisabled()).toBe(true);
    await screenshot(B.page, 'conflict-typed-markers-zh');
    await editor.click();
    await B.page.keyboard.press('Control+a');
    await B.page.keyboard.type(TYPED);
    await expect.poll(() => B.page.getByTestId('merge-save').isEnabled()).toBe(true);
    await screenshot(B.page, 'conflict-typed-merge');
    await whileCalling(B.page, 'sync.resolve', () => B.page.getByTestId('merge-save').click());
    await B.page.getByTestId('conflicts-empty').waitFor();
    await B.page.getByTestId('locale').selectOption('en');

    await syncNow(B);
    await syncNow(A);
    expect(await readBody(B.userDir, ID)).toBe(TYPED);
    await expect.poll(() => readBody(A.userDir, ID), { timeout: WAIT }).toBe(TYPED);
    // And A's page shows it: the note's editor holds the typed text.
    await openTab(A.page, 'memory');
    await openNoteIn(A.page, ID);
    await expect
      .poll(() => A.page.locator('.cm-content').textContent(), { timeout: WAIT })
      .toContain('both edits, merged by hand');
    await screenshot(A.page, 'conflict-typed-converged-a');
  });
});
