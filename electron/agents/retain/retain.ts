import { AppError } from '../../../shared/errors.js';
import type { BankScope, RetainItem, RetainReceipt } from '../../../shared/api/agents.js';
import type { Warning } from '../../../shared/api/notes.js';
import { credentialsMessage, findFieldCredentials } from '../../memory/credentials.js';
import type { MemoryCore, NoteStore, NotesService, StoredNote } from '../../memory/types.js';
import { freeNoteIdFor } from '../note-id-for.js';
import { deriveRetainDraft, retainedContentOf } from './derive.js';
import { RETAIN_SCOPING_KEY, retainTarget } from './bank-scope.js';

export interface RetainDeps {
  core: MemoryCore;
  notes: NotesService;
  /** The directory retain runs in (the project label comes from it when no project is open). */
  cwd: string;
}

export interface RetainResult {
  receipts: RetainReceipt[];
  bankScope: BankScope;
  warnings: Warning[];
}

function hasAllTags(note: StoredNote, tags: readonly string[]): boolean {
  const have = new Set(note.tags.map((t) => t.toLowerCase()));
  return tags.every((t) => have.has(t.toLowerCase()));
}

/** An existing note holding exactly this content (ignoring the context line), carrying the call's tags. */
function findIdentical(
  notes: StoredNote[],
  content: string,
  tags: readonly string[],
): StoredNote | undefined {
  return notes.find((n) => retainedContentOf(n.body) === content && hasAllTags(n, tags));
}

/** Why an item is refused before any write: empty, or a credential (the same check as notes.remember). */
async function refusedReason(item: RetainItem): Promise<string | null> {
  if (!item.content.trim()) return 'content is empty: give one specific, self-contained fact';
  const findings = await findFieldCredentials([
    ['the content', item.content],
    ['the context', item.context],
  ]);
  return findings.length > 0 ? credentialsMessage(findings) : null;
}

/** Stores (or refreshes) one item; throws on failure. `attempt.id` is the id being written, for the receipt. */
async function retainOne(
  deps: RetainDeps,
  store: NoteStore,
  item: { index: number; content: string; context: string | undefined; tags: string[] },
  attempt: { id: string | null },
): Promise<RetainReceipt> {
  const { index, content } = item;
  const identical = findIdentical(store.list(), content, item.tags);
  if (identical) {
    attempt.id = identical.id;
    const { scope: _s, hash, path: _p, mtimeMs: _m, links: _l, ...note } = identical;
    await store.write({ ...note, updatedAt: deps.core.now() }, { expectedHash: hash });
    return {
      index,
      id: identical.id,
      status: 'updated',
      scope: store.scope,
      reason: 'identical content was already stored; its updatedAt was refreshed',
    };
  }
  const draft = deriveRetainDraft({ content, context: item.context, extraTags: item.tags });
  attempt.id = freeNoteIdFor(draft.summary, content, (candidate) => store.get(candidate) !== undefined);
  // remember runs the search engine's related/duplicate check before it writes.
  const { note, duplicateOf } = await deps.notes.remember({ ...draft, scope: store.scope, id: attempt.id });
  return {
    index,
    id: note.id,
    status: 'stored',
    scope: store.scope,
    ...(duplicateOf
      ? {
          probableDuplicate: duplicateOf,
          reason: `probably duplicates "${duplicateOf.summary}" (${duplicateOf.id})`,
        }
      : {}),
  };
}

/**
 * Stores each item as a note, one at a time, and answers one receipt per item in order. A receipt is
 * made only after the core's atomic write (temp file, fsync, rename) has returned for that note, so
 * "stored"/"updated" means durably on disk. Any error is caught per item: one failure never hides
 * the others' results. There is no queue: uploads are the sync scheduler's debounced job.
 */
export async function retain(
  deps: RetainDeps,
  input: { items: RetainItem[]; bankScope?: BankScope | undefined },
): Promise<RetainResult> {
  const warnings: Warning[] = [];
  let bankScope: BankScope;
  if (input.bankScope) {
    bankScope = input.bankScope;
  } else {
    // memory.retain.scoping from the core's config (validated there: invalid → default + warning).
    bankScope = deps.core.config.retain.scoping;
    warnings.push(...deps.core.warnings().filter((w) => w.message.startsWith(RETAIN_SCOPING_KEY)));
  }
  const target = await retainTarget(bankScope, {
    projectRoot: deps.core.project?.root ?? null,
    cwd: deps.cwd,
  });
  warnings.push(...target.warnings);
  const store = deps.core.store(target.scope);

  const receipts: RetainReceipt[] = [];
  for (const [index, item] of input.items.entries()) {
    const refused = await refusedReason(item);
    if (refused) {
      receipts.push({ index, id: null, status: 'refused', reason: refused });
      continue;
    }
    if (!store) {
      receipts.push({
        index,
        id: null,
        status: 'failed',
        scope: target.scope,
        reason: `the ${target.scope} notes directory is not available${target.scope === 'project' ? ' (no project is open)' : ''}; see the warnings of "memdesk status"`,
      });
      continue;
    }
    const content = item.content.trim();
    const attempt: { id: string | null } = { id: null };
    try {
      try {
        receipts.push(
          await retainOne(deps, store, { index, content, context: item.context, tags: target.tags }, attempt),
        );
      } catch (err) {
        // Another process (another agent, the app) wrote into the directory since it was loaded:
        // the id is taken or the note changed. Re-read it once and decide again.
        if (!(err instanceof AppError && err.code === 'conflict')) throw err;
        await store.load();
        receipts.push(
          await retainOne(deps, store, { index, content, context: item.context, tags: target.tags }, attempt),
        );
      }
    } catch (err) {
      const refusal = err instanceof AppError && (err.code === 'refused' || err.code === 'limit_exceeded');
      receipts.push({
        index,
        id: attempt.id,
        status: refusal ? 'refused' : 'failed',
        scope: target.scope,
        reason: err instanceof Error ? err.message : String(err),
      });
    }
  }
  return { receipts, bankScope, warnings };
}
