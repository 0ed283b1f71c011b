import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeNote } from '../../shared/note-format.js';
import { usageDir } from '../../electron/memory/usage.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * What an agent gets from `memdesk mcp` before it calls any tool: the memory prompt (the seed's
 * guidance and the index) in the initialize result's `instructions`, `memory://index` and one
 * resource per note, and `notifications/resources/list_changed` when a note file changes on disk.
 * The SDK's own Client against the real CLI in a child process.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cliEntry = path.join(repo, 'electron/transports/cli/memdesk.ts');
const tsxLoader = import.meta.resolve('tsx');

let tmp: string;
let home: string;
let project: string;
let client: Client;
const changes: number[] = [];

async function writeNote(dir: string, id: string, summary: string, updatedAt: number, tags: string[] = []) {
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(
    path.join(dir, `${id}.md`),
    serializeNote({
      id,
      summary,
      type: 'project',
      tags,
      createdAt: updatedAt,
      updatedAt,
      body: `Body of ${id}.\n`,
    }),
  );
}

beforeAll(async () => {
  tmp = await tempDir('mcp-memory');
  home = path.join(tmp, 'home');
  project = path.join(tmp, 'Shop');
  await writeNote(
    path.join(project, 'MEMORY'),
    'older-note',
    'Older decision about invoices',
    1_780_000_000_000,
  );
  await writeNote(
    path.join(project, 'MEMORY'),
    'newer-note',
    'Newer decision about refunds',
    1_780_000_100_000,
  );
  await writeNote(
    path.join(home, 'memory', 'user'),
    'other-project',
    'Fact of another project',
    1_780_000_200_000,
    ['project:elsewhere'],
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', tsxLoader, cliEntry, '--home', home, '--project', project, 'mcp'],
    cwd: project,
    env: { PATH: process.env.PATH ?? '', HOME: tmp, OHARNESS_HOME: home },
    stderr: 'pipe',
  });
  client = new Client({ name: 'memdesk-test', version: '1.0.0' });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    changes.push(Date.now());
  });
  await client.connect(transport);
}, 180_000);

afterAll(async () => {
  await client?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('memdesk mcp gives the agent its memory', { timeout: 120_000 }, () => {
  it('instructions: the guidance, then the index, newest first, project-true', () => {
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toMatch(/^# Memory\n/);
    expect(instructions).toContain('Do NOT write ephemeral task state');
    expect(instructions).toContain('Recall matches words, not meaning');
    const index = instructions.slice(instructions.indexOf('Memory index (newest first):'));
    expect(index.split('\n').slice(1)).toEqual([
      '- newer-note [project, project]: Newer decision about refunds',
      '- older-note [project, project]: Older decision about invoices',
    ]);
    expect(instructions).not.toContain('another project');
  });

  it('memory://index and one resource per note', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'memory://index',
      'memory://note/project/newer-note',
      'memory://note/project/older-note',
    ]);
    const index = await client.readResource({ uri: 'memory://index' });
    expect(index.contents[0]).toMatchObject({
      uri: 'memory://index',
      mimeType: 'text/markdown',
      text: '- newer-note [project, project]: Newer decision about refunds\n- older-note [project, project]: Older decision about invoices',
    });
    const note = await client.readResource({ uri: 'memory://note/project/older-note' });
    expect(note.contents[0]).toMatchObject({
      text: '# Older decision about invoices\n\nBody of older-note.\n',
    });
    await expect(client.readResource({ uri: 'memory://note/project/none' })).rejects.toThrow();
  });

  it('list_changed after a note file is written on disk, and the new note is listed', async () => {
    const before = changes.length;
    await writeNote(
      path.join(project, 'MEMORY'),
      'fresh-note',
      'Fresh note from an editor',
      1_780_000_300_000,
    );
    for (let i = 0; i < 100 && changes.length === before; i++) await new Promise((r) => setTimeout(r, 100));
    expect(changes.length).toBeGreaterThan(before);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('memory://note/project/fresh-note');
  });

  it('the recall tool counts: memory-usage/ holds the attached note', async () => {
    const result = await client.callTool({ name: 'recall', arguments: { message: 'refunds decision' } });
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    expect(text).toContain('newer-note');
    const files = await fs.readdir(usageDir(home));
    const project = files.find((f) => f.startsWith('project-'))!;
    const data = JSON.parse(await fs.readFile(path.join(usageDir(home), project), 'utf8')) as {
      notes: Record<string, { count: number }>;
    };
    expect(data.notes['newer-note']?.count).toBe(1);
  });
});
