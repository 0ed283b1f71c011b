import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openNoteIn, useDemoPage } from './harness.js';

/**
 * Where a dialog puts the focus when it opens (renderer/components/Dialog.tsx): on the element
 * marked data-autofocus even when another button comes before it — a confirmation's Cancel is
 * drawn before the button that goes ahead — except that a confirmation that throws something away
 * opens on Cancel; and back on what opened it when it closes.
 */
let page: Page;

useDemoPage((demo) => ({ page } = demo));

/** The focused element's data-testid, else its text. */
const focused = () =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el?.getAttribute('data-testid') ?? el?.textContent?.trim() ?? '';
  });

describe('dialog focus', { timeout: 120_000 }, () => {
  it('a confirmation that goes ahead harmlessly opens on its marked button, not on the Cancel before it', async () => {
    await openNoteIn(page, 'deploy-staging-44e');
    await page.getByTestId('dangling-link').filter({ hasText: 'release-checklist-9d1' }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    const buttons = dialog.getByRole('button');
    expect(await buttons.allTextContents()).toEqual(['Cancel', 'Write this note']);
    expect(await focused()).toBe('Write this note');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('a confirmation that throws something away opens on Cancel: Enter keeps the edit', async () => {
    await openNoteIn(page, 'deploy-staging-44e');
    await page.getByTestId('summary').fill('Deploy to staging — edited, not saved');
    await page.getByTestId('discard').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    const buttons = dialog.getByRole('button');
    expect(await buttons.allTextContents()).toEqual(['Cancel', 'Discard changes']);
    expect(await focused()).toBe('Cancel');

    // Tab stays inside: from the last button back to the first.
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Discard changes');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Cancel');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('Discard changes');
    await page.keyboard.press('Shift+Tab');

    // Enter on Cancel answers only the question: the edit stays, the focus goes back to what opened it.
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await page.getByTestId('summary').inputValue()).toBe('Deploy to staging — edited, not saved');
    expect(await focused()).toBe('discard');

    await page.getByTestId('discard').click();
    await dialog.getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
  });
});
