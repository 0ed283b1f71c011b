import fs from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebBridge, type WebBridge } from '../../electron/transports/http/web-bridge.js';
import {
  ensureRendererBuilt,
  launchChromium,
  newPage,
  RENDERER_DIR,
  row,
  screenshot,
  WAIT,
} from '../e2e/harness.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * The "Connect an agent" panel in real Chromium against the real web bridge, with HOME a temp
 * directory: it shows which harnesses are connected, connects one (the same as memdesk setup), and
 * shows which of your notes this project's agents do not see.
 */
let tmp: string;
let homeDir: string;
let bridge: WebBridge;
let browser: Browser;
let page: Page;
let noteId: string;
let cliScript: string;

beforeAll(async () => {
  ensureRendererBuilt();
  tmp = await tempDir('connect');
  homeDir = path.join(tmp, 'user-home');
  const home = path.join(homeDir, '.oharness');
  const projectRoot = path.join(tmp, 'shop');
  await fs.mkdir(projectRoot, { recursive: true });
  await fs.mkdir(path.join(homeDir, '.claude'), { recursive: true });
  await fs.writeFile(path.join(homeDir, '.claude', 'settings.json'), '{"model":"opus"}\n');
  // The app finds the CLI where npm installed it (bin/memdesk → the package's script) on PATH.
  const npmBin = path.join(tmp, 'npm', 'bin');
  cliScript = path.join(tmp, 'npm', 'lib', 'node_modules', 'memory-desk', 'dist', 'cli', 'memdesk.js');
  await fs.mkdir(npmBin, { recursive: true });
  await fs.mkdir(path.dirname(cliScript), { recursive: true });
  await fs.writeFile(cliScript, '#!/usr/bin/env node\n');
  await fs.symlink(cliScript, path.join(npmBin, 'memdesk'));
  await fs.symlink(process.execPath, path.join(npmBin, 'node'));
  bridge = await startWebBridge({
    home,
    projectRoot,
    port: 0,
    staticDir: RENDERER_DIR,
    env: { OHARNESS_HOME: home, HOME: homeDir, PATH: npmBin },
  });
  await bridge.context.core.registerProject();
  const elsewhere = await bridge.context.notes.remember({
    summary: 'Elsewhere only',
    body: 'x',
    tags: ['project:other'],
    scope: 'user',
  });
  noteId = elsewhere.note.id;
  browser = await launchChromium();
  page = await newPage(browser);
  await page.goto(bridge.url);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await bridge?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('Connect an agent', { timeout: 120_000 }, () => {
  it('shows the harnesses, connects Claude Code, and shows the project filter', async () => {
    await page.getByTestId('tab-agents').click();
    const claude = page.locator('[data-testid="harness"][data-harness="claude-code"]');
    await expect.poll(() => claude.getAttribute('data-connected'), { timeout: WAIT }).toBe('no');
    expect(await page.locator('[data-testid="harness"]').count()).toBe(4);
    await expect
      .poll(() => page.getByTestId('project-filter').textContent())
      .toContain('Not seen here: 1 of your notes tagged for project:other.');

    await claude.getByTestId('connect').click();
    await expect.poll(() => claude.getAttribute('data-connected'), { timeout: WAIT }).toBe('yes');
    await screenshot(page, 'agents-connect');
    const settings = JSON.parse(await fs.readFile(path.join(homeDir, '.claude', 'settings.json'), 'utf8'));
    expect(settings.model).toBe('opus');
    expect(Object.keys(settings.hooks).sort()).toEqual([
      'PreCompact',
      'SessionStart',
      'Stop',
      'UserPromptSubmit',
    ]);
    expect(settings.hooks.Stop[0].hooks[0].command).toBe(
      `${path.join(tmp, 'npm', 'bin', 'node')} ${cliScript} hook claude-code Stop`,
    );
    expect(await claude.getByTestId('setup-result').textContent()).toContain('settings.json: updated');
  });

  it('the note editor shows how often a note was recalled, and when last', async () => {
    await bridge.context.core.usage.record([{ scope: 'user', id: noteId }]);
    await page.getByTestId('tab-memory').click();
    await row(page, noteId).click();
    await expect
      .poll(() => page.getByTestId('recall-count').textContent(), { timeout: WAIT })
      .toMatch(/^Recalled 1 times · last recalled /);
  });
});
