import type { HeldNote } from '../../../shared/held-note.js';
import type { Scope } from '../../../shared/note.js';
import type { SyncEntry } from '../../../shared/sync-protocol.js';
import type { StoredNote } from '../../memory/types.js';
import { noteIdKey } from '../../../shared/note-id.js';
import { scoped } from '../scope-labels.js';
import type { Journal } from '../baseline-store.js';

export interface HistoryReset {
  /** The baseline the cloud still confirms: notes whose cloud entry is the version last agreed on. */
  base: Record<string, string>;
  /**
   * Notes synced before that the cloud no longer has (or holds as deleted), uploaded again: id →
   * the version last agreed on (BaselineState.reuploadWhileLost until the upload lands).
   */
  reuploaded: Record<string, string>;
  /** Notes synced before whose cloud version is another one: three-way without a base. */
  differing: string[];
  /**
   * Notes unchanged here that the cloud's new history deleted from another version: conflicts
   * (this computer's version may be one the deleting device never saw).
   */
  deletedThere: string[];
  /**
   * Notes deleted here that the cloud lacks or holds in another version: id → the version deleted
   * (BaselineState.deletedWhileLost). The baseline keeps that version for them.
   */
  deletedHere: Record<string, string>;
  /**
   * Notes whose file was held (on disk, not loaded) and whose version the cloud does not confirm:
   * id → the version last agreed on. Planned by these same rules once the file loads again
   * (BaselineState.heldWhileLost): only then can this computer tell an edit from its old copy.
   */
  heldHere: Record<string, string>;
  notice: string;
}

/**
 * The baseline a loss of history is judged against: the state's, and for a note that has none
 * there, the version a journal's push sent (its answer lost, or the process killed before saving
 * the state). That commit may have happened, so the history the cloud lost may have held the
 * version and a device that pulled it may upload it again: for a note deleted here since, it is
 * the version deleted (seed 49555: nothing here remembered it, and the note came back silently).
 * A note with a baseline keeps it: a device that missed the push may hold that version as well.
 */
export function baseAtLoss(
  base: Readonly<Record<string, string>>,
  journal: Journal | null,
): Record<string, string> {
  const atLoss = { ...base };
  for (const p of journal?.pushes ?? []) if (p.pushed !== null && !(p.id in base)) atLoss[p.id] = p.pushed;
  return atLoss;
}

/**
 * A push whose fate this computer never learned (its answer lost, or the process killed before
 * saving), of a note the cloud has no record of and the person deleted here since: it may have
 * landed in a history the cloud lost since, and a device that pulled it may upload it again —
 * which a loss this round cannot see would bring back (seed 157119: the push started from the
 * empty version every history shares, and another device counted the wiped cloud back up). It is
 * remembered as a delete around a loss (deletedWhileLost, the baseline keeping that version, as
 * baseAtLoss does when the loss is seen): that very version is deleted again, any other is asked
 * about. A push that never landed leaves nothing for anyone to upload: the entry waits unused
 * (another device's own note of that id would be asked about: a wrong question, never a loss).
 */
export function rememberPushesDeletedHere(
  journal: Journal,
  entries: Readonly<Record<string, SyncEntry>>,
  locals: ReadonlyMap<string, StoredNote>,
  held: ReadonlyMap<string, HeldNote>,
  base: Record<string, string>,
  deletedWhileLost: Record<string, string>,
): void {
  // A round that started from a version with a head notices a loss by it (snapshot.ts, baseAtLoss);
  // only one that started from the empty version 0 (or a server without heads) cannot.
  if (journal.version !== null && journal.version > 0 && journal.head !== undefined) return;
  for (const p of journal.pushes) {
    if (p.pushed === null || entries[p.id] !== undefined || p.id in base) continue;
    if (locals.has(p.id) || held.has(noteIdKey(p.id))) continue;
    deletedWhileLost[p.id] ??= p.pushed;
    base[p.id] = p.pushed;
  }
}

/**
 * Whether the cloud, after losing history, still agrees with a version agreed on before: it holds
 * that version, or its new history deleted exactly that version (as trustworthy as an agreed
 * version: whoever deleted it had it).
 */
export function stillAgreed(entry: SyncEntry | undefined, agreed: string | null): boolean {
  const cloud = entry?.hash ?? null;
  return cloud === agreed || (cloud === null && agreed !== null && entry?.replaced === agreed);
}

