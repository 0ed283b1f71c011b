import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { toErrorBody } from '../../../shared/errors.js';
import type { InvokeApi } from './invoke.js';
import { MEMORY_GUIDANCE } from '../../agents/guidance.js';
import { INDEX_URI, listResources, readResource } from './resources.js';
import { MCP_TOOLS, parseToolArgs, toolJsonSchema } from './tools.js';
import { reportedOr } from '../../memory/unexpected-error.js';

export const MCP_SERVER_NAME = 'memory-desk';

/**
 * The MCP server: lists the tools and answers calls through the API table. Errors become tool
 * errors (`isError: true`) with `code: message`, so the model sees why. `instructions` (sent with
 * the initialize result, which clients put in the system prompt) carry the memory prompt: the
 * guidance on when to write a note, and the index. Resources: `memory://index` and one per note.
 */
export function createMcpServer(invoke: InvokeApi, instructions: string, version = '0.1.0'): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version },
    { capabilities: { tools: {}, resources: { listChanged: true } }, instructions },
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
 * Without a valid prompt snapshot, how long initialize waits for the notes to put the index in
 * `instructions` (clients read them once); past it, the guidance alone and `list_changed` later.
 */
export const INDEX_WAIT_MS = 10_000;
/** Past prompt-snapshot.ts's RACY_MS, so a snapshot refused as too recent at load is saved then. */
const SNAPSHOT_RETRY_MS = 2_500;

/** `instructions` while the notes are still loading: the guidance, and where the index will be. */
export const LOADING_INSTRUCTIONS = `# Memory\n${MEMORY_GUIDANCE}\n\nThe memory index is still loading: read the resource ${INDEX_URI} for it.`;

export interface McpStart {
  /**
   * The memory prompt saved when the notes were last loaded, if nothing changed since
   * (agents/recall/prompt-snapshot.ts): initialize is answered with it before any note is loaded.
   */
  snapshot: string | null;
  version?: string;
}

/**
 * Serves MCP on stdin/stdout until the client closes stdin. Nothing else may write to stdout.
 * initialize and tools/list never wait for the notes: `instructions` is the prompt snapshot when
 * there is a valid one; otherwise the notes get INDEX_WAIT_MS to load, else the guidance without
 * the index. The notes load once the client is initialized (or
 * on the first call that needs them); when the index then differs from what initialize said, and
 * whenever notes change on disk (the app, another agent, an editor), clients get
 * `notifications/resources/list_changed`.
 */
export async function serveMcpStdio(invoke: InvokeApi, start: McpStart): Promise<void> {
  let loading: Promise<string> | null = null;
  const prompt = () =>
    (invoke('agents.prompt', {} as never) as Promise<{ prompt: string }>).then((p) => p.prompt);
  const load = () => (loading ??= prompt());
  let instructions = start.snapshot;
  if (instructions === null) {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), INDEX_WAIT_MS)));
    instructions = (await Promise.race([load().catch(() => null), waited])) ?? LOADING_INSTRUCTIONS; // watchNotes reports a failure
    clearTimeout(timer);
  }
  const server = createMcpServer(invoke, instructions, start.version);
  const transport = new StdioServerTransport();
  let poll: NodeJS.Timeout | undefined;
  let closed = false;
  const watchNotes = async () => {
    const first = await load();
    if (closed) return;
    if (first !== instructions)
      server.sendResourceListChanged().catch(reportedOr(undefined, 'mcp: list_changed'));
    // A note written just before the start is too recent for the snapshot (RACY_MS): save it again later.
    setTimeout(
      () => void prompt().catch(reportedOr(undefined, 'mcp: prompt snapshot')),
      SNAPSHOT_RETRY_MS,
    ).unref();
    let last = await notesFingerprint(invoke);
    poll = setInterval(() => {
      void notesFingerprint(invoke).then(
        (now) => {
          if (now === last) return;
          last = now;
          server.sendResourceListChanged().catch(reportedOr(undefined, 'mcp: list_changed'));
          void prompt().catch(reportedOr(undefined, 'mcp: prompt snapshot')); // keeps the prompt snapshot current for the next start
        },
        reportedOr(undefined, 'mcp: notes poll'),
      );
    }, CHANGE_POLL_MS);
  };
  server.oninitialized = () => void watchNotes().catch(reportedOr(undefined, 'mcp: watch notes'));
  try {
    await new Promise<void>((resolve, reject) => {
      transport.onclose = () => resolve();
      process.stdin.once('end', () => void server.close().then(resolve, resolve));
      server.connect(transport).catch(reject);
    });
  } finally {
    closed = true;
    clearInterval(poll);
  }
}

async function notesFingerprint(invoke: InvokeApi): Promise<string> {
  const { notes } = (await invoke('notes.list', { scope: 'both' } as never)) as {
    notes: Array<{ scope: string; id: string; hash: string }>;
  };
  return notes.map((n) => `${n.scope}:${n.id}:${n.hash}`).join('\n');
}
