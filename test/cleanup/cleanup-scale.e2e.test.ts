import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedNotes, seedGeneratedNotes } from '../../electron/demo/seed.js';
import { closeDemoPage, openDemoPage, screenshot, WAIT, type DemoPage } from '../e2e/harness.js';

/**
 * 待整理 at scale, in Chromium against the real web bridge: 1,500 notes whose links all point at
 * notes that do not exist give 1,500 broken-link findings. The list is virtualised (a few dozen
 * rows in the DOM, the last finding reachable by scrolling), and a dismissed group comes back with
 * Ctrl+Z, also after a reload (the undo is on disk). (Besides, 1,141 unused and 61 same-topic findings.)
 */
const COUNT = 1500;
let demo: DemoPage;

beforeAll(async () => {
  demo = await openDemoPage(async (env) => {
    const notes = generatedNotes(COUNT, 'project').map((n) => ({
      ...n,
      body: n.body.replace(']]', '-gone]]'),
    }));
    await seedGeneratedNotes(env.projectDir, notes);
  });
  await demo.page.getByRole('tab', { name: /待整理/ }).click();
}, 180_000);

afterAll(() => closeDemoPage(demo));

const findingRows = () => demo.page.getByTestId('finding');
// Filtered to broken links, their heading is the list's first row (drawn whatever the other kinds hold).
async function brokenCount() {
  await demo.page.getByTestId('cleanup-kind-filter').selectOption('broken_link');
  return demo.page.getByTestId('findings-broken_link').locator('.count').textContent();
}

describe('待整理 with 1,500 findings', { timeout: 180_000 }, () => {
  it('draws only the rows in view; scrolling reaches the last finding', async () => {
    const { page } = demo;
    await expect.poll(brokenCount, { timeout: 120_000 }).toBe(String(COUNT + 1));
    const inDom = await findingRows().count();
    expect(inDom).toBeGreaterThan(3);
    expect(inDom).toBeLessThan(60);
    // All kinds (2,700 findings here): still a screenful in the DOM, and the end is reachable.
    await page.getByTestId('cleanup-kind-filter').selectOption('all');
    await page.getByTestId('findings-same_topic').waitFor();
    expect(await findingRows().count()).toBeLessThan(60);
    await page.getByTestId('findings-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
    // The last group is the last kind present; its last finding is drawn once scrolled to.
    await expect
      .poll(
        () =>
          page.getByTestId('findings-scroll').evaluate((el) => {
            const rows = [...el.querySelectorAll('[data-testid="finding"]')];
            const last = rows.at(-1)!.getBoundingClientRect();
            return last.bottom <= el.getBoundingClientRect().bottom + 1;
          }),
        { timeout: WAIT },
      )
      .toBe(true);
    expect(await findingRows().count()).toBeLessThan(60);
  });

  it('a toast never covers the findings: the last row in view can be clicked while it shows', async () => {
    const { page } = demo;
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.getByTestId('cleanup-kind-filter').selectOption('broken_link');
    const scroll = page.getByTestId('findings-scroll');
    // Whether the Dismiss button of the last finding in view is what a click there reaches.
    const lastRowClickable = () =>
      scroll.evaluate((el) => {
        const view = el.getBoundingClientRect();
        const rows = [...el.querySelectorAll('[data-testid="finding"]')].filter(
          (r) => r.getBoundingClientRect().top < view.bottom - 4,
        );
        const button = rows.at(-1)!.querySelector('[data-testid="finding-dismiss"]')!;
        const b = button.getBoundingClientRect();
        const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
        return hit === button || button.contains(hit);
      });
    await page.getByTestId('finding-dismiss').first().click();
    await page
      .getByTestId('toasts')
      .getByText(/Dismissed/)
      .waitFor();
    expect(await lastRowClickable()).toBe(true);
    await screenshot(page, 'cleanup-toast-last-row-1024');
    // Scrolled to the very end, a new toast does not push the last finding out of reach either.
    await page.keyboard.press('Control+z');
    await expect.poll(brokenCount, { timeout: WAIT }).toBe(String(COUNT + 1));
    await page.getByTestId('toasts').locator('button.icon').first().click();
    await scroll.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.waitForTimeout(300);
    await page.getByTestId('finding-dismiss').last().click();
    await page
      .getByTestId('toasts')
      .getByText(/Dismissed/)
      .waitFor();
    await page.waitForTimeout(300);
    expect(await lastRowClickable()).toBe(true);
    await screenshot(page, 'cleanup-toast-end-1024');
    await page.keyboard.press('Control+z');
    // The group's heading (its count) is the list's first row: back to the top to read it.
    await scroll.evaluate((el) => (el.scrollTop = 0));
    await expect.poll(brokenCount, { timeout: WAIT }).toBe(String(COUNT + 1));
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('a dismissed group of 1,501 comes back with Ctrl+Z, and stays back after a reload', async () => {
    const { page } = demo;
    await page.getByTestId('cleanup-kind-filter').selectOption('broken_link');
    await page.getByTestId('findings-broken_link').getByTestId('dismiss-group').click();
    await expect.poll(() => page.getByTestId('findings-broken_link').count(), { timeout: WAIT }).toBe(0);
    await page.getByTestId('toasts').getByText('Dismissed 1501.').waitFor();
    await page.keyboard.press('Control+z');
    await expect.poll(brokenCount, { timeout: WAIT }).toBe(String(COUNT + 1));
    await page.reload();
    await page.getByRole('tab', { name: /待整理/ }).click();
    await expect.poll(brokenCount, { timeout: 120_000 }).toBe(String(COUNT + 1));
  });
});
