import fs from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArchive } from '../../electron/agents/archive/zip-format.js';
import { ensureRendererBuilt, launchChromium, newPage, screenshot, startDemo, WAIT, type DemoEnv } from '../e2e/harness.js';

/**
 * Export and import on the Agents page in real Chromium against the real web bridge: the export is
 * a browser download holding every note file of the scope byte for byte; the import sends the file
 * picked in the browser's file input; a dismissed picker does nothing. (The desktop app runs the
 * same page code over IPC, with the system's file dialog: test/bridge/archive-dialogs.test.ts.)
 */
let demo: DemoEnv;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ensureRendererBuilt();
  demo = await startDemo();
  browser = await launchChromium();
  page = await newPage(browser);
  await page.goto(demo.bridge.url);
  await page.getByTestId('tab-agents').click();
  await page.getByTestId('note-archives').waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

const outcome = () => page.getByTestId('archive-outcome').textContent();
const noteFiles = async (dir: string) => (await fs.readdir(dir)).filter((n) => n.endsWith('.md')).sort();

describe('export and import in the page (web bridge)', { timeout: 120_000 }, () => {
  let exported: string;

  it('Export… downloads the scope as a zip: every note file, byte for byte', async () => {
    await page.getByTestId('archive-scope').selectOption('project');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('archive-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^memory-desk-project-\d{4}-\d{2}-\d{2}\.zip$/);
    exported = path.join(demo.root, download.suggestedFilename());
    await download.saveAs(exported);
    const files = await noteFiles(demo.projectDir);
    await expect.poll(outcome, { timeout: WAIT }).toBe(`Exported ${files.length} notes to ${download.suggestedFilename()}.`);
    const archive = readArchive(new Uint8Array(await fs.readFile(exported)));
    expect(archive.notes.map((n) => `${n.id}.md`).sort()).toEqual(files);
    for (const n of archive.notes)
      expect(Buffer.from(n.bytes)).toEqual(await fs.readFile(path.join(demo.projectDir, `${n.id}.md`)));
  });

  it('Import… sends the picked file; the notes land in the chosen scope; again, each is reported as present', async () => {
    const before = await noteFiles(demo.userDir);
    await page.getByTestId('archive-scope').selectOption('user');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('archive-import').click()]);
    await chooser.setFiles(exported);
    const count = (await noteFiles(demo.projectDir)).length;
    await expect
      .poll(outcome, { timeout: WAIT })
      .toContain(`From ${path.basename(exported)}: ${count} imported, 0 skipped, 0 refused.`);
    await screenshot(page, 'agents-archive-import');
    expect((await noteFiles(demo.userDir)).length).toBe(before.length + count);
    for (const name of await noteFiles(demo.projectDir))
      expect(await fs.readFile(path.join(demo.userDir, name), 'utf8')).toBe(
        await fs.readFile(path.join(demo.projectDir, name), 'utf8'),
      );

    const [again] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('archive-import').click()]);
    await again.setFiles(exported);
    await expect.poll(outcome, { timeout: WAIT }).toContain(`0 imported, ${count} skipped, 0 refused.`);
  });

  it('a dismissed file picker does nothing', async () => {
    const before = await noteFiles(demo.userDir);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('archive-import').click()]);
    await chooser.setFiles([]);
    await expect.poll(outcome, { timeout: WAIT }).toBe('Nothing done: no file was chosen.');
    expect(await noteFiles(demo.userDir)).toEqual(before);
  });

  it('a file that is not a zip is refused with the reason, nothing written', async () => {
    const before = await noteFiles(demo.userDir);
    const notZip = path.join(demo.root, 'notes.zip');
    await fs.writeFile(notZip, 'not a zip at all');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('archive-import').click()]);
    await chooser.setFiles(notZip);
    await expect.poll(() => page.getByTestId('archive-outcome').getByRole('alert').textContent(), { timeout: WAIT }).toMatch(
      /nothing was imported/,
    );
    expect(await noteFiles(demo.userDir)).toEqual(before);
  });
});
