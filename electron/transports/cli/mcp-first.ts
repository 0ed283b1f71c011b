import type { Readable, Writable } from 'node:stream';
import { readPromptSnapshot, type SnapshotPlace } from '../../agents/recall/prompt-snapshot.js';
import { McpFront } from '../mcp/front.js';
import { homeOf, parseGlobals, projectRootOf } from './globals.js';

/**
 * `memdesk [--home DIR] [--project DIR] mcp` starts here, before the rest of the CLI (zod, the API
 * table, the MCP SDK) is loaded: the front reads the client's initialize and answers it from the
 * prompt snapshot (docs/performance.md). Everything this module loads is Node's own or a few small
 * modules of ours (test/mcp/mcp-first.test.ts holds the SDK and zod back until the answer came).
 */
export function mcpFront(input: Readable, output: Writable, place: SnapshotPlace): McpFront {
  return new McpFront({ input, output, snapshot: readPromptSnapshot(place) });
}

/**
 * When argv is the mcp command: its front, once the rest may load (initialize answered, or it
 * cannot be answered before the notes are). Anything else — another command, --help, a usage
 * mistake — null: runCli handles it as always.
 */
export async function startMcpFirst(
  argv: string[],
  io: { stdin: Readable; stdout: Writable; env: Record<string, string | undefined>; cwd: string },
): Promise<McpFront | null> {
  let globals;
  try {
    globals = parseGlobals(argv);
  } catch {
    return null;
  }
  if (globals.help || globals.version || globals.rest.length !== 1 || globals.rest[0] !== 'mcp') return null;
  const front = mcpFront(io.stdin, io.stdout, {
    home: homeOf(globals, io.cwd, io.env),
    projectRoot: projectRootOf(globals, io.cwd),
    env: io.env,
  });
  await front.ready;
  return front;
}
