import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ApiOutput } from '../../shared/api.js';
import { serializeNote } from '../../shared/note-format.js';
import { BRIDGE_SECRET_HEADER } from '../../shared/web-bridge.js';
import { openNoteIn, readNoteFile, screenshot, useDemoPage, WAIT, type DemoEnv } from './harness.js';

/**
 * Issue 12's renderer items in Chromium against the real bridge: errors nobody expected are
 * counted where a person looks (the status bar, with where they are logged), and a save whose
 * reload fails for another reason than a deletion says so and keeps the draft.
 */
let env: DemoEnv;
let page: Page;
const ID = 'deploy-staging-44e';
const DRAFT = 'Deploys to staging: my edit, not saved yet';

async function appErrors() {
  const res = await fetch(`http://127.0.0.1:${env.bridge.port}/api/invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [BRIDGE_SECRET_HEADER]: env.bridge.secret },
    body: JSON.stringify({ method: 'app.status', input: {} }),
  });
  return ((await res.json()) as { result: ApiOutput<'app.status'> }).result.unexpectedErrors;
}

useDemoPage((demo) => ({ env, page } = demo));

describe('errors shown to the person', { timeout: 120_000 }, () => {
  it('a reload after an edit conflict that fails (not a deletion) says what failed and keeps the draft', async () => {
    await openNoteIn(page, ID);
    await page.getByTestId('summary').fill(DRAFT);
    // The connection fails for every notes.get from now on (the bridge itself is untouched).
    await page.route('**/api/invoke', (route) =>
      (route.request().postData() ?? '').includes('"method":"notes.get"')
        ? route.abort('connectionreset')
        : route.continue(),
    );
    // An agent changes the note on disk: the editor cannot fetch that version (the request fails).
    const onDisk = await readNoteFile(env.projectDir, ID);
    await fs.writeFile(
      path.join(env.projectDir, `${ID}.md`),
      serializeNote({
        ...onDisk,
        createdAt: onDisk.createdAt ?? 1,
        updatedAt: (onDisk.updatedAt ?? 1) + 1,
        body: `${onDisk.body}Changed by an agent.\n`,
      }),
    );
    await expect
      .poll(() => env.bridge.context.core.store('project')!.get(ID)?.body ?? '', { timeout: WAIT })
      .toContain('Changed by an agent.');
    await page.getByTestId('summary').press('Control+s');
    await expect
      .poll(() => page.getByTestId('toasts').textContent(), { timeout: WAIT })
      .toContain('reading that version failed');
    expect(await page.getByTestId('toasts').textContent()).not.toContain('deleted on disk');
    expect(await page.getByText('This note was deleted on disk').count()).toBe(0);
    expect(await page.getByTestId('summary').inputValue()).toBe(DRAFT);
    expect(await page.getByTestId('unsaved').count()).toBe(1);
    // Nothing was written over the agent's version.
    expect((await readNoteFile(env.projectDir, ID)).body).toContain('Changed by an agent.');
    await screenshot(page, 'errors-01-reload-failed');
    await page.unroute('**/api/invoke');
  });

  it("shows the page's and the app's unexpected errors in the status bar, with where the app's are logged", async () => {
    // A usage file that cannot be read (a directory in its place): the core reports it and carries on.
    const usage = path.join(env.home, 'memory-usage', 'user.json');
    await fs.rm(usage, { force: true });
    await fs.mkdir(usage, { recursive: true });
    await env.bridge.context.core.usage.refresh();
    const app = await appErrors();
    expect(app.count).toBeGreaterThan(0);
    // A note written on disk: the page refreshes what it shows, app.status included.
    await fs.writeFile(
      path.join(env.projectDir, 'written-by-an-agent.md'),
      serializeNote({
        id: 'written-by-an-agent',
        summary: 'Written by an agent',
        tags: [],
        createdAt: 1,
        updatedAt: 1,
        body: 'x\n',
      }),
    );
    await page.getByTestId('tab-backups').click(); // the status bar is on every page
    await expect
      .poll(() => page.getByTestId('status-unexpected').textContent(), { timeout: WAIT })
      .toMatch(/^\d+ unexpected errors?$/);
    await page.getByTestId('status-unexpected').click();
    const dialog = page.getByTestId('unexpected-errors');
    await dialog.waitFor();
    expect(await dialog.getByTestId('unexpected-page').textContent()).toContain('On this page: 1.');
    expect(await dialog.getByTestId('unexpected-app').textContent()).toMatch(/^In the app: [1-9]\d*\.$/);
    if (app.log) expect(await dialog.getByTestId('unexpected-log').textContent()).toBe(app.log);
    expect(await dialog.textContent()).toContain('usage: read');
    await screenshot(page, 'errors-02-unexpected-dialog');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await page.getByTestId('tab-memory').click();
  });
});
