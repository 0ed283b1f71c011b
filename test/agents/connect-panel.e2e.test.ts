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
 * directory: it shows which harnesses are connected, connects one (the same as memdesk setup), offers
 * Cursor's project rule for a chosen project, and shows which of your notes this project's agents do not see.
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

  it("offers Cursor's project rule: choose a project, see whether the rule is there, write and remove it by keyboard", async () => {
    await page.getByTestId('tab-agents').click();
    const cursor = page.locator('[data-testid="harness"][data-harness="cursor"]');
    const section = cursor.getByTestId('cursor-rule');
    const state = section.getByTestId('cursor-rule-state');
    const projectSelect = section.getByTestId('cursor-rule-project');
    const shopRule = path.join(tmp, 'shop', '.cursor', 'rules', 'memory-desk.mdc');
    const otherRule = path.join(tmp, 'other', '.cursor', 'rules', 'memory-desk.mdc');
    await fs.mkdir(path.join(tmp, 'other'));
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

    // The open project is offered first, and has no rule yet.
    await expect.poll(() => state.getAttribute('data-state'), { timeout: WAIT }).toBe('absent');
    expect(await projectSelect.inputValue()).toBe(path.join(tmp, 'shop'));
    expect(await projectSelect.locator('option').first().textContent()).toBe(
      `shop — ${path.join(tmp, 'shop')} (open here)`,
    );

    // Write it with the keyboard alone: from the project list, Tab to Preview, Tab to Write, Enter.
    await projectSelect.focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('cursor-rule-write');
    await page.keyboard.press('Enter');
    await expect.poll(() => state.getAttribute('data-state'), { timeout: WAIT }).toBe('present');
    expect(await state.textContent()).toBe(`The rule is there: ${shopRule}`);
    const shopText = await fs.readFile(shopRule, 'utf8');
    expect(shopText).toMatch(/^---\ndescription: .*\nalwaysApply: true\n---\n/);
    // A note tagged for another project is not in this project's rule.
    expect(shopText).not.toContain('Elsewhere only');
    // Writing the rule connects Cursor too: its MCP server keeps the rule current.
    await expect.poll(() => cursor.getAttribute('data-connected'), { timeout: WAIT }).toBe('yes');
    expect(await section.getByTestId('setup-result').textContent()).toContain(`${shopRule}: created`);

    // Another folder, chosen from the list by keyboard and typed in: its own notes and tag filter.
    await projectSelect.focus();
    await page.keyboard.press('ArrowDown');
    expect(await projectSelect.inputValue()).toBe('');
    expect(await state.getAttribute('data-state')).toBe('unknown');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('cursor-rule-folder');
    await page.keyboard.type(path.join(tmp, 'other'));
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => state.getAttribute('data-state'), { timeout: WAIT }).toBe('present');
    expect(await projectSelect.inputValue()).toBe(path.join(tmp, 'other'));
    expect(await fs.readFile(otherRule, 'utf8')).toContain('Elsewhere only');
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'agents-cursor-rule');

    // Remove the open project's rule: that rule alone goes, Cursor stays connected.
    await projectSelect.selectOption(path.join(tmp, 'shop'));
    await section.getByTestId('cursor-rule-remove').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => state.getAttribute('data-state'), { timeout: WAIT }).toBe('absent');
    await expect(fs.stat(shopRule)).rejects.toThrow(/ENOENT/);
    expect(await fs.readFile(otherRule, 'utf8')).toContain('alwaysApply: true');
    expect(await cursor.getAttribute('data-connected')).toBe('yes');
    const mcp = JSON.parse(await fs.readFile(path.join(homeDir, '.cursor', 'mcp.json'), 'utf8'));
    expect(Object.keys(mcp.mcpServers)).toEqual(['memory-desk']);

    // A project that has a rule stays listed, and says so, in Chinese too.
    const zh = await newPage(browser, { locale: 'zh-CN' });
    await zh.goto(bridge.url);
    await zh.getByTestId('tab-agents').click();
    const zhSection = zh.locator('[data-harness="cursor"]').getByTestId('cursor-rule');
    await zhSection.getByTestId('cursor-rule-project').selectOption(path.join(tmp, 'other'));
    expect(await zhSection.locator('h4').textContent()).toBe('项目规则：每次对话都带上记忆');
    expect(await zhSection.getByTestId('cursor-rule-state').textContent()).toBe(`规则已存在：${otherRule}`);
    expect(await zhSection.getByTestId('cursor-rule-remove').textContent()).toBe('移除规则');
    await zhSection.scrollIntoViewIfNeeded();
    await screenshot(zh, 'agents-cursor-rule-zh');
    await zh.close();
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
