import fs from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ResourceListChangedNotificationSchema,
  type TextResourceContents,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readPromptSnapshot } from '../../electron/agents/recall/prompt-snapshot.js';
import { CLI_ENTRY, TSX_LOADER } from '../agents/run-cli.js';
import { createShopProject, PAST, type ShopProject } from './shop-project.js';

/**
 * `memdesk mcp` answers initialize from the prompt snapshot the last start left behind, before any
 * note is loaded, then loads the notes and says `list_changed` when the index differs. A snapshot
 * whose notes directory changed since is not used.
 */
let tmp: string;
let home: string;
let project: string;
const clients: Client[] = [];
let shop: ShopProject;
const memoryDir = () => shop.memoryDir;
const writeNote: ShopProject['writeNote'] = (...args) => shop.writeNote(...args);

async function start(): Promise<{ client: Client; changed: Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', TSX_LOADER, CLI_ENTRY, '--home', home, '--project', project, 'mcp'],
    cwd: project,
    env: { PATH: process.env.PATH ?? '', HOME: tmp, OHARNESS_HOME: home },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'memdesk-start-test', version: '1.0.0' });
  const changed = new Promise<void>((resolve) =>
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()),
  );
  await client.connect(transport);
  clients.push(client);
  return { client, changed };
}

async function indexResource(client: Client): Promise<string> {
  const { contents } = await client.readResource({ uri: 'memory://index' });
  return (contents[0] as TextResourceContents).text;
}

const place = () => ({ home, projectRoot: project, env: { OHARNESS_HOME: home } });

beforeAll(async () => {
  shop = await createShopProject('mcp-start');
  ({ tmp, home, project } = shop);
});

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('memdesk mcp starts from the prompt snapshot', { timeout: 120_000 }, () => {
  it('the first start builds the prompt and leaves it as the snapshot', async () => {
    expect(await readPromptSnapshot(place())).toBeNull();
    const { client } = await start();
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('- invoices [project, project]: Invoices are numbered per year');
    expect(await readPromptSnapshot(place())).toBe(instructions);
  });

  it('the next start answers with the snapshot (not the notes), then loads them and says list_changed', async () => {
    // Rewritten in place (no rename): the directory's mtime stays, so the snapshot still counts as valid.
    const file = path.join(memoryDir(), 'invoices.md');
    await fs.writeFile(
      file,
      (await fs.readFile(file, 'utf8')).replace(
        'Invoices are numbered per year',
        'Invoices restart at 1 each year',
      ),
    );
    await fs.utimes(memoryDir(), PAST, PAST);
    const { client, changed } = await start();
    // initialize carried the snapshot: what the notes said before, not what they say now.
    expect(client.getInstructions()).toContain('Invoices are numbered per year');
    await changed;
    expect(await indexResource(client)).toContain('Invoices restart at 1 each year');
  });

  it('a snapshot whose notes directory changed since is not used', async () => {
    await writeNote('refunds', 'Refunds go through the shop', 1_780_000_100_000);
    await fs.utimes(memoryDir(), PAST, new Date(PAST.getTime() + 1000));
    expect(await readPromptSnapshot(place())).toBeNull();
    const { client } = await start();
    expect(client.getInstructions()).toContain('- refunds [project, project]: Refunds go through the shop');
  });

  it('a note body changed while the snapshot is being checked (the index as it was) still ends in list_changed', async () => {
    const snapshot = await readPromptSnapshot(place());
    expect(snapshot).not.toBeNull();
    const { client, changed } = await start();
    expect(client.getInstructions()).toBe(snapshot);
    const before = await indexResource(client); // the notes are loaded: the check waits 2.5 s from here
    // In place, summary kept: neither the directory's mtime nor the index changes.
    const file = path.join(memoryDir(), 'refunds.md');
    await fs.writeFile(
      file,
      (await fs.readFile(file, 'utf8')).trimEnd() + '\n\nAsk for the receipt first.\n',
    );
    await changed;
    expect(await indexResource(client)).toBe(before);
    const { contents } = await client.readResource({ uri: 'memory://note/project/refunds' });
    expect((contents[0] as TextResourceContents).text).toContain('Ask for the receipt first.');
  });
});
