import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNote, serializeNote } from '../../shared/note-format.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * The MCP server over the real protocol: the SDK's own Client talks to `memdesk mcp` running as a
 * child process (node + tsx on the CLI entry), on real temp directories.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cliEntry = path.join(repo, 'electron/transports/cli/memdesk.ts');
const tsxLoader = import.meta.resolve('tsx');

let tmp: string;
let home: string;
let project: string;
let client: Client;
let stderr = '';

const userDir = () => path.join(home, 'memory', 'user');
const projectDir = () => path.join(project, 'MEMORY');

async function allNoteFiles(): Promise<string[]> {
  const list = async (dir: string) =>
    (await fs.readdir(dir).catch(() => [] as string[]))
      .filter((n) => n.endsWith('.md'))
      .map((n) => path.join(dir, n));
  return [...(await list(userDir())), ...(await list(projectDir()))].sort();
}

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult & { text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return { ...result, text: first?.type === 'text' ? first.text : '' };
}

beforeAll(async () => {
  tmp = await tempDir('mcp');
  home = path.join(tmp, 'home');
  project = path.join(tmp, 'Shop Front');
  await fs.mkdir(path.join(project, '.oharness'), { recursive: true });
  await fs.writeFile(
    path.join(project, '.oharness', 'project.json'),
    JSON.stringify({ id: 'test-project-1' }),
  );
  await fs.mkdir(projectDir(), { recursive: true });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', tsxLoader, cliEntry, '--home', home, '--project', project, 'mcp'],
    cwd: project,
    env: { PATH: process.env.PATH ?? '', HOME: tmp, OHARNESS_HOME: home },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'memdesk-test', version: '1.0.0' });
  await client.connect(transport);
}, 180_000);

