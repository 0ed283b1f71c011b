import type { MergeDraft, MergePlan, MergeResult } from '../../shared/api/cleanup.js';
import { MergeDraftSchema } from '../../shared/api/cleanup.js';
import { AppError } from '../../shared/errors.js';
import type { Note, Scope } from '../../shared/note.js';
import { noteIdKey } from '../../shared/note-id.js';
import { normalizeTags } from '../../shared/tags.js';
import { credentialsMessage, findFieldCredentials } from '../memory/credentials.js';
import type { NoteStore, StoredNote } from '../memory/types.js';
import type { MergeSync } from './merge-sync-port.js';
import { plainNote } from '../../shared/note-format.js';
import { repointLinks } from './link-rewrite.js';
import { manualDraft, oldestFirst } from './manual-draft.js';

/** What planning and applying a merge need of the memory core (a MemoryCore fits). */
export interface MergeCore {
  store(scope: Scope): NoteStore | null;
  readonly now: () => number;
  backupNote(scope: Scope, id: string, reason: string): Promise<{ id: string } | null>;
}

export const MIN_MERGE = 2;
export const MAX_MERGE = 6;

/** The store of the scope; when no scope is given, the one holding all the ids (project first). */
export function resolveMergeNotes(
  core: MergeCore,
  ids: readonly string[],
  scope?: Scope,
): { scope: Scope; store: NoteStore; notes: StoredNote[] } {
  const unique = [...new Map(ids.map((id) => [noteIdKey(id), id])).values()];
  if (unique.length < MIN_MERGE || unique.length > MAX_MERGE) {
    throw new AppError(
      'invalid_input',
      `a merge takes ${MIN_MERGE} to ${MAX_MERGE} different notes, got ${unique.length}`,
    );
  }
  const scopes: Scope[] = scope ? [scope] : ['project', 'user'];
  for (const s of scopes) {
    const store = core.store(s);
    if (!store) continue;
    const found = unique.map((id) => store.get(id));
    if (found.every((n): n is StoredNote => n !== undefined)) return { scope: s, store, notes: found };
    if (scope) {
      const missing = unique.filter((_, i) => !found[i]);
      throw new AppError(
        'not_found',
        `no ${s} note ${missing.map((m) => `"${m}"`).join(', ')}; a merge takes notes of one scope`,
      );
    }
  }
  if (scope) throw new AppError('unavailable', `the ${scope} notes are not available`);
  throw new AppError(
    'not_found',
    `the notes ${unique.map((m) => `"${m}"`).join(', ')} are not all in one scope (project or user); a merge takes notes of one scope`,
  );
}

/** A plan with the manual draft; the caller may swap in a model draft. */
export function planManualMerge(scope: Scope, notes: readonly StoredNote[]): MergePlan {
  const ordered = oldestFirst(notes);
  const basis: Record<string, string> = {};
  for (const n of ordered) basis[n.id] = n.hash;
  return { scope, keepId: ordered[0]!.id, draft: manualDraft(ordered), basis, draftSource: 'manual' };
}

export interface ApplyMergeOptions {
  /** The link to the sync engine; omitted (or sync off for the scope) → a plain local merge. */
  sync?: MergeSync | null;
  /** Reason recorded with every backup. */
  reason?: string;
}

/**
 * Applies a plan: keeps `keepId` with the draft, deletes the other notes, points every `[[deleted]]`
 * link in the scope at the kept note. Refused (nothing written) when any planned note changed or
 * vanished since planning (the message names them), when keepId is not the oldest, or when the
 * merged body is over memory.maxNoteBytes.
 *
 * Order, so that a failure midway loses nothing: every note that will be rewritten is backed up
 * first; then the kept note is written (it now holds everything), then the repointed notes, then
 * the merged-away notes are deleted (each delete backs up first). Each write and delete checks the
 * note's hash under the directory lock.
 */