/**
 * The cloud lost history (its data wiped, or restored from an older backup — the snapshot's
 * `historyReset`): the baseline describes a history the cloud no longer has, so it is trusted only
 * where the cloud still shows the same version. Every other note is planned as if never synced:
 * a note the cloud lacks or holds as deleted is uploaded again (never deleted here), and a note
 * the cloud has in another version (possibly an older one) is a `no_base` conflict unless both
 * sides are equal. A note deleted here is not forgotten: the baseline keeps the version deleted
 * while the cloud lacks the note or holds another version (plan.ts then pushes the delete once a
 * device uploads that version again, and shows any other version as a conflict) — else a device
 * still holding it would upload it again and the note would silently come back. Pure.
 */
export function forgetLostHistory(
  scope: Scope,
  base: Readonly<Record<string, string>>,
  entries: Readonly<Record<string, SyncEntry>>,
  locals: ReadonlyMap<string, StoredNote>,
  /** Files on disk that are not loaded, by noteIdKey. */
  held: ReadonlyMap<string, unknown>,
): HistoryReset {
  const kept: Record<string, string> = {};
  const reuploaded: Record<string, string> = {};
  const differing: string[] = [];
  const deletedHere: Record<string, string> = {};
  const deletedThereUnplaced: string[] = [];
  const heldHere: Record<string, string> = {};
  for (const [id, hash] of Object.entries(base)) {
    const cloud = entries[id]?.hash ?? null;
    if (stillAgreed(entries[id], hash)) {
      kept[id] = hash;
      continue;
    }
    // A held file (on disk, not loaded) is not a deletion: planned as never synced until it loads
    // again, then by these rules with the version kept here (seed 31988: its old copy was uploaded
    // silently over the cloud's delete of a version it never had).
    if (held.has(noteIdKey(id))) {
      heldHere[id] = hash;
      continue;
    }
    const local = locals.get(id)?.hash ?? null;
    if (local === null) {
      deletedHere[id] = hash;
      // Unless deleted in the cloud's new history too, the baseline keeps the version deleted here.
      if (entries[id] === undefined || cloud !== null) kept[id] = hash;
      continue;
    }
    // Deleted in the cloud's new history, from a version this computer cannot place (the delete
    // may have replaced a newer version of this one, or an older): the person decides.
    if (cloud === null && entries[id] !== undefined && local === hash) deletedThereUnplaced.push(id);
    else if (cloud === null) reuploaded[id] = hash;
    else if (cloud !== local) differing.push(id);
  }
  const parts = ['nothing was deleted here'];
  const again = Object.keys(reuploaded).length;
  if (again > 0) parts.push(`${again} note(s) it no longer had are uploaded again`);
  const stillDeleted = Object.keys(deletedHere).length;
  if (stillDeleted > 0) parts.push(`${stillDeleted} note(s) deleted here stay deleted`);
  const waiting = differing.length + deletedThereUnplaced.length;
  if (waiting > 0) parts.push(`${waiting} note(s) whose cloud version differs wait for you as conflicts`);
  const notice = scoped(
    scope,
    `the sync server lost part of its history (its data was wiped or restored from an older backup): ${parts.join('; ')}`,
  );
  return {
    base: kept,
    reuploaded,
    differing: differing.sort(),
    deletedThere: deletedThereUnplaced.sort(),
    deletedHere,
    heldHere,
    notice,
  };
}

/**
 * Notes the cloud lost that this computer has not uploaded again yet (BaselineState.reuploadWhileLost:
 * id → the version agreed on before the loss; the upload was refused — a case twin in the cloud, a
 * limit). One deleted here before its upload landed is deleted while lost, as forgetLostHistory
 * plans a note deleted before the loss: a device still holding that version may upload it again
 * (seed 128228). Returns those still waiting, and for the ones deleted here the version deleted
 * and the baseline to keep (unless the cloud's new history deleted the note too). Pure.
 */
export function settleReuploads(
  pending: Readonly<Record<string, string>>,
  base: Readonly<Record<string, string>>,
  entries: Readonly<Record<string, SyncEntry>>,
  locals: ReadonlyMap<string, StoredNote>,
  /** Files on disk that are not loaded, by noteIdKey. */
  held: ReadonlyMap<string, unknown>,
): { waiting: Record<string, string>; deletedHere: Record<string, string>; base: Record<string, string> } {
  const waiting: Record<string, string> = {};
  const deletedHere: Record<string, string> = {};
  const kept: Record<string, string> = {};
  for (const [id, agreed] of Object.entries(pending)) {
    if (locals.has(id) || held.has(noteIdKey(id))) waiting[id] = agreed;
    else if (!(id in base)) {
      deletedHere[id] = agreed;
      const cloud = entries[id];
      if (cloud === undefined || cloud.hash !== null) kept[id] = agreed;
    }
  }
  return { waiting, deletedHere, base: kept };
}
