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
import { listResources, readResource } from './resources.js';
import { MCP_TOOLS, parseToolArgs, toolJsonSchema } from './tools.js';

export const MCP_SERVER_NAME = 'memory-desk';

/**
 * The MCP server: lists the tools and answers calls through the API table. Errors become tool
 * errors (`isError: true`) with `code: message`, so the model sees why. `instructions` (sent with
 * the initialize result, which clients put in the system prompt) carry the memory prompt: the
 * seed's guidance and the index. Resources: `memory://index` and one per note.
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
 * Serves MCP on stdin/stdout until the client closes stdin. Nothing else may write to stdout. When
 * notes change on disk (the app, another agent, an editor), clients get
 * `notifications/resources/list_changed`.
 */
export async function serveMcpStdio(invoke: InvokeApi, version?: string): Promise<void> {
  const { prompt } = (await invoke('agents.prompt', {} as never)) as { prompt: string };
  const server = createMcpServer(invoke, prompt, version);
  const transport = new StdioServerTransport();
  let last = await notesFingerprint(invoke);
  const poll = setInterval(() => {
    void notesFingerprint(invoke).then(
      (now) => {
        if (now === last) return;
        last = now;
        server.sendResourceListChanged().catch(() => {});
      },
      () => {},
    );
  }, CHANGE_POLL_MS);
  try {
    await new Promise<void>((resolve, reject) => {
      transport.onclose = () => resolve();
      process.stdin.once('end', () => void server.close().then(resolve, resolve));
      server.connect(transport).catch(reject);
    });
  } finally {
    clearInterval(poll);
  }
}

async function notesFingerprint(invoke: InvokeApi): Promise<string> {
  const { notes } = (await invoke('notes.list', { scope: 'both' } as never)) as {
    notes: Array<{ scope: string; id: string; hash: string }>;
  };
  return notes.map((n) => `${n.scope}:${n.id}:${n.hash}`).join('\n');
}
