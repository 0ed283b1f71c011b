import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, useDemoPage, WAIT } from './harness.js';

/**
 * Issue 17's quick switcher, as seen: opened while the notes were still loading it said "No note
 * matches"; the top of its field's focus ring was cut off by the dialog's scrolling body. The ring
 * of the focused field must show whole inside every box that clips it, at both window sizes and in
 * both languages.
 */
let page: Page;

useDemoPage((demo) => ({ page } = demo));

/** How far the focused element's outline reaches past each side of the nearest box that clips it. */
function ringCut(p: Page) {
  return p.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const cs = getComputedStyle(el);
    const ring = cs.outlineStyle === 'none' ? 0 : parseFloat(cs.outlineWidth) + parseFloat(cs.outlineOffset);
    const r = el.getBoundingClientRect();
    let clip: HTMLElement | null = el.parentElement;
    while (clip && getComputedStyle(clip).overflow === 'visible') clip = clip.parentElement;
    if (!clip) return { testId: el.dataset.testid ?? '', ring, cut: 0 };
    const c = clip.getBoundingClientRect();
    // The inside of the clipping box: its padding box (borders excluded).
    const inner = {
      top: c.top + clip.clientTop,
      left: c.left + clip.clientLeft,
      bottom: c.top + clip.clientTop + clip.clientHeight,
      right: c.left + clip.clientLeft + clip.clientWidth,
    };
    const cut = Math.max(
      0,
      inner.top - (r.top - ring),
      inner.left - (r.left - ring),
      r.bottom + ring - inner.bottom,
      r.right + ring - inner.right,
    );
    return { testId: el.dataset.testid ?? '', ring, cut };
  });
}

describe('the quick switcher', { timeout: 120_000 }, () => {
  it('says it is loading, not that nothing matches, while the notes are on their way', async () => {
    // The page's notes.list answers are held back until the switcher has been looked at.
    const held: Route[] = [];
    const hold = (route: Route) => {
      if ((route.request().postData() ?? '').includes('"method":"notes.list"')) held.push(route);
      else void route.continue();
    };
    await page.route('**/api/invoke', hold);
    await page.reload();
    await page.getByTestId('search').waitFor();
    await expect.poll(() => held.length, { timeout: WAIT }).toBeGreaterThan(0);
    try {
      await page.keyboard.press('Control+o');
      await page.getByTestId('switcher-input').waitFor();
      await page.keyboard.type('dep');
      await page.getByTestId('switcher-loading').waitFor();
      expect(await page.getByTestId('switcher-none').count()).toBe(0);
    } finally {
      // Released whatever happened: the next test needs the page.
      for (const route of held) await route.continue();
      await page.unroute('**/api/invoke', hold);
    }
    await page.locator('[data-testid="quick-switcher"] [data-note-id="deploy-staging-44e"]').waitFor();
    expect(await page.getByTestId('switcher-loading').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('quick-switcher').count()).toBe(0);
  });

  it('shows its whole focus ring at 1280×800 and 1024×700, in English and Chinese', async () => {
    for (const locale of ['en', 'zh'] as const) {
      await page.getByTestId('locale').selectOption(locale);
      for (const [width, height] of [
        [1280, 800],
        [1024, 700],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.getByTestId('search').focus();
        await page.keyboard.press('Control+o');
        await page.getByTestId('quick-switcher').waitFor();
        await expect
          .poll(() => ringCut(page).then((r) => r.testId), { timeout: WAIT })
          .toBe('switcher-input');
        await page.keyboard.type('dep');
        await screenshot(page, `switcher-${locale}-${width}`);
        const { ring, cut } = await ringCut(page);
        expect(ring).toBeGreaterThan(0);
        expect(cut).toBe(0);
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByTestId('quick-switcher').count()).toBe(0);
      }
    }
  });
});
