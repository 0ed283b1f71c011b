import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURSOR_RULE_PATH } from '../../electron/agents/cursor-rule.js';
import { CLI_ENTRY, runMemdesk, TSX_LOADER } from '../agents/run-cli.js';
import { createShopProject, type ShopProject } from '../mcp/shop-project.js';

/**
 * Cursor's always-applied project rule (electron/agents/cursor-rule.ts) on real files through the
 * real CLI: `memdesk setup cursor --project-rule` writes it (only when asked), the MCP server Cursor
 * runs rewrites it with the current index when a note changes on disk, credentials never reach it, git
 * ignores it, and `--undo` removes it and nothing else.
 */
let shop: ShopProject;
let rule: string;
let exclude: string;
/** A GitHub token shape, as a hand edit could leave one in a note (Memory Desk's own writes refuse it). */
const TOKEN = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';

const memdesk = (...args: string[]) => runMemdesk(args, { cwd: shop.project, home: shop.home });
const git = (...args: string[]) => execFileSync('git', args, { cwd: shop.project, encoding: 'utf8' });

beforeAll(async () => {
  shop = await createShopProject('cursor-rule');
  rule = path.join(shop.project, CURSOR_RULE_PATH);
  git('init', '-q');
  exclude = path.join(shop.project, '.git', 'info', 'exclude');
  await fs.writeFile(exclude, '# my own excludes\n*.log\n');
  await shop.writeNote('deploy-token', `Deploy with ${TOKEN} from the vault`, 1_780_000_050_000);
  // The person's own rules beside ours: never touched.
  await fs.mkdir(path.dirname(rule), { recursive: true });
  await fs.writeFile(path.join(path.dirname(rule), 'team.mdc'), '---\nalwaysApply: true\n---\nUse tabs.\n');
}, 60_000);

afterAll(async () => {
  await fs.rm(shop.tmp, { recursive: true, force: true });
});

describe("Cursor's memory rule", { timeout: 120_000 }, () => {
  it('is written only when asked: plain setup and a dry run leave the project alone', async () => {
    const plain = await memdesk('setup', 'cursor');
    expect(plain.code, plain.stderr).toBe(0);
    const dry = await memdesk('setup', 'cursor', '--project-rule', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`${rule}: would be created`);
    expect(dry.stdout).toContain('+alwaysApply: true');
    await expect(fs.access(rule)).rejects.toThrow();
  });

  it('setup --project-rule writes the memory prompt as an always-applied rule, credentials masked, kept out of git', async () => {
    const out = await memdesk('setup', 'cursor', '--project-rule');
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`${rule}: created`);
    const text = await fs.readFile(rule, 'utf8');
    expect(text.startsWith('---\ndescription: ')).toBe(true);
    expect(text.split('---\n')[1]).toContain('alwaysApply: true\n');
    expect(text).toContain('Memory index (newest first):');
    expect(text).toContain('Invoices are numbered per year');
    expect(text).toContain('Deploy with [redacted] from the vault');
    expect(text).not.toContain(TOKEN);
    expect(await fs.readFile(exclude, 'utf8')).toBe(
      '# my own excludes\n*.log\n/.cursor/rules/memory-desk.mdc\n',
    );
    expect(git('status', '--porcelain', '--untracked-files=all')).not.toContain('memory-desk.mdc');
    expect(git('status', '--porcelain', '--untracked-files=all')).toContain('.cursor/rules/team.mdc');
    // Again: nothing changes.
    const again = await memdesk('setup', 'cursor', '--project-rule');
    expect(again.stdout).toContain(`${rule}: unchanged`);
  });

  it('is rewritten with the current index when notes change while Cursor runs (its MCP server)', async () => {
    const client = new Client({ name: 'cursor-stand-in', version: '1.0.0' });
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()),
    );
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', TSX_LOADER, CLI_ENTRY, '--home', shop.home, '--project', shop.project, 'mcp'],
        cwd: shop.tmp,
        env: { PATH: process.env.PATH ?? '', HOME: shop.home, OHARNESS_HOME: shop.home },
      }),
    );
    try {
      await client.listResources(); // the notes are loaded: the next change is one the server sees
      await shop.writeNote('refunds', 'Refunds go through the shop', 1_780_000_100_000);
      await changed;
      await expect
        .poll(() => fs.readFile(rule, 'utf8'), { timeout: 60_000 })
        .toContain('Refunds go through the shop');
    } finally {
      await client.close();
    }
    const text = await fs.readFile(rule, 'utf8');
    expect(text.indexOf('Refunds go through the shop')).toBeLessThan(text.indexOf('Invoices are numbered'));
    expect(text).not.toContain(TOKEN);
    const dir = await fs.readdir(path.dirname(rule));
    expect(dir.sort()).toEqual(['memory-desk.mdc', 'team.mdc']); // atomic write: no temp file left
  });

  it('never replaces a rule of the same name that Memory Desk did not write, nor rewrites it', async () => {
    const other = await createShopProject('cursor-rule-theirs');
    try {
      const theirs = path.join(other.project, CURSOR_RULE_PATH);
      await fs.mkdir(path.dirname(theirs), { recursive: true });
      await fs.writeFile(theirs, '---\nalwaysApply: true\n---\nMy own memory notes.\n');
      const out = await runMemdesk(['setup', 'cursor', '--project-rule'], {
        cwd: other.project,
        home: other.home,
      });
      expect(out.code).toBe(1);
      expect(out.stderr).toContain('was not written by Memory Desk');
      const prompt = await runMemdesk(['hook', 'cursor', 'sessionStart'], {
        cwd: other.tmp,
        home: other.home,
        input: JSON.stringify({
          conversation_id: 'c',
          hook_event_name: 'sessionStart',
          workspace_roots: [other.project],
        }),
      });
      expect(prompt.code).toBe(0);
      expect(await fs.readFile(theirs, 'utf8')).toBe('---\nalwaysApply: true\n---\nMy own memory notes.\n');
    } finally {
      await fs.rm(other.tmp, { recursive: true, force: true });
    }
  });

  it('setup cursor --undo removes the rule and its exclude line, and nothing else', async () => {
    const out = await memdesk('setup', 'cursor', '--undo');
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`${rule}: removed`);
    await expect(fs.access(rule)).rejects.toThrow();
    expect(await fs.readFile(path.join(path.dirname(rule), 'team.mdc'), 'utf8')).toContain('Use tabs.');
    expect(await fs.readFile(exclude, 'utf8')).toBe('# my own excludes\n*.log\n');
    // The prompt is still built (hooks, MCP) and no rule comes back uninvited.
    await runMemdesk(['hook', 'cursor', 'sessionStart'], {
      cwd: shop.tmp,
      home: shop.home,
      input: JSON.stringify({
        conversation_id: 'c-2',
        hook_event_name: 'sessionStart',
        workspace_roots: [shop.project],
      }),
    });
    await expect(fs.access(rule)).rejects.toThrow();
  });
});