afterAll(async () => {
  await client?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('memdesk mcp over stdio', { timeout: 120_000 }, () => {
  it('lists the five tools with schemas from the API table and the seed guidance', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['forget', 'memory', 'recall', 'remember', 'retain']);
    const retain = tools.find((t) => t.name === 'retain')!;
    expect(retain.inputSchema.type).toBe('object');
    expect(retain.inputSchema.required).toEqual(['items']);
    const items = (retain.inputSchema.properties as Record<string, { minItems?: number }>).items;
    expect(items?.minItems).toBe(1);
    for (const name of ['remember', 'retain']) {
      const d = tools.find((t) => t.name === name)!.description!;
      expect(d).toMatch(/Do NOT write ephemeral task state/);
      expect(d).toMatch(/synonyms/);
      expect(d).toMatch(/other language/);
      expect(d).toMatch(/matches words, not meaning/);
    }
    const remember = tools.find((t) => t.name === 'remember')!;
    expect(remember.inputSchema.required).toEqual(expect.arrayContaining(['summary', 'body']));
  });

  it('a note written on disk after the server started is found by the memory tool (the server watches)', async () => {
    const text = serializeNote({
      id: 'written-by-another-agent',
      summary: 'Invoices are numbered per calendar year',
      tags: ['invoices'],
      createdAt: 1_780_000_000_000,
      updatedAt: 1_780_000_000_000,
      body: 'The counter restarts at 1 every January.\n',
    });
    await fs.writeFile(path.join(projectDir(), 'written-by-another-agent.md'), text);
    let hits: Array<{ id: string }> = [];
    const start = Date.now();
    while (Date.now() - start < 20_000) {
      const search = await call('memory', { query: 'invoices numbered calendar year' });
      hits = (JSON.parse(search.text) as { notes: Array<{ id: string }> }).notes;
      if (hits.some((h) => h.id === 'written-by-another-agent')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(hits.map((h) => h.id)).toContain('written-by-another-agent');
    await fs.rm(path.join(projectDir(), 'written-by-another-agent.md'));
  });

  it('remember, then memory search and read in full (never clipped), recall, forget with a backup', async () => {
    const longBody = `Checkout totals are rounded per line, not per order.\n\n${'Details of the rounding rule. '.repeat(400)}\nEND-OF-BODY`;
    const remembered = await call('remember', {
      summary: 'Checkout rounding is per line item',
      body: longBody,
      type: 'project',
      tags: 'checkout, rounding, avrundning, 四舍五入',
    });
    expect(remembered.isError).toBeFalsy();
    const { id, scope } = JSON.parse(remembered.text) as { id: string; scope: string };
    expect(scope).toBe('project');
    const file = path.join(projectDir(), `${id}.md`);
    expect(parseNote(await fs.readFile(file, 'utf8')).ok).toBe(true);

    const search = await call('memory', { query: 'avrundning' });
    expect(search.isError).toBeFalsy();
    const hits = (JSON.parse(search.text) as { notes: Array<{ id: string; why: unknown }> }).notes;
    expect(hits[0]?.id).toBe(id);
    expect(hits[0]?.why).toBeDefined();

    const read = await call('memory', { id });
    expect(read.isError).toBeFalsy();
    const note = JSON.parse(read.text) as { body: string };
    expect(note.body).toBe(longBody);
    expect(note.body.length).toBeGreaterThan(10_000);

    const recall = await call('recall', { message: 'how is checkout rounding done?' });
    expect(recall.isError).toBeFalsy();
    expect(JSON.parse(recall.text)).toHaveProperty('text');

    const forgot = await call('forget', { id });
    expect(forgot.isError).toBeFalsy();
    const { backupId } = JSON.parse(forgot.text) as { backupId: string };
    expect(backupId).toBeTruthy();
    await expect(fs.stat(file)).rejects.toThrow();
    const backups = await fs.readdir(path.join(home, 'memory-backups'), { recursive: true });
    expect(backups.some((name) => String(name).includes(id))).toBe(true);
  });

  it('retain answers one receipt per item', async () => {
    const out = await call('retain', {
      items: [
        {
          content: 'The shop front uses Stripe Checkout for payments. #betalning',
          context: 'architecture review',
        },
        { content: ' ' },
      ],
      bankScope: 'per-project-tagged',
    });
    expect(out.isError).toBeFalsy();
    const { receipts } = JSON.parse(out.text) as {
      receipts: Array<{ status: string; id: string | null; scope?: string }>;
    };
    expect(receipts.map((r) => r.status)).toEqual(['stored', 'refused']);
    const stored = parseNote(await fs.readFile(path.join(userDir(), `${receipts[0]!.id}.md`), 'utf8'));
    expect(stored.ok && stored.note.tags).toEqual(['project:shop-front', 'betalning']);
  });

  it('bad arguments are clear tool errors and write nothing', async () => {
    const before = await allNoteFiles();
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['remember', { body: 'no summary here' }, /invalid_input: .*summary/],
      ['remember', { summary: 'x', body: 'y', type: 'diary' }, /invalid_input: .*type/],
      [
        'remember',
        { summary: 'Deploy key', body: 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789' },
        /refused: .*GitHub token/i,
      ],
      ['retain', { items: [] }, /invalid_input: .*at least one item/],
      ['retain', { items: 'just a string' }, /invalid_input: .*items/],
      ['retain', { items: [{ content: 'x' }], bankScope: 'per-galaxy' }, /invalid_input: .*bankScope/],
      ['memory', {}, /invalid_input: .*either "query".*or "id"/],
      ['memory', { query: 'a', id: 'b' }, /invalid_input: .*not both/],
      ['forget', { id: 'no-such-note-123' }, /not_found: /],
      ['forget', {}, /invalid_input: .*id/],
      ['recall', { message: 42 }, /invalid_input: .*message/],
      ['nonexistent', {}, /unknown tool "nonexistent"/],
    ];
    for (const [tool, args, message] of cases) {
      const result = await call(tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(result.text).toMatch(message);
    }
    expect(await allNoteFiles()).toEqual(before);
    expect(stderr).not.toMatch(/Error:.*at /);
  });
});

describe('memdesk mcp process lifetime', { timeout: 180_000 }, () => {
  it('exits by itself (code 0) when the client closes stdin', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(
      process.execPath,
      ['--import', tsxLoader, cliEntry, '--home', home, '--project', project, 'mcp'],
      {
        cwd: project,
        env: { PATH: process.env.PATH ?? '', HOME: tmp, OHARNESS_HOME: home },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    child.stdin.write(JSON.stringify(init) + '\n');
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (out.includes('"id":1')) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    expect(JSON.parse(out.split('\n')[0]!)).toMatchObject({
      id: 1,
      result: { serverInfo: { name: 'memory-desk' } },
    });
    const code = await new Promise<number | null>((resolve) => {
      child.on('close', resolve);
      child.stdin.end();
    });
    expect(code).toBe(0);
  });
});
