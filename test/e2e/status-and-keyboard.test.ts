import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { row, screenshot, WAIT, type DemoEnv, useDemoPage } from './harness.js';

/**
 * Issue 17, "sync state where you work" and "keyboard and screen readers", in Chromium against the
 * real bridge and core (signed out of sync, as the demo starts).
 */
let env: DemoEnv;
let page: Page;

const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.getAttribute('data-testid') ?? el?.className ?? '';
  });

useDemoPage((demo) => ({ env, page } = demo));

describe('status bar and keyboard', { timeout: 120_000 }, () => {
  it('shows the sync state on every page, and never "on" while signed out', async () => {
    for (const tab of ['memory', 'cleanup', 'conflicts', 'sync', 'backups']) {
      await page.getByTestId(`tab-${tab}`).click();
      await page.getByTestId('status-bar').waitFor();
      await expect
        .poll(() => page.getByTestId('status-sync').textContent(), { timeout: WAIT })
        .not.toBe('Sync: …');
      expect(await page.getByTestId('status-sync').textContent()).not.toBe('Cloud sync on');
      expect(await page.getByTestId('status-last-synced').textContent()).toBe('Last synced: never');
    }
    // The Sync tab: one label on the switch, and no "Cloud sync is on" while signed out.
    await page.getByTestId('tab-sync').click();
    await page.getByTestId('sync-signed-out').waitFor();
    const label = await page.getByTestId('sync-toggle').textContent();
    for (const checked of ['false', 'true']) {
      if ((await page.getByTestId('sync-toggle').getAttribute('aria-checked')) !== checked)
        await page.getByTestId('sync-toggle').click();
      await expect
        .poll(() => page.getByTestId('sync-toggle').getAttribute('aria-checked'), { timeout: WAIT })
        .toBe(checked);
      // Switched on or off, signed out nothing says that sync is on ("… is on, but …" included).
      expect(await page.getByTestId('sync-state').textContent()).not.toMatch(/\bon\b/i);
      expect(await page.getByTestId('sync-toggle').textContent()).toBe(label);
    }
    await screenshot(page, 'status-01-sync-signed-out');
    await page.getByTestId('tab-memory').click();
  });

  it('Tab after the list goes to the summary; labels tell the editor region from the body field', async () => {
    await page.getByRole('listbox').focus();
    await page.keyboard.press('Home');
    await page.getByTestId('note-editor').waitFor();
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('summary');
    expect(await page.locator('.editor-pane').getAttribute('aria-label')).toBe('Note editor');
    expect(await page.locator('.cm-content').getAttribute('aria-label')).toBe('Body');
  });

  it('Ctrl+M makes Tab leave the text editor (shown in the status bar); Tab indents otherwise', async () => {
    const firstId = await page.getByTestId('note-id').textContent();
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Tab');
    // Indenting changed the text: the note is unsaved, focus stayed in the editor.
    await expect.poll(() => page.getByTestId('unsaved').count()).toBe(1);
    expect(await page.evaluate(() => !!document.activeElement?.closest('.cm-editor'))).toBe(true);
    await page.getByTestId('discard').click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Discard changes' }).click();

    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+m');
    await expect.poll(() => page.getByTestId('status-tab-focus').textContent()).toBe('Tab moves focus');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('.cm-editor'))).toBe(false);
    expect(await page.getByTestId('unsaved').count()).toBe(0);
    await screenshot(page, 'status-02-tab-moves-focus');
    await page.getByTestId('status-tab-focus').click();
    expect(await page.getByTestId('status-tab-focus').textContent()).toBe('Tab indents');
    expect(await page.getByTestId('note-id').textContent()).toBe(firstId);
  });

  it('lets the warnings bar be closed; the status bar keeps the count and opens it again', async () => {
    await fs.writeFile(path.join(env.projectDir, 'broken-by-hand.md'), 'no frontmatter here\n');
    await expect
      .poll(() => env.bridge.context.core.warnings().some((w) => w.path?.endsWith('broken-by-hand.md')), {
        timeout: WAIT,
      })
      .toBe(true);
    await page.reload();
    await page.getByTestId('warnings').waitFor();
    await page.getByTestId('warnings-hide').click();
    expect(await page.getByTestId('warnings').count()).toBe(0);
    expect(await page.getByTestId('status-warnings').textContent()).toBe('1 warning');
    await screenshot(page, 'status-03-warnings-hidden');
    await page.getByTestId('status-warnings').click();
    await page.getByTestId('warnings').waitFor();
    await fs.rm(path.join(env.projectDir, 'broken-by-hand.md'));
  });

  it('keeps toasts off the editor and the list', async () => {
    await row(page, 'timezone-cet-1f2').locator('.note-row-summary').click();
    await page.getByTestId('delete').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('toasts').textContent()).toContain('Deleted');
    const editor = (await page.locator('.editor-pane').boundingBox())!;
    const toast = (await page.locator('.toast').first().boundingBox())!;
    expect(toast.y).toBeGreaterThanOrEqual(editor.y + editor.height - 1);
    await screenshot(page, 'status-04-toast-beside-editor');
    // A toast is worded in the language shown now, also one that came before the switch.
    await page.getByTestId('locale').selectOption('zh');
    await expect.poll(() => page.getByTestId('toasts').textContent()).toContain('已删除');
    expect(await page.getByTestId('toasts').textContent()).not.toContain('Deleted');
    await page.getByTestId('toasts').getByRole('button', { name: '撤销' }).waitFor();
    await screenshot(page, 'status-05-toast-after-switch-zh');
    await page.getByTestId('locale').selectOption('en');
    await page.getByTestId('toasts').getByRole('button', { name: 'Undo' }).click();
    await expect
      .poll(() => page.getByTestId('note-id').textContent(), { timeout: WAIT })
      .toBe('timezone-cet-1f2');
  });
});
