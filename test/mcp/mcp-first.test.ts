import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ResourceListChangedNotificationSchema,
  type TextResourceContents,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPromptSnapshot } from '../../electron/agents/recall/prompt-snapshot.js';
import { CLI_ENTRY, TSX_LOADER } from '../agents/run-cli.js';
import { createShopProject, type ShopProject } from './shop-project.js';

/**
 * `memdesk mcp` answers initialize before the MCP SDK (and ajv, zod) is loaded: the child runs with
 * module hooks that hold those modules back until the test releases them. The SDK's own Client
 * connects (initialize answered, instructions with the index) while they are held; once released,
 * the same session lists tools, reads memory://index and gets list_changed for a file written on disk.
 */
let tmp: string;
let home: string;
let project: string;
const holdBack = new URL('./hold-back/register.mjs', import.meta.url).href;
let shop: ShopProject;
const writeNote: ShopProject['writeNote'] = (...args) => shop.writeNote(...args);

function transport(release: string | null) {
  const t = new StdioClientTransport({
    command: process.execPath,
    args: [
      '--import',
      TSX_LOADER,
      ...(release ? ['--import', holdBack] : []),
      CLI_ENTRY,
      '--home',
      home,
      '--project',
      project,
      'mcp',
    ],
    cwd: project,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: tmp,
      OHARNESS_HOME: home,
      ...(release ? { MEMDESK_TEST_RELEASE: release } : {}),
    },
    stderr: 'pipe',
  });
  let stderr = '';
  t.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return { t, stderr: () => stderr };
}

beforeAll(async () => {
  shop = await createShopProject('mcp-first');
  ({ tmp, home, project } = shop);
  // A first start builds the prompt and leaves it as the snapshot the next start answers from.
  const first = new Client({ name: 'memdesk-first-start', version: '1.0.0' });
  await first.connect(transport(null).t);
  await first.close();
  expect(await readPromptSnapshot({ home, projectRoot: project, env: { OHARNESS_HOME: home } })).toContain(
    'Invoices are numbered per year',
  );
}, 120_000);

afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('memdesk mcp answers initialize before the MCP SDK is loaded', { timeout: 120_000 }, () => {
  it('connects while the SDK, ajv and zod are held back; after, tools, memory://index and list_changed', async () => {
    const release = path.join(tmp, 'release');
    const { t, stderr } = transport(release);
    const client = new Client({ name: 'memdesk-held-back', version: '1.0.0' });
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()),
    );
    // A second answer to a request (the SDK repeating one the front gave) lands here as "unknown message ID".
    const clientErrors: Error[] = [];
    client.onerror = (err) => clientErrors.push(err);
    try {
      await client.connect(t); // the initialize answer arrived: nothing held back was needed for it
      expect(client.getInstructions()).toContain(
        '- invoices [project, project]: Invoices are numbered per year',
      );
      expect(client.getServerVersion()).toEqual({ name: 'memory-desk', version: '0.1.0' });
      expect(client.getServerCapabilities()).toEqual({ tools: {}, resources: { listChanged: true } });
      // tools/list too (the SDK server's answer, generated at build time), and what it does not serve.
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name)).toEqual(['remember', 'memory', 'forget', 'recall', 'retain']);
      await expect(client.listPrompts()).rejects.toThrow(/Method not found/);
      // The process did go on to load them, and waits for them still.
      await expect
        .poll(stderr, { timeout: 60_000 })
        .toMatch(/held back: .*node_modules\/(zod|@modelcontextprotocol)/);
      await fs.writeFile(release, '');

      // The SDK server took over: a tool call (its answer, not the front's), and the list asked again.
      const recall = await client.callTool({
        name: 'recall',
        arguments: { message: 'how are invoices numbered?' },
      });
      expect(JSON.stringify(recall.content)).toContain('Invoices are numbered per year');
      expect((await client.listTools()).tools).toEqual(tools);
      const { contents } = await client.readResource({ uri: 'memory://index' });
      expect((contents[0] as TextResourceContents).text).toContain('Invoices are numbered per year');
      await writeNote('refunds', 'Refunds go through the shop', 1_780_000_100_000);
      await changed;
      const after = await client.readResource({ uri: 'memory://index' });
      expect((after.contents[0] as TextResourceContents).text).toContain('Refunds go through the shop');
      await client.ping(); // one more round trip: a late duplicate answer would have arrived by now
      expect(clientErrors).toEqual([]);
    } finally {
      await fs.writeFile(release, '');
      await client.close();
    }
  });

  it('exits when the client closes stdin right after initialize, while the notes still load', async () => {
    const child = spawn(
      process.execPath,
      ['--import', TSX_LOADER, CLI_ENTRY, '--home', home, '--project', project, 'mcp'],
      { cwd: project, env: { PATH: process.env.PATH ?? '', HOME: tmp, OHARNESS_HOME: home } },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const answered = new Promise<string>((resolve) =>
      child.stdout.once('data', (d: Buffer) => resolve(d.toString())),
    );
    const send = (msg: object) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
    const clientInfo = { name: 'leaves-at-once', version: '1' };
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo },
    });
    expect(JSON.parse(await answered)).toMatchObject({
      id: 1,
      result: { serverInfo: { name: 'memory-desk' } },
    });
    send({ method: 'notifications/initialized' });
    child.stdin.end(); // the SDK server starts after this, and the notes load after it started
    // Before: a notes watcher started after the project was closed kept the process alive for good.
    expect(await exited).toBe(0);
  });
});
