import type { ApiOutput } from '../../../shared/api.js';
import type { Scope } from '../../../shared/note.js';
import { projectFilterLabel } from '../../agents/project-filter.js';
import { memoryIndex, recallForAgent } from '../../agents/recall/agent-recall.js';
import { normalizeTags } from '../../../shared/tags.js';
import type { MemoryCore, StoredNote } from '../../memory/types.js';
import type { HandlerContext } from '../context.js';
import { logRecallError } from '../recall-error.js';
import type { ApiHandlers } from '../dispatch.js';

export type NotesHandlers = Pick<
  ApiHandlers,
  | 'notes.list'
  | 'notes.get'
  | 'notes.remember'
  | 'notes.related'
  | 'notes.edit'
  | 'notes.forget'
  | 'notes.search'
  | 'notes.recall'
  | 'notes.index'
>;

type Selection = Scope | 'both';

const NO_NOTES: StoredNote[] = [];

/**
 * Both scopes merged, most recently updated first. Each store keeps its sorted list until it
 * changes (the same array), so the merge is remembered for that pair of arrays: listing 10,000
 * notes again is a lookup, not a sort (bench/load/list.ts).
 */
const mergedCache = new WeakMap<StoredNote[], WeakMap<StoredNote[], StoredNote[]>>();

function selected(core: MemoryCore, scope: Selection): StoredNote[] {
  if (scope !== 'both') return core.store(scope)?.list() ?? NO_NOTES;
  const project = core.store('project')?.list() ?? NO_NOTES;
  const user = core.store('user')?.list() ?? NO_NOTES;
  let byUser = mergedCache.get(project);
  if (!byUser) mergedCache.set(project, (byUser = new WeakMap()));
  let merged = byUser.get(user);
  if (!merged) {
    merged = [...project, ...user].sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1));
    byUser.set(user, merged);
  }
  return merged;
}

type NoteSummary = ApiOutput<'notes.list'>['notes'][number];

/** A stored note is never mutated (a change loads a new object), so its summary is kept with it. */
const summaries = new WeakMap<StoredNote, NoteSummary>();

export function summaryOf(n: StoredNote): NoteSummary {
  let summary = summaries.get(n);
  if (!summary) summaries.set(n, (summary = buildSummary(n)));
  return summary;
}

function buildSummary(n: StoredNote): NoteSummary {
  return {
    id: n.id,
    scope: n.scope,
    summary: n.summary,
    ...(n.type !== undefined ? { type: n.type } : {}),
    tags: n.tags,
    createdAt: n.createdAt,
    updatedAt: n.updatedAt,
    hash: n.hash,
  };
}

export function detailOf(core: MemoryCore, n: StoredNote): ApiOutput<'notes.get'> {
  const usage = core.usage.get(n.scope, n.id);
  return {
    ...summaryOf(n),
    body: n.body,
    links: n.links.map((id) => ({ id, resolved: core.resolveLink(id)?.scope ?? null })),
    backlinks: core.backlinks(n.scope, n.id).map((b) => ({ id: b.id, scope: b.scope, summary: b.summary })),
    recallCount: usage.count,
    lastRecalledAt: usage.lastRecalledAt,
  };
}

export function createNotesHandlers(ctx: HandlerContext): NotesHandlers {
  const { core, notes } = ctx;
  const usageCount = (scope: Scope, id: string): number => core.usage.get(scope, id).count;
  return {
    'notes.list': async ({ scope }) => ({
      notes: selected(core, scope).map(summaryOf),
      warnings: core.warnings(),
    }),
    'notes.get': async (ref) => {
      await core.usage.refresh();
      return detailOf(core, notes.find(ref));
    },
    'notes.remember': async (input) => {
      const result = await notes.remember({
        summary: input.summary,
        body: input.body,
        ...(input.type !== undefined ? { type: input.type } : {}),
        ...(input.tags !== undefined ? { tags: input.tags } : {}),
        ...(input.scope !== undefined ? { scope: input.scope } : {}),
        ...(input.id !== undefined ? { id: input.id } : {}),
      });
      return {
        id: result.note.id,
        scope: result.note.scope,
        related: result.related,
        duplicateOf: result.duplicateOf?.id ?? null,
        danglingLinks: result.danglingLinks,
      };
    },
    'notes.related': async (input) => {
      const { related, duplicateOf } = core.search().related(
        {
          summary: input.summary,
          body: input.body,
          tags: normalizeTags(input.tags ?? []),
          ...(input.type !== undefined ? { type: input.type } : {}),
        },
        { limit: 5 },
      );
      const ref = (n: { id: string; scope: Scope; summary: string }) => ({
        id: n.id,
        scope: n.scope,
        summary: n.summary,
      });
      return { related: related.map(ref), duplicateOf: duplicateOf ? ref(duplicateOf) : null };
    },
    'notes.edit': async (input) => {
      if (input.backupReason !== undefined) {
        const current = notes.find({ id: input.id, ...(input.scope ? { scope: input.scope } : {}) });
        await core.backupNote(current.scope, current.id, input.backupReason);
      }
      const note = await notes.edit({
        id: input.id,
        ...(input.scope !== undefined ? { scope: input.scope } : {}),
        ...(input.summary !== undefined ? { summary: input.summary } : {}),
        ...(input.type !== undefined ? { type: input.type } : {}),
        ...(input.tags !== undefined ? { tags: input.tags } : {}),
        ...(input.body !== undefined ? { body: input.body } : {}),
        ...(input.baseHash !== undefined ? { baseHash: input.baseHash } : {}),
      });
      return detailOf(core, note);
    },
    'notes.forget': async (ref) => notes.forget(ref),
    'notes.search': async ({ query, limit, scope }) => {
      await core.usage.refresh();
      const projectLabel = await projectFilterLabel(core);
      return {
        notes: core.search().search(query, {
          limit,
          scope,
          usage: usageCount,
          ...(projectLabel !== undefined ? { projectLabel } : {}),
        }),
      };
    },
    'notes.recall': async ({ message, alreadyAttached }) => {
      // A preview of what recall would attach: it does not count as a recall (agents.recall, the
      // MCP tool and the hooks are what count).
      const result = await recallForAgent(core, { message, alreadyAttached, record: false });
      if (result.error !== undefined) logRecallError(result.error);
      return { notes: result.notes, linked: result.linked, text: result.text };
    },
    'notes.index': async () => memoryIndex(core),
  };
}
