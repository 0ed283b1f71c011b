import { contentHash } from '../../../shared/content-hash.js';
import { AppError } from '../../../shared/errors.js';
import type { Note } from '../../../shared/note.js';
import { mayContainCredentials } from '../../memory/credential-gate.js';
import { credentialWarning } from '../../memory/credentials.js';
import type { StoredNote } from '../../memory/types.js';
import type { PullCounts } from '../baseline-store.js';
import { scoped } from '../scope-labels.js';
import { setBase } from './plan.js';
import type { PullPlan, RoundDeps, StoredObject } from './types.js';

/** A merge result the cloud accepted, to write here too. */
export interface LocalWrite {
  id: string;
  note: Note;
  localBefore: string | null;
  hash: string;
}

/**
 * Writes and deletes on this computer for a round, each conditional on the version the round read
 * (an edit made meanwhile is never overwritten: that note waits a round). What cannot be written
 * here is collected in `notices` for the round's report.
 */
export class LocalWriter {
  readonly notices: string[] = [];
  constructor(private readonly deps: RoundDeps) {}

  get scope(): RoundDeps['scope'] {
    return this.deps.scope;
  }

  /** Writes a note unless this computer's version changed since it was read (then: null). */
  async write(note: Note, expected: string | null, backupReason: string | null): Promise<StoredNote | null> {
    const { deps } = this;
    if (deps.hooks.point) await deps.hooks.point('apply:write');
    // Recorded before the write: the store announces the change before write() returns.
    deps.selfWrites.set(note.id, contentHash(note));
    try {
      return await deps.store.write(note, {
        expectedHash: expected,
        ...(backupReason ? { backupReason } : {}),
        ignoreNoteLimit: true,
      });
    } catch (err) {
      deps.selfWrites.delete(note.id);
      if (
        err instanceof AppError &&
        (err.code === 'conflict' || err.code === 'limit_exceeded' || err.code === 'invalid_input')
      ) {
        if (err.code !== 'conflict')
          this.notices.push(
            scoped(deps.scope, `"${note.id}" from the cloud is not written here: ${err.message}`),
          );
        return null;
      }
      throw err;
    }
  }

  /** Deletes a note (backed up) unless it changed since it was read (then: false). */
  async delete(id: string, expected: string, reason: string): Promise<boolean> {
    const { deps } = this;
    if (deps.hooks.point) await deps.hooks.point('apply:delete');
    deps.selfWrites.set(id, null);
    try {
      await deps.store.delete(id, { backupReason: reason, expectedHash: expected });
      return true;
    } catch (err) {
      deps.selfWrites.delete(id);
      if (err instanceof AppError && (err.code === 'conflict' || err.code === 'not_found')) return false;
      throw err;
    }
  }
}

/**
 * A pulled note that looks like it holds a credential is kept (it is the person's) and named in
 * the round's notices. The cheap gate skips the full check (~0.9 ms a note) for the many notes in
 * which no rule could match, so a pull of thousands of notes stays fast (docs/performance.md).
 */
export async function pulledCredentialWarning(note: Note): Promise<string | null> {
  const fields = [
    ['the summary', note.summary],
    ['the tags', note.tags.join(' ')],
    ['the body', note.body],
  ] as const;
  if (!fields.some(([, text]) => mayContainCredentials(text))) return null;
  return credentialWarning(note.id, fields);
}

/**
 * Step 6 of a round: merge results the cloud accepted, then what came down from the cloud (the
 * replaced or deleted version backed up first). Updates `base` for what was written; `confirm` is
 * told each pull done here (written, deleted, or nothing to do) right after it is done.
 */
export async function applyRound(
  writer: LocalWriter,
  base: Record<string, string>,
  localWrites: readonly LocalWrite[],
  pulls: readonly PullPlan[],
  confirm: (id: string, pulled: string | null) => Promise<void>,
): Promise<{ counts: PullCounts; heldObjects: StoredObject[] }> {
  for (const w of localWrites) {
    const written = await writer.write(w.note, w.localBefore, null);
    // Changed here meanwhile: the version the merge started from is the common ancestor now.
    if (!written) base[w.id] = w.localBefore!;
  }
  const counts: PullCounts = { added: 0, changed: 0, deleted: 0 };
  // The cloud's versions that could not be written here: their copies (stored before the writes)
  // are kept, so the next round (an unchanged listing brings no bodies) tries again and says why
  // again, without a full listing.
  const heldObjects: StoredObject[] = [];
  for (const p of pulls) {
    if (p.note && p.content !== null && p.cloudHash !== null) {
      const written = await writer.write(
        p.note,
        p.localHash,
        p.localHash === null ? null : 'sync: an automatic pull replaced it with the cloud’s version',
      );
      if (!written) {
        heldObjects.push({ hash: p.cloudHash, content: p.content });
        continue;
      }
      const warning = await pulledCredentialWarning(p.note);
      if (warning) writer.notices.push(scoped(writer.scope, warning));
      setBase(base, p.id, p.cloudHash);
      await confirm(p.id, p.cloudHash);
      if (p.localHash === null) counts.added++;
      else counts.changed++;
    } else if (p.localHash !== null) {
      const reason =
        p.reason === 'gone'
          ? 'sync: gone from the cloud after the tombstone window (unchanged here)'
          : 'sync: deleted on another device';
      if (!(await writer.delete(p.id, p.localHash, reason))) continue;
      setBase(base, p.id, null);
      await confirm(p.id, null);
      counts.deleted++;
    } else {
      setBase(base, p.id, null);
      await confirm(p.id, null);
    }
  }
  return { counts, heldObjects };
}
