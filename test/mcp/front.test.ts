import { PassThrough } from 'node:stream';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { McpFront } from '../../electron/transports/mcp/front.js';
import {
  FRONT_ANSWERED_METHODS,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../../electron/transports/mcp/protocol.js';
import { SDK_STATIC_ANSWERS } from '../../electron/transports/mcp/sdk-answers.generated.js';
import { createMcpServer } from '../../electron/transports/mcp/server.js';
import { sdkStaticAnswers } from '../../scripts/mcp-static-answers.js';

/**
 * The front (electron/transports/mcp/front.ts) answers initialize before the MCP SDK is loaded: its
 * answer must be the SDK server's own, byte for byte in meaning, for every protocol version, and the
 * SDK's repeat of it must never reach the client.
 */
const INSTRUCTIONS =
  '# Memory\nMemory index (newest first):\n- invoices [project]: Invoices are numbered per year';

const initialize = (id: number | string, protocolVersion: string) => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: { roots: {} }, clientInfo: { name: 'test', version: '1' } },
});

/** What the SDK's own Server answers to these requests, in order (none of them calls an API method). */
async function sdkAnswers(...requests: JSONRPCMessage[]): Promise<unknown[]> {
  const server = createMcpServer(() => Promise.reject(new Error('no API method is called')), INSTRUCTIONS);
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const answers: unknown[] = [];
  const all = new Promise<void>(
    (resolve) =>
      (client.onmessage = (m) => {
        answers.push(m);
        if (answers.length === requests.length) resolve();
      }),
  );
  await server.connect(serverSide);
  await client.start();
  for (const request of requests) await client.send(request);
  await all;
  await server.close();
  return answers;
}
const sdkAnswer = async (request: JSONRPCMessage) => (await sdkAnswers(request))[0];

