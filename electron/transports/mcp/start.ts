import { MEMORY_GUIDANCE } from '../../agents/guidance.js';
import type { McpFront } from './front.js';
import type { InvokeApi } from './invoke.js';
import type { McpNotes } from './server.js';
import { INDEX_URI } from './resources.js';

/**
 * Without a valid prompt snapshot, how long initialize waits for the notes to put the index in
 * `instructions` (clients read them once); past it, the guidance alone and `list_changed` later.
 */
export const INDEX_WAIT_MS = 10_000;

/** `instructions` while the notes are still loading: the guidance, and where the index will be. */
export const LOADING_INSTRUCTIONS = `# Memory\n${MEMORY_GUIDANCE}\n\nThe memory index is still loading: read the resource ${INDEX_URI} for it.`;

/**
 * `memdesk mcp` until the client closes stdin. initialize never waits for the MCP SDK, and waits
 * for the notes only when there is no valid prompt snapshot: with one, the front answered before
 * the rest of the CLI loaded; otherwise the notes get INDEX_WAIT_MS to load, else the guidance
 * without the index. The SDK (server.ts) is loaded after initialize was answered.
 */
export async function serveMcp(invoke: InvokeApi, front: McpFront, notes: McpNotes): Promise<void> {
  const rebuildPrompt = async () =>
    ((await invoke('agents.prompt', {} as never)) as { prompt: string }).prompt;
  let instructions = await front.snapshot;
  let notesPrompt: (() => Promise<string>) | null = null;
  if (instructions === null) {
    const loading = rebuildPrompt();
    notesPrompt = () => loading;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), INDEX_WAIT_MS)));
    instructions = (await Promise.race([loading.catch(() => null), waited])) ?? LOADING_INSTRUCTIONS;
    clearTimeout(timer);
  }
  front.answer(instructions);
  const { serveWithSdk } = await import('./server.js');
  await serveWithSdk(invoke, front, { instructions, notesPrompt, rebuildPrompt, notes });
}
