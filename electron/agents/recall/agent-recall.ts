import type { Scope } from '../../../shared/note.js';
import {
  buildIndexText,
  hiddenInProject,
  type IndexText,
  type RecallResult,
} from '../../memory/search/index.js';
import type { MemoryCore, StoredNote } from '../../memory/types.js';
import { semanticFor } from '../../memory/semantic/for-core.js';
import { MEMORY_GUIDANCE } from '../guidance.js';
import { projectFilterLabel } from '../project-filter.js';
import { savePromptSnapshot, takeDirStamps } from './prompt-snapshot-save.js';
import { refreshCursorRule } from '../cursor-rule.js';
import { reportedOr } from '../../memory/unexpected-error.js';

export interface AgentRecallRequest {
  message: string;
  /** Notes attached earlier in the conversation: ids, or `scope:id`. */
  alreadyAttached?: Iterable<string>;
  /**
   * true when the result reaches an agent (a hook's answer, the MCP `recall` tool): every attached
   * note's recall count and last-recalled time go up in memory-usage/. false for a preview.
   */
  record: boolean;
}

/**
 * Per-message recall with the core's `memory.recall.*` settings, project-true (user notes tagged
 * for other projects are never attached), with the usage nudge from memory-usage/. Never throws
 * for a recall failure: `error` is set and nothing is attached.
 */
export async function recallForAgent(
  core: MemoryCore,
  req: AgentRecallRequest,
): Promise<Pick<RecallResult, 'notes' | 'linked' | 'text' | 'error'> & { notice?: string }> {
  const r = core.config.recall;
  if (!r.enabled) return { notes: [], linked: [], text: '' };
  await core.usage.refresh();
  const projectLabel = await projectFilterLabel(core);
  const semantic = await semanticFor(core, req.message);
  const result = core.search().recall(req.message, {
    perTurn: r.perTurn,
    budgetChars: r.budgetChars,
    minScore: r.minScore,
    alreadyAttached: req.alreadyAttached ?? [],
    usage: (scope: Scope, id: string) => core.usage.get(scope, id).count,
    ...(projectLabel !== undefined ? { projectLabel } : {}),
    ...(semantic?.matches ? { semantic: semantic.matches, semanticWeight: semantic.weight } : {}),
  });
  if (req.record && result.notes.length > 0) await core.usage.record(result.notes);
  return semantic?.notice ? { ...result, notice: semantic.notice } : result;
}

function bothScopes(core: MemoryCore): StoredNote[] {
  return [...(core.store('project')?.list() ?? []), ...(core.store('user')?.list() ?? [])];
}

/** The memory index of the open project: one line per note, newest first, cut to memory.indexChars. */
export async function memoryIndex(core: MemoryCore): Promise<IndexText> {
  return buildIndexText(bothScopes(core), core.config.indexChars, await projectFilterLabel(core));
}

/** The notes an agent in this project sees (user notes tagged for other projects left out), newest first. */
export async function visibleNotes(core: MemoryCore): Promise<StoredNote[]> {
  const label = await projectFilterLabel(core);
  return bothScopes(core)
    .filter((n) => !hiddenInProject(n, label))
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * What goes into the agent's system prompt (MCP `instructions`, a SessionStart hook's context): the
 * guidance on when a note is worth writing, then the index. With no notes at all the index's two
 * lines saying when to write one replace the whole guidance. Kept as the project's
 * prompt snapshot, and in the project's Cursor rule when there is one.
 */
export async function memoryPrompt(core: MemoryCore): Promise<IndexText & { prompt: string }> {
  const stamps = await takeDirStamps(core);
  const index = await memoryIndex(core);
  const empty = index.shown === 0 && index.omitted === 0;
  const prompt = empty
    ? `# Memory\n${index.text}`
    : `# Memory\n${MEMORY_GUIDANCE}\n\nMemory index (newest first):\n${index.text}`;
  // What `memdesk mcp` answers initialize with next time, before loading any note (prompt-snapshot-save.ts).
  await savePromptSnapshot(core, stamps, prompt);
  // Cursor's always-applied rule, when the person asked for one in this project (cursor-rule.ts).
  if (core.project)
    await refreshCursorRule(core.project.root, prompt).catch(reportedOr(undefined, 'cursor rule'));
  return { ...index, prompt };
}
