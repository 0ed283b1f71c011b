import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  type JSONRPCMessage,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { toErrorBody } from '../../../shared/errors.js';
import type { InvokeApi } from './invoke.js';
import type { McpFront } from './front.js';
import { MCP_CAPABILITIES, MCP_SERVER_NAME, MCP_SERVER_VERSION } from './protocol.js';
import { listResources, readResource } from './resources.js';
import { MCP_TOOLS, parseToolArgs, toolJsonSchema } from './tools.js';
import { reportedOr } from '../../memory/unexpected-error.js';

/**
 * The MCP server: lists the tools and answers calls through the API table. Errors become tool
 * errors (`isError: true`) with `code: message`, so the model sees why. `instructions` (sent with
 * the initialize result, which clients put in the system prompt) carry the memory prompt: the
 * guidance on when to write a note, and the index. Resources: `memory://index` and one per note.
 */
export function createMcpServer(invoke: InvokeApi, instructions: string): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    { capabilities: MCP_CAPABILITIES, instructions },
  );
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: await listResources(invoke),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => ({
    contents: [await readResource(invoke, request.params.uri)],
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: MCP_TOOLS.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: toolJsonSchema(tool),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = MCP_TOOLS.find((t) => t.name === request.params.name);
    if (!tool) {
      return {
        isError: true,
        content: [
          {
            type: 'text',
            text: `invalid_input: unknown tool "${request.params.name}"; tools: ${MCP_TOOLS.map((t) => t.name).join(', ')}`,
          },
        ],
      };
    }
    try {
      const { method, input } = tool.route(parseToolArgs(tool, request.params.arguments));
      const result = await invoke(method, input as never);
      return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }] };
    } catch (err) {
      const { error } = toErrorBody(err);
      return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }] };
    }
  });
  return server;
}

/** How often the server looks for note changes (in the core's watched, in-memory lists: no disk reads). */
export const CHANGE_POLL_MS = 1_000;
/**
 * Past prompt-snapshot.ts's RACY_MS, so a snapshot refused as too recent at load is saved then;
 * also how long after the load a snapshot initialize answered from is checked against the notes.
 */
const SNAPSHOT_RETRY_MS = 2_500;

/** The SDK's stdio transport over what the front read and will read, without repeating its answers. */
class FrontedStdioTransport extends StdioServerTransport {
  constructor(private readonly front: McpFront) {
    super(front.input, front.output);
  }

  override start(): Promise<void> {
    this.front.handOver();
    return super.start();
  }

  override send(message: JSONRPCMessage): Promise<void> {
    return this.front.alreadyAnswered(message) ? Promise.resolve() : super.send(message);
  }
}

export interface SdkStart {
  /** What initialize answered (the front's answer, or the SDK's own if the front could not). */
  instructions: string;
  /**
   * The memory prompt from the notes, built once (the first call loads them); null when initialize
   * answered from the prompt snapshot, without the notes.
   */
  notesPrompt: (() => Promise<string>) | null;
  /** Builds the memory prompt again (which also keeps the prompt snapshot current). */
  rebuildPrompt: () => Promise<string>;
  notes: McpNotes;
}

/** The notes behind the server, as the command that runs it reaches them. */
export interface McpNotes {
  /** Loads them (once; the first call that needs them waits for the same load). */
  load(): Promise<void>;
  /** Calls `listener` whenever notes change (a write here, the watcher seeing one on disk). */
  onChange(listener: () => void): () => void;
}

/**
 * Serves MCP with the SDK once the front (front.ts, start.ts) answered initialize, until the client
 * closes stdin. The notes load once the client is initialized (or on the first call that needs
 * them); when the index differs from what initialize said (checked SNAPSHOT_RETRY_MS after the
 * load when initialize answered from the prompt snapshot), and whenever notes change on disk (the
 * app, another agent, an editor), clients get `notifications/resources/list_changed`.
 */
export async function serveWithSdk(invoke: InvokeApi, front: McpFront, start: SdkStart): Promise<void> {
  const server = createMcpServer(invoke, start.instructions);
  const transport = new FrontedStdioTransport(front);
  let poll: NodeJS.Timeout | undefined;
  let closed = false;
  let wakeEarly = (): void => {};
  /** Resolves after ms, or at once when the session closes (its end must not wait for a timer). */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (closed) return resolve();
      const timer = setTimeout(resolve, ms);
      wakeEarly = () => (clearTimeout(timer), resolve());
    });
  const watchNotes = async () => {
    // Without a snapshot, initialize waited for the prompt (the notes loaded for it). With one, the
    // notes load now, and the client's first calls are answered before the snapshot is checked
    // against them (building the index costs ~50 ms at 10,000 notes, which the first recall would
    // otherwise wait for); that rebuild also keeps the snapshot current.
    let prompt = start.notesPrompt ? await start.notesPrompt() : null;
    if (prompt === null) await start.notes.load();
    else
      // A note written just before the start is too recent for the snapshot (RACY_MS): save it again later.
      setTimeout(
        () => void start.rebuildPrompt().catch(reportedOr(undefined, 'mcp: prompt snapshot')),
        SNAPSHOT_RETRY_MS,
      ).unref();
    if (closed) return;
    // A change before the poll's baseline is taken (also one that leaves the index as it was: a
    // body) is told too; after it, the poll sees changes.
    let changedMeanwhile = false;
    const stopListening = start.notes.onChange(() => (changedMeanwhile = true));
    let last: string;
    try {
      if (prompt === null) {
        await pause(SNAPSHOT_RETRY_MS);
        if (closed) return;
        prompt = await start.rebuildPrompt();
        if (closed) return;
      }
      last = await notesFingerprint(invoke);
    } finally {
      stopListening();
    }
    if (closed) return;
    if (prompt !== start.instructions || changedMeanwhile)
      server.sendResourceListChanged().catch(reportedOr(undefined, 'mcp: list_changed'));
    poll = setInterval(() => {
      void notesFingerprint(invoke).then(
        (now) => {
          if (now === last) return;
          last = now;
          server.sendResourceListChanged().catch(reportedOr(undefined, 'mcp: list_changed'));
          void start.rebuildPrompt().catch(reportedOr(undefined, 'mcp: prompt snapshot')); // keeps the prompt snapshot current for the next start
        },
        reportedOr(undefined, 'mcp: notes poll'),
      );
    }, CHANGE_POLL_MS);
  };
  let watching: Promise<void> | undefined;
  server.oninitialized = () => {
    watching = watchNotes().catch(reportedOr(undefined, 'mcp: watch notes'));
  };
  try {
    await new Promise<void>((resolve, reject) => {
      transport.onclose = () => resolve();
      front.input.once('end', () => void server.close().then(resolve, resolve));
      server.connect(transport).catch(reject);
    });
  } finally {
    closed = true;
    wakeEarly();
    clearInterval(poll);
    // A client that leaves while the notes still load: the load ends before the caller closes the
    // project, or a watcher it starts after the close would keep the process alive forever.
    await watching;
  }
}

async function notesFingerprint(invoke: InvokeApi): Promise<string> {
  const { notes } = (await invoke('notes.list', { scope: 'both' } as never)) as {
    notes: Array<{ scope: string; id: string; hash: string }>;
  };
  return notes.map((n) => `${n.scope}:${n.id}:${n.hash}`).join('\n');
}