function startFront(snapshot: string | null) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const written: string[] = [];
  stdout.on('data', (d: Buffer) => written.push(d.toString()));
  const front = new McpFront({ input: stdin, output: stdout, snapshot: Promise.resolve(snapshot) });
  const replayed: Buffer[] = [];
  front.input.on('data', (d: Buffer) => replayed.push(d));
  return { front, stdin, written, replayed: () => Buffer.concat(replayed).toString() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the MCP front', () => {
  it('negotiates the same protocol versions as the bundled SDK', () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_VERSIONS);
  });

  it.each([...SDK_VERSIONS, '2099-01-01', '1999-01-01'])(
    'answers initialize (client asks %s) exactly as the SDK server does',
    async (version) => {
      const request = initialize(7, version);
      const { front, stdin, written } = startFront(INSTRUCTIONS);
      stdin.write(JSON.stringify(request) + '\n');
      await front.ready;
      expect(written).toHaveLength(1);
      expect(written[0]!.endsWith('\n')).toBe(true);
      expect(JSON.parse(written[0]!)).toEqual(await sdkAnswer(request));
    },
  );

  it("has the SDK server's own answers for the current tool definitions (generated at build time)", async () => {
    expect(Object.keys(SDK_STATIC_ANSWERS)).toEqual([...FRONT_ANSWERED_METHODS]);
    // Fails when a tool, its schema or the SDK changed and `npm run build` was not run since.
    expect(SDK_STATIC_ANSWERS).toEqual(await sdkStaticAnswers());
  });

  it('answers tools/list, prompts/list and resources/templates/list after initialize as the SDK does', async () => {
    const init = initialize(1, '2025-06-18');
    const asked = [
      { jsonrpc: '2.0' as const, id: 2, method: 'tools/list' },
      { jsonrpc: '2.0' as const, id: 'p', method: 'prompts/list', params: {} },
      { jsonrpc: '2.0' as const, id: 4, method: 'resources/templates/list', params: { cursor: 'x' } },
    ];
    const { front, stdin, written } = startFront(INSTRUCTIONS);
    stdin.write(JSON.stringify(init) + '\n');
    await front.ready; // a client waits for the initialize answer before it asks anything else
    const lines = [{ jsonrpc: '2.0', method: 'notifications/initialized' }, ...asked];
    stdin.write(lines.map((m) => JSON.stringify(m)).join('\n') + '\n');
    await tick();
    // Answers may come in another order (the SDK sends "Method not found" before its handlers' answers).
    const byId = (xs: unknown[]) =>
      [...xs].sort((a, b) =>
        String((a as { id: unknown }).id) < String((b as { id: unknown }).id) ? -1 : 1,
      );
    const sdk = await sdkAnswers(init, ...asked);
    expect(byId(written.map((w) => JSON.parse(w) as unknown))).toEqual(byId(sdk));
    // The SDK server reads the same lines again: each of its answers is dropped, once.
    for (const answer of sdk) expect(front.alreadyAnswered(answer as object)).toBe(true);
    for (const answer of sdk) expect(front.alreadyAnswered(answer as object)).toBe(false);
  });

  it('leaves to the SDK what is asked before initialize was answered, with _meta or other params, or after hand-over', async () => {
    const { front, stdin, written } = startFront(null);
    await front.ready;
    const send = (m: object) => stdin.write(JSON.stringify(m) + '\n');
    send(initialize(1, '2025-06-18'));
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }); // pipelined before the answer
    await tick();
    front.answer(INSTRUCTIONS);
    send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { progressToken: 1 } } });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { cursor: 7 } });
    send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'recall', arguments: {} } });
    send({ jsonrpc: '2.0', id: 6, method: 'tools/list' });
    front.handOver();
    send({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    await tick();
    expect(written.map((w) => (JSON.parse(w) as { id: unknown }).id)).toEqual([1, 6]);
    for (const id of [2, 3, 4, 5, 7])
      expect(front.alreadyAnswered({ jsonrpc: '2.0', id, result: {} })).toBe(false);
  });

  it('reads a first line split across chunks (CRLF, multi-byte text) and hands every byte on', async () => {
    const line = JSON.stringify(initialize('init-1', '2025-06-18')).replace('"test"', '"tést 测试"') + '\r\n';
    const bytes = Buffer.from(line + '{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const { front, stdin, written, replayed } = startFront(INSTRUCTIONS);
    const cut = bytes.indexOf(Buffer.from('测')) + 1; // inside a multi-byte character
    stdin.write(bytes.subarray(0, cut));
    await tick();
    expect(written).toHaveLength(0);
    stdin.write(bytes.subarray(cut));
    await front.ready;
    expect(JSON.parse(written[0]!)).toMatchObject({ id: 'init-1', result: { instructions: INSTRUCTIONS } });
    await tick();
    expect(replayed()).toBe(bytes.toString());
  });

  it("drops the SDK's repeat of the answered initialize once, and nothing else", async () => {
    const { front, stdin } = startFront(INSTRUCTIONS);
    stdin.write(JSON.stringify(initialize(1, '2025-06-18')) + '\n');
    await front.ready;
    expect(front.alreadyAnswered({ jsonrpc: '2.0', method: 'notifications/message', params: {} })).toBe(
      false,
    );
    expect(front.alreadyAnswered({ jsonrpc: '2.0', id: 2, result: {} })).toBe(false);
    expect(front.alreadyAnswered({ jsonrpc: '2.0', id: 1, result: {} })).toBe(true);
    expect(front.alreadyAnswered({ jsonrpc: '2.0', id: 1, result: {} })).toBe(false);
  });

  it('without a snapshot it waits for the instructions it is given, then answers', async () => {
    const { front, stdin, written } = startFront(null);
    await front.ready; // the rest may load: the notes are needed for the instructions
    stdin.write(JSON.stringify(initialize(3, '2025-03-26')) + '\n');
    await tick();
    expect(written).toHaveLength(0);
    front.answer('# Memory\nbuilt from the notes');
    expect(JSON.parse(written[0]!)).toMatchObject({
      id: 3,
      result: { protocolVersion: '2025-03-26', instructions: '# Memory\nbuilt from the notes' },
    });
    front.answer('a second answer is never sent');
    expect(written).toHaveLength(1);
  });

  it.each([
    ['a ping first', { jsonrpc: '2.0', id: 1, method: 'ping' }],
    [
      'initialize without clientInfo',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {} },
      },
    ],
    ['initialize with a fractional id', { ...initialize(1.5, '2025-06-18') }],
    ['not JSON', 'initialize please'],
  ])('leaves %s to the SDK (answers nothing, hands it on)', async (_name, message) => {
    const { front, stdin, written, replayed } = startFront(INSTRUCTIONS);
    const line = (typeof message === 'string' ? message : JSON.stringify(message)) + '\n';
    stdin.write(line);
    await front.ready;
    await tick();
    expect(written).toEqual([]);
    expect(front.alreadyAnswered({ jsonrpc: '2.0', id: 1, result: {} })).toBe(false);
    expect(replayed()).toBe(line);
  });

  it('a client that closes stdin before initialize: ready, nothing answered, the end handed on', async () => {
    const { front, stdin, written } = startFront(INSTRUCTIONS);
    const ended = new Promise((resolve) => front.input.on('end', resolve));
    stdin.end();
    await front.ready;
    front.input.resume();
    await ended;
    expect(written).toEqual([]);
  });
});
