import type { Scope } from '../../../shared/note.js';
import type { SyncEntry } from '../../../shared/sync-protocol.js';
import type { StoredNote } from '../../memory/types.js';
import { scoped } from '../scope-labels.js';

export interface HistoryReset {
  /** The baseline the cloud still confirms: notes whose cloud entry is the version last agreed on. */
  base: Record<string, string>;
  /** Notes synced before that the cloud no longer has (or holds as deleted): uploaded again. */
  reuploaded: string[];
  /** Notes synced before whose cloud version is another one: three-way without a base. */
  differing: string[];
  notice: string;
}

/**
 * The cloud lost history (its data wiped, or restored from an older backup — the snapshot's
 * `historyReset`): the baseline describes a history the cloud no longer has, so it is trusted only
 * where the cloud still shows the same version. Every other note is planned as if never synced:
 * a note the cloud lacks or holds as deleted is uploaded again (never deleted here), and a note
 * the cloud has in another version (possibly an older one) is a `no_base` conflict unless both
 * sides are equal. Pure.
 */
export function forgetLostHistory(
  scope: Scope,
  base: Readonly<Record<string, string>>,
  entries: Readonly<Record<string, SyncEntry>>,
  locals: ReadonlyMap<string, StoredNote>,
): HistoryReset {
  const kept: Record<string, string> = {};
  const reuploaded: string[] = [];
  const differing: string[] = [];
  for (const [id, hash] of Object.entries(base)) {
    const cloud = entries[id]?.hash ?? null;
    if (cloud === hash) {
      kept[id] = hash;
      continue;
    }
    const local = locals.get(id)?.hash ?? null;
    if (local === null) continue;
    if (cloud === null) reuploaded.push(id);
    else if (cloud !== local) differing.push(id);
  }
  const parts = ['nothing was deleted here'];
  if (reuploaded.length > 0) parts.push(`${reuploaded.length} note(s) it no longer had are uploaded again`);
  if (differing.length > 0)
    parts.push(`${differing.length} note(s) whose cloud version differs wait for you as conflicts`);
  const notice = scoped(
    scope,
    `the sync server lost part of its history (its data was wiped or restored from an older backup): ${parts.join('; ')}`,
  );
  return { base: kept, reuploaded: reuploaded.sort(), differing: differing.sort(), notice };
}
