import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { toErrorBody } from '../../../shared/errors.js';
import { invokeApi, type ApiHandlers } from '../../api/dispatch.js';
import { MCP_TOOLS, parseToolArgs, toolJsonSchema } from './tools.js';

export const MCP_SERVER_NAME = 'memory-desk';

/**
 * The MCP server: lists the tools and answers calls through the handler table (invokeApi), never
 * around it. Errors become tool errors (`isError: true`) with `code: message`, so the model sees why.
 */
export function createMcpServer(handlers: ApiHandlers, version = '0.1.0'): Server {
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
      const result = await invokeApi(handlers, method, input);
      return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }] };
    } catch (err) {
      const { error } = toErrorBody(err);
      return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }] };
    }
  });
  return server;
}

/** Serves MCP on stdin/stdout until the client closes the stream. Logs go to stderr only. */
export async function serveMcpStdio(
  handlers: ApiHandlers,
  onClose?: () => Promise<void> | void,
): Promise<void> {
  const server = createMcpServer(handlers);
  const transport = new StdioServerTransport();
  await new Promise<void>((resolve, reject) => {
    transport.onclose = () => resolve();
    server.connect(transport).catch(reject);
    process.stdin.once('end', () => void server.close().then(resolve, resolve));
  });
  await onClose?.();
}