export async function applyMerge(
  core: MergeCore,
  plan: MergePlan,
  opts: ApplyMergeOptions = {},
): Promise<MergeResult> {
  const reason = opts.reason ?? `merge into ${plan.keepId}`;
  const ids = Object.keys(plan.basis);
  if (!ids.some((id) => id === plan.keepId))
    throw new AppError('invalid_input', `the plan's keepId "${plan.keepId}" is not one of its notes`);
  const draftCheck = MergeDraftSchema.safeParse(plan.draft);
  if (!draftCheck.success)
    throw new AppError(
      'invalid_input',
      `the merged note is not valid: ${draftCheck.error.issues[0]?.message ?? 'bad draft'}`,
    );
  const store = core.store(plan.scope);
  if (!store) throw new AppError('unavailable', `the ${plan.scope} notes are not available`);

  const sync = opts.sync && (await opts.sync.enabled(plan.scope)) ? opts.sync : null;
  await store.load();

  // Refused if anything changed since planning: say which.
  const changed: string[] = [];
  const missing: string[] = [];
  const current: StoredNote[] = [];
  for (const id of ids) {
    const note = store.get(id);
    if (!note) missing.push(id);
    else if (note.hash !== plan.basis[id]) changed.push(id);
    else current.push(note);
  }
  if (missing.length || changed.length) {
    const parts = [
      ...(changed.length ? [`changed since the merge was planned: ${changed.join(', ')}`] : []),
      ...(missing.length ? [`no longer exist: ${missing.join(', ')}`] : []),
    ];
    throw new AppError('conflict', `merge refused — ${parts.join('; ')}. Plan the merge again.`, {
      changed,
      missing,
    });
  }
  const ordered = oldestFirst(current);
  const kept = ordered[0]!;
  if (noteIdKey(kept.id) !== noteIdKey(plan.keepId)) {
    throw new AppError('invalid_input', `a merge keeps the oldest note, "${kept.id}", not "${plan.keepId}"`);
  }
  const deleteIds = ordered.slice(1).map((n) => n.id);

  const draft = normalizeDraft(plan.draft);
  const keptBody = repointLinks(draft.body, deleteIds, kept.id).body;
  const bytes = Buffer.byteLength(keptBody, 'utf8');
  // The limit of the store the merged note is written to (the user config's for the user scope;
  // core.config is project-layered), checked before anything is backed up or sent to sync.
  if (bytes > store.maxNoteBytes) {
    throw new AppError(
      'limit_exceeded',
      `the merged body is ${bytes} bytes, over memory.maxNoteBytes (${store.maxNoteBytes}); shorten the draft before applying`,
    );
  }

  // A draft (typed, or a model's) may not add a credential; one already in the merged notes is theirs.
  const sources = current.map((n) => `${n.summary}\n${n.tags.join(' ')}\n${n.body}`);
  const draftFields = [
    ['the summary', draft.summary],
    ['the tags', draft.tags.join(' ')],
    ['the body', keptBody],
  ] as const;
  const added = (await findFieldCredentials(draftFields)).filter((f) => {
    const text = draftFields.find(([field]) => field === f.field)![1];
    const secret = text.slice(f.index, f.index + f.length);
    return !sources.some((s) => s.includes(secret));
  });
  if (added.length > 0) throw new AppError('refused', `the merged draft: ${credentialsMessage(added)}`);

  const now = core.now();
  const keptNote: Note = {
    id: kept.id,
    summary: draft.summary,
    ...(draft.type !== undefined ? { type: draft.type } : {}),
    tags: draft.tags,
    createdAt: kept.createdAt,
    updatedAt: Math.max(now, kept.updatedAt),
    body: keptBody,
    ...(kept.extra ? { extra: kept.extra } : {}),
  };
  const deleted = new Set(deleteIds.map(noteIdKey));
  const repoints: Array<{ before: StoredNote; after: Note; links: number }> = [];
  for (const note of store.list()) {
    if (deleted.has(noteIdKey(note.id)) || noteIdKey(note.id) === noteIdKey(kept.id)) continue;
    if (!note.links.some((l) => deleted.has(noteIdKey(l)))) continue;
    const { body, count } = repointLinks(note.body, deleteIds, kept.id);
    if (count === 0) continue;
    repoints.push({
      before: note,
      after: { ...plainNote(note), body, updatedAt: Math.max(now, note.updatedAt) },
      links: count,
    });
  }

  const result = (backupIds: string[], committedFirst: boolean): MergeResult => ({
    scope: plan.scope,
    keptId: kept.id,
    deletedIds: deleteIds,
    repointed: repoints.map((r) => ({ id: r.before.id, links: r.links })),
    backupIds,
    committedFirst,
  });

  if (sync) {
    // Sync on: the engine syncs the scope, commits the whole batch strictly, then writes it here.
    const committed = await sync.commitFirst(plan.scope, {
      puts: [
        { note: keptNote, expectedHash: kept.hash },
        ...repoints.map((r) => ({ note: r.after, expectedHash: r.before.hash })),
      ],
      deletes: deleteIds.map((id) => ({ id, expectedHash: plan.basis[id]! })),
      backupReason: reason,
    });
    return result(committed.backupIds, committed.cloud === 'committed');
  }

  // Backups first: every note that is about to be rewritten (deletes back up on their own, later).
  const backupIds: string[] = [];
  for (const note of [kept, ...repoints.map((r) => r.before)]) {
    const entry = await core.backupNote(plan.scope, note.id, reason);
    if (entry) backupIds.push(entry.id);
  }

  const done: string[] = [];
  const step = async (what: string, fn: () => Promise<void>): Promise<void> => {
    try {
      await fn();
      done.push(what);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new AppError(
        err instanceof AppError ? err.code : 'io_error',
        `merge stopped at ${what}: ${message}. ${done.length ? `Already done: ${done.join('; ')}. ` : ''}Nothing is lost: every changed note was backed up first (backups: ${backupIds.join(', ') || 'none'}).`,
      );
    }
  };
  await step(`writing the merged note ${kept.id}`, async () => {
    await store.write(keptNote, { expectedHash: kept.hash });
  });
  for (const r of repoints) {
    await step(`repointing links in ${r.before.id}`, async () => {
      await store.write(r.after, { expectedHash: r.before.hash });
    });
  }
  for (const id of deleteIds) {
    await step(`deleting ${id}`, async () => {
      const result = await store.delete(id, { backupReason: reason, expectedHash: plan.basis[id]! });
      backupIds.push(result.backupId);
    });
  }
  return result(backupIds, false);
}

function normalizeDraft(draft: MergeDraft): MergeDraft {
  return {
    summary: draft.summary.replace(/\s*\n\s*/g, ' ').trim(),
    ...(draft.type !== undefined ? { type: draft.type } : {}),
    tags: normalizeTags(draft.tags),
    body: draft.body,
  };
}
