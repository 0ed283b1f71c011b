import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNote, serializeNote } from '../../shared/note-format.js';
import {
  ensureRendererBuilt,
  launchChromium,
  newPage,
  screenshot,
  startDemo,
  WAIT,
  type DemoEnv,
} from '../e2e/harness.js';

/**
 * The 待整理 tab in Chromium against the real web bridge and core over a temp home seeded with the
 * demo's sample notes (which include a same-topic pair, a broken link, a missing file, an unused and
 * a too-long note). Every check ends on the files on disk.
 */
let env: DemoEnv;
let browser: Browser;
let page: Page;

const PAIR = 'same_topic:project:pricing-borderless-3fa,pricing-cards-fill-7c2';
const BROKEN = 'broken_link:project:deploy-staging-44e';

const finding = (id: string) => page.locator(`[data-testid="finding"][data-finding-id="${id}"]`);

async function readNote(id: string) {
  const raw = await fs.readFile(path.join(env.projectDir, `${id}.md`), 'utf8').catch(() => null);
  if (raw === null) return null;
  const parsed = parseNote(raw);
  if (!parsed.ok) throw new Error(parsed.reason);
  return { ...parsed.note, createdAt: parsed.note.createdAt ?? 0, updatedAt: parsed.note.updatedAt ?? 0 };
}

beforeAll(async () => {
  ensureRendererBuilt();
  env = await startDemo();
  browser = await launchChromium();
  page = await newPage(browser);
  await page.goto(env.bridge.url);
  await page.getByRole('tab', { name: /待整理/ }).click();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await env?.close();
});

