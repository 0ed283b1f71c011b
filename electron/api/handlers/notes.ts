import type { ApiOutput } from '../../../shared/api.js';
import type { Scope } from '../../../shared/note.js';
import { projectFilterLabel } from '../../agents/project-filter.js';
import { memoryIndex } from '../../agents/recall/agent-recall.js';
import { semanticFor } from '../../memory/semantic/for-core.js';
import { normalizeTags } from '../../../shared/tags.js';
import type { MemoryCore, StoredNote } from '../../memory/types.js';
import type { HandlerContext } from '../context.js';
import { recallReply } from '../recall-reply.js';
import { notePage, tagCounts } from './note-pages.js';
import type { ApiHandlers } from '../dispatch.js';

export type NotesHandlers = Pick<
  ApiHandlers,
  | 'notes.list'
  | 'notes.tags'
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
    'notes.list': async ({ scope, ...page }) => {
      const { notes: shown, total, nextCursor } = notePage(selected(core, scope), page);
      return { notes: shown.map(summaryOf), warnings: core.warnings(), total, nextCursor };
    },
    'notes.tags': async ({ scope }) => ({ tags: tagCounts(selected(core, scope)) }),
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
    'notes.search': async ({ query, limit, scope, listing }) => {
      await core.usage.refresh();
      const projectLabel = await projectFilterLabel(core);
      const semantic = await semanticFor(core, query);
      const hits = core.search().search(query, {
        limit,
        scope,
        usage: usageCount,
        ...(projectLabel !== undefined ? { projectLabel } : {}),
        ...(semantic?.matches ? { semantic: semantic.matches, semanticWeight: semantic.weight } : {}),
      });
      return {
        notes: listing ? listingHits(core, hits, query, scope) : hits,
        ...(semantic?.notice ? { notice: semantic.notice } : {}),
      };
    },
    // A preview of what recall would attach: it does not count as a recall (agents.recall, the
    // MCP tool and the hooks are what count).
    'notes.recall': ({ message, alreadyAttached }) =>
      recallReply(core, { message, alreadyAttached, record: false }),
    'notes.index': async () => memoryIndex(core),
  };
}

type SearchHit = ApiOutput<'notes.search'>['notes'][number];
const NO_MATCH = {
  matched: { summary: [], tags: [], body: [] },
  parts: { summary: 0, tags: 0, body: 0, usage: 0 },
};

/**
 * The Memory page's hits: each with the list's fields (type, tags, dates), and the note whose id
 * is the query first (typing an id finds that note, whatever its words score).
 */
function listingHits(core: MemoryCore, hits: SearchHit[], query: string, scope: Selection): SearchHit[] {
  const withFields = (h: SearchHit, n: StoredNote | undefined): SearchHit => {
    if (!n) return h;
    const { id: _id, scope: _scope, summary: _summary, ...fields } = summaryOf(n);
    return { ...h, ...fields };
  };
  const out = hits.map((h) => withFields(h, core.store(h.scope)?.get(h.id)));
  const id = query.trim();
  const scopes: Scope[] = scope === 'both' ? ['project', 'user'] : [scope];
  const exact = id ? scopes.map((s) => core.store(s)?.get(id)).find((n) => n !== undefined) : undefined;
  if (!exact) return out;
  const at = out.findIndex((h) => h.id === exact.id && h.scope === exact.scope);
  const first =
    at >= 0
      ? out.splice(at, 1)[0]!
      : withFields(
          { id: exact.id, scope: exact.scope, summary: exact.summary, score: 0, why: NO_MATCH },
          exact,
        );
  return [first, ...out];
}
