import type { RetainReceipt } from '../../../shared/api/agents.js';
import { AppError } from '../../../shared/errors.js';
import type { Scope } from '../../../shared/note.js';
import { normalizeTags } from '../../../shared/tags.js';
import type { NotesService, StoredNote } from '../../memory/types.js';
import { deriveSummary, hashtagsOf, retainBody } from '../retain/derive.js';

/** A related note as the model is shown it: it may ask to rewrite exactly these, nothing else. */
export interface ShownNote {
  /** The handle the model uses: `n1`, `n2`… (never a path or an id it could guess). */
  ref: string;
  id: string;
  scope: Scope;
  summary: string;
  /** The version shown: the rewrite is refused if the note changed since (never overwritten). */
  hash: string;
  body: string;
}

/** Characters of a related note's body shown to the model, enough to correct or extend it. */
export const SHOWN_BODY_CHARS = 600;

export const REWRITE_BACKUP_REASON = 'rewritten by extraction (memdesk extract)';

export function showNote(note: StoredNote, ref: string): ShownNote {
  return { ref, id: note.id, scope: note.scope, summary: note.summary, hash: note.hash, body: note.body };
}

/** How the prompt lists a shown note. */
export function shownLine(n: ShownNote): string {
  const body = n.body.replace(/\s+/g, ' ').trim();
  const clipped = body.length > SHOWN_BODY_CHARS ? `${body.slice(0, SHOWN_BODY_CHARS)}…` : body;
  return `- [${n.ref}] ${n.summary.replace(/\s+/g, ' ').trim()} — ${clipped}`;
}

/**
 * Rewrites a related note with a fact the conversation corrected or extended, instead of adding a
 * near-duplicate beside it: summary and body from the fact (as retain derives them), the note's
 * own tags kept (its project tag among them) plus the fact's #hashtags, its type and id kept. The
 * old version goes to memory-backups/ first; the write is refused when the note changed since it
 * was shown; credentials are refused as in every edit. One receipt, like retain's.
 */
export async function rewriteNote(
  notes: NotesService,
  shown: ShownNote,
  fact: { content: string; context?: string },
  index: number,
): Promise<RetainReceipt> {
  try {
    const note = await notes.edit({
      id: shown.id,
      scope: shown.scope,
      baseHash: shown.hash,
      summary: deriveSummary(fact.content),
      body: retainBody(fact.content, fact.context),
      tags: normalizeTags([
        ...notes.find({ id: shown.id, scope: shown.scope }).tags,
        ...hashtagsOf(fact.content),
      ]),
      backupReason: REWRITE_BACKUP_REASON,
    });
    return {
      index,
      id: note.id,
      status: 'updated',
      scope: note.scope,
      reason: `rewrote the related note "${shown.summary}" (its old version is in memory-backups/)`,
    };
  } catch (err) {
    const refused = err instanceof AppError && (err.code === 'refused' || err.code === 'conflict');
    return {
      index,
      id: shown.id,
      status: refused ? 'refused' : 'failed',
      scope: shown.scope,
      reason: (err as Error).message,
    };
  }
}
