import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serializeNote } from '../../shared/note-format.js';
import { SAMPLE_NOTES } from '../../electron/demo/sample-notes.js';
import { openNoteIn, row, screenshot, useDemoPage, WAIT, type DemoEnv } from './harness.js';

/**
 * Issue 17, "find as you type" and "links and navigation", in Chromium against the real bridge and
 * core over the demo's sample notes plus 230 generated ones (enough to pass the first page of hits).
 */
let env: DemoEnv;
let page: Page;
const EXTRA = 230;

const ids = () =>
  page.locator('[role="option"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-note-id')));

async function search(text: string) {
  await page.getByTestId('search').fill(text);
}

const openNote = (id: string) => openNoteIn(page, id);

/** The extra notes, written before the page opens. */
async function widgets(demo: DemoEnv): Promise<void> {
  const at = Date.UTC(2025, 0, 1);
  for (let i = 0; i < EXTRA; i++) {
    await fs.writeFile(
      path.join(demo.projectDir, `widget-${i}.md`),
      serializeNote({
        id: `widget-${i}`,
        summary: `Widget catalogue entry ${i}`,
        tags: ['widgets'],
        createdAt: at + i,
        updatedAt: at + i,
        body: `Widget number ${i} of the catalogue.\n`,
      }),
    );
  }
}

useDemoPage((demo) => ({ env, page } = demo), widgets);

describe('find as you type', { timeout: 120_000 }, () => {
  it('lists the generated notes too', async () => {
    await expect
      .poll(() => page.getByTestId('list-count').textContent(), { timeout: WAIT })
      .toBe(`${SAMPLE_NOTES.length + EXTRA} notes`);
  });

  it('matches the word being typed as a prefix, and one typo in a longer word', async () => {
    for (const q of ['d', 'dep', 'deplo']) {
      await search(q);
      await expect.poll(ids, { timeout: WAIT }).toContain('deploy-staging-44e');
    }
    await screenshot(page, 'find-01-prefix');
    await search('stagign');
    await expect.poll(ids, { timeout: WAIT }).toContain('deploy-staging-44e');
  });

  it('puts the note whose id was typed first', async () => {
    await search('ci-pipeline-6d4');
    await expect.poll(async () => (await ids())[0], { timeout: WAIT }).toBe('ci-pipeline-6d4');
  });

  it('says that more notes match than are shown, and shows them on request', async () => {
    await search('widget');
    await expect
      .poll(() => page.getByTestId('list-count').textContent(), { timeout: WAIT })
      .toBe('The best 50 notes — more match');
    await screenshot(page, 'find-02-more');
    await page.getByTestId('show-more').click();
    await expect
      .poll(() => page.getByTestId('list-count').textContent(), { timeout: WAIT })
      .toBe('The best 100 notes — more match');
    // Scrolled to the end, the list asks for the next hits until all are there.
    const list = page.getByTestId('note-list');
    await expect
      .poll(
        async () => {
          await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
          return page.getByTestId('list-count').textContent();
        },
        { timeout: WAIT },
      )
      .toBe(`${EXTRA} notes`);
    await search('');
  });

  it('filters by a tag being typed, with suggestions, and by a clicked #tag chip', async () => {
    await page.getByTestId('tag-filter').fill('pri');
    await expect
      .poll(() => page.getByTestId('list-count').textContent())
      .toBe(`${SAMPLE_NOTES.filter((n) => n.tags.includes('pricing')).length} notes`);
    expect(await page.locator('#tag-options option[value="pricing"]').count()).toBe(1);
    await page.getByTestId('tag-filter').fill('');
    await search('vim');
    await row(page, 'editor-vim-keys-5d6').getByTestId('tag-chip').filter({ hasText: '#tooling' }).click();
    expect(await page.getByTestId('tag-filter').inputValue()).toBe('tooling');
    await search('');
    await expect
      .poll(() => page.getByTestId('list-count').textContent())
      .toBe(`${SAMPLE_NOTES.filter((n) => n.tags.includes('tooling')).length} notes`);
    await page.getByTestId('tag-filter').fill('');
  });

  it('opens any note from the quick switcher (Ctrl+P, Ctrl+O), keyboard only', async () => {
    await page.getByTestId('list-count').click();
    await page.keyboard.press('Control+p');
    await page.getByTestId('switcher-input').waitFor();
    await page.keyboard.type('vimkeys');
    await expect
      .poll(() => page.locator('#switcher-list [role="option"]').first().getAttribute('data-note-id'))
      .toBe('editor-vim-keys-5d6');
    await screenshot(page, 'find-03-switcher');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('note-id').textContent()).toBe('editor-vim-keys-5d6');
    expect(await page.getByTestId('quick-switcher').count()).toBe(0);
    // The chosen note has the focus (its summary), not the field focused before the switcher.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await expect.poll(focused, { timeout: WAIT }).toBe('summary');

    await page.getByTestId('tab-backups').click();
    await page.keyboard.press('Control+o');
    await page.keyboard.type('cipipe');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('note-id').textContent()).toBe('ci-pipeline-6d4');
    await expect.poll(focused, { timeout: WAIT }).toBe('summary');
    await page.keyboard.press('Control+o');
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('quick-switcher').count()).toBe(0);
  });
});

describe('links and navigation', { timeout: 120_000 }, () => {
  it('goes back and forward through followed links (Alt+←/→ and the arrows); the list follows', async () => {
    await openNote('ci-pipeline-6d4');
    await page.getByTestId('link').filter({ hasText: 'deploy-staging-44e' }).click();
    await expect.poll(() => page.getByTestId('note-id').textContent()).toBe('deploy-staging-44e');
    expect(await row(page, 'deploy-staging-44e').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Alt+ArrowLeft');
    await expect.poll(() => page.getByTestId('note-id').textContent()).toBe('ci-pipeline-6d4');
    expect(await row(page, 'ci-pipeline-6d4').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(() => page.getByTestId('note-id').textContent()).toBe('deploy-staging-44e');
    await page.getByTestId('nav-back').click();
    await expect.poll(() => page.getByTestId('note-id').textContent()).toBe('ci-pipeline-6d4');
    await page.getByTestId('nav-forward').click();
    await expect.poll(() => page.getByTestId('note-id').textContent()).toBe('deploy-staging-44e');
  });

  it('offers to write the note a broken link names', async () => {
    await page.getByTestId('dangling-link').filter({ hasText: 'release-checklist-9d1' }).click();
    await page.getByTestId('confirm-dialog').waitFor();
    await screenshot(page, 'find-04-broken-link');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Write this note' }).click();
    await page.getByTestId('new-note-form').waitFor();
    expect(await page.getByTestId('new-id').inputValue()).toBe('release-checklist-9d1');
    await page.getByTestId('new-summary').fill('Release checklist');
    await page.getByTestId('create').click();
    await expect
      .poll(
        () =>
          fs.stat(path.join(env.projectDir, 'release-checklist-9d1.md')).then(
            () => true,
            () => false,
          ),
        {
          timeout: WAIT,
        },
      )
      .toBe(true);
  });
});
