import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ApiMethodName } from '../../../shared/api.js';
import { toErrorBody } from '../../../shared/errors.js';
import { MCP_TOOLS, parseToolArgs, toolJsonSchema } from './tools.js';

export const MCP_SERVER_NAME = 'memory-desk';

/**
 * Calls the API table: `(method, input) => invokeApi(handlers, method, input)` — the CLI's
 * `io.invoke` is exactly that, so every tool call is validated by the API schema and handled by
 * the handler table, never around it.
 */
export type InvokeApi = (method: ApiMethodName, input: never) => Promise<unknown>;

/**
 * The MCP server: lists the tools and answers calls through the API table. Errors become tool
 * errors (`isError: true`) with `code: message`, so the model sees why.
 */
export function createMcpServer(invoke: InvokeApi, version = '0.1.0'): Server {
  const server = new Server({ name: MCP_SERVER_NAME, version }, { capabilities: { tools: {} } });
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

/** Serves MCP on stdin/stdout until the client closes stdin. Nothing else may write to stdout. */
export async function serveMcpStdio(invoke: InvokeApi, version?: string): Promise<void> {
  const server = createMcpServer(invoke, version);
  const transport = new StdioServerTransport();
  await new Promise<void>((resolve, reject) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => void server.close().then(resolve, resolve));
    server.connect(transport).catch(reject);
  });
}