describe('待整理 tab in Chromium', { timeout: 120_000 }, () => {
  it('lists the seeded findings grouped by kind, with a count on the tab', async () => {
    await expect.poll(() => page.getByTestId('finding').count(), { timeout: WAIT }).toBe(5);
    for (const kind of ['same_topic', 'broken_link', 'missing_file', 'unused', 'too_long']) {
      expect(await page.getByTestId(`findings-${kind}`).count()).toBe(1);
    }
    expect(await page.getByRole('tab', { name: /待整理/ }).textContent()).toContain('5');
    // The same-topic pair's two summaries, each marked off from the other.
    expect(await finding(PAIR).locator('.finding-notes').innerText()).toMatch(
      /^Pricing cards use fills, not borders\s*·\s*Pricing cards: use background fills/,
    );
    await screenshot(page, 'cleanup-01-findings');
  });

  it('dismisses a finding, undoes it from the toast; dismissed again, it comes back after its note is edited', async () => {
    await finding(BROKEN).getByTestId('finding-dismiss').click();
    await expect.poll(() => finding(BROKEN).count(), { timeout: WAIT }).toBe(0);
    // The toast names the note by its summary and offers Undo; the undo is on disk (a reload keeps it).
    const toast = page.getByTestId('toasts').locator('.toast', { hasText: 'Dismissed' });
    expect(await toast.textContent()).toContain('Deploys to staging go through the release branch');
    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => finding(BROKEN).count(), { timeout: WAIT }).toBe(1);
    await page.reload();
    await page.getByRole('tab', { name: /待整理/ }).click();
    await expect.poll(() => finding(BROKEN).count(), { timeout: WAIT }).toBe(1);

    await finding(BROKEN).getByTestId('finding-dismiss').click();
    await expect.poll(() => finding(BROKEN).count(), { timeout: WAIT }).toBe(0);

    const note = (await readNote('deploy-staging-44e'))!;
    await fs.writeFile(
      path.join(env.projectDir, 'deploy-staging-44e.md'),
      serializeNote({ ...note, body: note.body + '\nEdited by an agent.' }),
    );
    await page.reload();
    await page.getByRole('tab', { name: /待整理/ }).click();
    await expect.poll(() => finding(BROKEN).count(), { timeout: WAIT }).toBe(1);
  });

  it('merges the seeded duplicates: originals side by side, manual draft edited, preview, apply', async () => {
    const before = await Promise.all(['pricing-borderless-3fa', 'pricing-cards-fill-7c2'].map(readNote));
    const [first, second] = before;
    if (!first || !second) throw new Error('the demo seed lacks its duplicate pair');
    const [oldest, other] = first.createdAt <= second.createdAt ? [first, second] : [second, first];

    await finding(PAIR).getByTestId('finding-merge').click();
    const editor = page.getByTestId('merge-editor');
    await expect.poll(() => editor.getByTestId('merge-original').count(), { timeout: WAIT }).toBe(2);
    // No model configured in the demo: 生成合并建议 is disabled with its one-line reason.
    expect(await editor.getByTestId('draft-model').isDisabled()).toBe(true);
    expect(await editor.getByTestId('model-reason').textContent()).toMatch(/No model is configured/);
    expect(await editor.getByTestId('merge-summary').inputValue()).toBe(oldest.summary);
    expect(await editor.getByTestId('merge-preview').textContent()).toContain(
      `Keeps ${oldest.id}; deletes ${other.id}.`,
    );
    // What applying does is in view without scrolling.
    const preview = (await editor.getByTestId('merge-preview').boundingBox())!;
    expect(preview.y + preview.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    await screenshot(page, 'cleanup-02-merge-editor');

    await editor.getByTestId('merge-summary').fill('Pricing cards: fills, never borders');
    await editor.getByTestId('merge-apply').click();
    // Applying asks first, saying what it will do.
    const confirm = page.getByTestId('confirm-dialog');
    expect(await confirm.textContent()).toContain(`Keeps ${oldest.id}; deletes ${other.id}.`);
    await confirm.getByRole('button', { name: 'Apply merge' }).click();
    await expect.poll(() => page.getByTestId('merge-editor').count(), { timeout: WAIT }).toBe(0);
    await expect.poll(() => finding(PAIR).count(), { timeout: WAIT }).toBe(0);

    const kept = await readNote(oldest.id);
    expect(kept!.summary).toBe('Pricing cards: fills, never borders');
    expect(kept!.body).toContain(`## ${other.summary}`); // the manual draft joined both originals
    expect(await readNote(other.id)).toBeNull();
    const backups = await fs.readdir(path.join(env.home, 'memory-backups'));
    expect(backups.some((b) => b.includes(other.id))).toBe(true);
    await expect
      .poll(() => page.getByTestId('toasts').textContent())
      .toContain('Merged into “Pricing cards: fills, never borders”: 1 deleted');
    await screenshot(page, 'cleanup-03-after-merge');

    // One step back, from the backups the merge wrote.
    await page.getByTestId('toasts').getByRole('button', { name: 'Undo' }).click();
    await expect
      .poll(() => readNote(other.id).then((n) => n?.summary), { timeout: WAIT })
      .toBe(other.summary);
    await expect
      .poll(() => readNote(oldest.id).then((n) => n?.summary), { timeout: WAIT })
      .toBe(oldest.summary);
    await expect.poll(() => finding(PAIR).count(), { timeout: WAIT }).toBe(1);
  });

  it('names notes by summary, filters by kind and scope, dismisses a whole group', async () => {
    expect(await finding(PAIR).textContent()).toContain('Pricing cards use fills, not borders');
    await page.getByTestId('cleanup-kind-filter').selectOption('too_long');
    await expect.poll(() => page.getByTestId('finding').count()).toBe(1);
    await page.getByTestId('cleanup-kind-filter').selectOption('all');
    const all = await page
      .getByTestId('finding')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-finding-id') ?? ''));
    await page.getByTestId('cleanup-scope-filter').selectOption('user');
    await expect
      .poll(() => page.getByTestId('finding').count())
      .toBe(all.filter((id) => id.split(':')[1] === 'user').length);
    await page.getByTestId('cleanup-scope-filter').selectOption('both');
    await page.getByTestId('findings-unused').getByTestId('dismiss-group').click();
    await expect.poll(() => page.getByTestId('findings-unused').count(), { timeout: WAIT }).toBe(0);
  });
});
