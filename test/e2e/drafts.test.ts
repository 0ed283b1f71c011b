import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serializeNote } from '../../shared/note-format.js';
import { openNoteIn, readNoteFile, row, screenshot, useDemoPage, WAIT, type DemoEnv } from './harness.js';

/**
 * Issue 17, "never lose a draft", in Chromium against the real bridge and core: every way work used
 * to disappear (another note clicked, Esc in the merge editor, 手动合并 over a hand-edited draft,
 * "keep mine" over an agent's edit, a reload) keeps it now. Checks end on the files on disk.
 */
let env: DemoEnv;
let page: Page;

const openNote = (id: string) => openNoteIn(page, id);

useDemoPage((demo) => ({ env, page } = demo));

describe('drafts are never lost', { timeout: 120_000 }, () => {
  it('keeps a half-written new note when another note is clicked, and across a reload', async () => {
    await page.keyboard.press('Control+n');
    await page.getByTestId('new-note-form').waitFor();
    await page.getByTestId('new-summary').fill('Release notes go out on Fridays');
    await page.getByTestId('new-body').fill('Half written: who approves them?');
    await openNote('ci-pipeline-6d4');
    // The button that brings it back says a draft is kept (before: nothing told it was not lost).
    await page.getByTestId('new-note-draft-mark').waitFor();
    expect(await page.getByTestId('new-note').getAttribute('title')).toBe(
      'A new note you started is kept as a draft',
    );
    await screenshot(page, 'drafts-00-new-note-draft-mark');
    await page.getByTestId('new-note').click();
    expect(await page.getByTestId('new-summary').inputValue()).toBe('Release notes go out on Fridays');
    await page.reload();
    await page.getByTestId('new-note-draft-mark').waitFor();
    await page.getByTestId('new-note').click();
    expect(await page.getByTestId('new-body').inputValue()).toBe('Half written: who approves them?');
    await screenshot(page, 'drafts-01-new-note-kept');
    // Ctrl+S in the form creates it: the file is on disk and the form's draft is gone.
    await page.getByTestId('new-id').fill('release-fridays-e2e');
    await page.getByTestId('new-body').press('Control+s');
    await expect
      .poll(() => readNoteFile(env.projectDir, 'release-fridays-e2e').then((n) => n.summary), {
        timeout: WAIT,
      })
      .toBe('Release notes go out on Fridays');
    await expect.poll(() => page.getByTestId('note-id').textContent()).toBe('release-fridays-e2e');
    expect(await page.getByTestId('new-note-draft-mark').count()).toBe(0);
    await page.getByTestId('new-note').click();
    expect(await page.getByTestId('new-summary').inputValue()).toBe('');
  });

  it("keeps an open note's draft across other notes and a reload, until discarded", async () => {
    await openNote('tests-real-db-2aa');
    await page.getByTestId('summary').fill('Tests use a real Postgres — draft');
    await openNote('ci-pipeline-6d4');
    // Nothing written, nothing asked; the list marks the note that holds a draft.
    expect((await readNoteFile(env.projectDir, 'tests-real-db-2aa')).summary).toBe(
      'Tests use a real Postgres in Docker, no mocks of the repository layer',
    );
    expect(await row(page, 'tests-real-db-2aa').getByTestId('draft-mark').count()).toBe(1);
    await page.reload();
    await openNote('tests-real-db-2aa');
    expect(await page.getByTestId('summary').inputValue()).toBe('Tests use a real Postgres — draft');
    expect(await page.getByTestId('unsaved').count()).toBe(1);
    await screenshot(page, 'drafts-02-note-draft-kept');
    await page.getByTestId('discard').click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Discard changes' }).click();
    expect(await page.getByTestId('summary').inputValue()).toBe(
      'Tests use a real Postgres in Docker, no mocks of the repository layer',
    );
    await expect.poll(() => row(page, 'tests-real-db-2aa').getByTestId('draft-mark').count()).toBe(0);
  });

  it('"keep mine" backs up the version on disk before replacing it', async () => {
    await openNote('build-commands-1b0');
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nMy local edit.');
    const note = await readNoteFile(env.projectDir, 'build-commands-1b0');
    const now = Date.now();
    await fs.writeFile(
      path.join(env.projectDir, 'build-commands-1b0.md'),
      serializeNote({
        ...note,
        body: note.body + '\nAn agent added this line.\n',
        createdAt: note.createdAt ?? now,
        updatedAt: now,
      }),
    );
    await page.getByTestId('disk-conflict').getByRole('button').click();
    await page.getByTestId('keep-mine').click();
    await expect
      .poll(async () => (await readNoteFile(env.projectDir, 'build-commands-1b0')).body, { timeout: WAIT })
      .toContain('My local edit.');
    // The agent's version is in the backups, with a reason.
    const backups = await env.bridge.context.core.user.backups.list(50);
    const entry = backups.find((b) => b.noteId === 'build-commands-1b0');
    expect(entry?.reason).toContain('keep mine');
    const { content } = await env.bridge.context.core.user.backups.get(entry!.id);
    expect(content).toContain('An agent added this line.');
  });

  it('says in words what is wrong with a field, next to it', async () => {
    await openNote('ci-pipeline-6d4');
    await page.getByTestId('summary').fill('');
    await page.getByTestId('save').click();
    await expect
      .poll(() => page.getByTestId('summary-error').textContent())
      .toBe('Write a summary: one line that says what the note is about.');
    expect(await page.locator('body').textContent()).not.toContain('Too small');
    await screenshot(page, 'drafts-03-field-error');
    await page.getByTestId('discard').click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Discard changes' }).click();
  });

  it('warns of a probable duplicate before creating, with a way to open the existing note', async () => {
    const existing = await readNoteFile(env.projectDir, 'ci-pipeline-6d4');
    await page.getByTestId('new-note').click();
    await page.getByTestId('new-summary').fill(existing.summary);
    await page.getByTestId('new-body').fill(existing.body);
    await page.getByTestId('create').click();
    await page.getByTestId('duplicate-warning').waitFor();
    await screenshot(page, 'drafts-04-duplicate');
    const files = await fs.readdir(env.projectDir);
    await page.getByTestId('open-duplicate').click();
    await expect.poll(() => page.getByTestId('note-id').textContent()).toBe('ci-pipeline-6d4');
    // Nothing was written.
    expect(await fs.readdir(env.projectDir)).toEqual(files);
    await page.getByTestId('new-note').click();
    await page.getByTestId('new-discard').click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Discard draft' }).click();
    expect(await page.getByTestId('new-summary').inputValue()).toBe('');
  });

  it('keeps the merge draft through Esc and asks before 手动合并 replaces it', async () => {
    await page.getByTestId('tab-cleanup').click();
    const pair = page.locator('[data-testid="finding"]', { has: page.getByTestId('finding-merge') }).first();
    await pair.getByTestId('finding-merge').click();
    await page.getByTestId('merge-summary').waitFor();
    await page.getByTestId('merge-summary').fill('Pricing cards: my hand-merged summary');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('merge-editor').count()).toBe(0);
    await pair.getByTestId('finding-merge').click();
    await expect
      .poll(() => page.getByTestId('merge-summary').inputValue(), { timeout: WAIT })
      .toBe('Pricing cards: my hand-merged summary');
    await page.getByTestId('draft-manual').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await screenshot(page, 'drafts-05-merge-replace-asks');
    // Esc closes only the topmost dialog: the question, not the merge editor.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('confirm-dialog').count()).toBe(0);
    expect(await page.getByTestId('merge-summary').inputValue()).toBe(
      'Pricing cards: my hand-merged summary',
    );
    await page.getByTestId('merge-close').click();
    await page.getByTestId('tab-memory').click();
  });
});
