import type { HeldNote } from '../../../shared/held-note.js';
import { noteIdKey } from '../../../shared/note-id.js';
import type { StoredNote } from '../../memory/types.js';
import type { BaselineStore, Journal } from '../baseline-store.js';
import type { SyncEntry } from '../../../shared/sync-protocol.js';
import { noteOfId } from '../note-content.js';
import type { LocalWriter } from './apply.js';
import { setBase } from './plan.js';

/**
 * Step 3 of a round: finish a previous round's journal — pushes the cloud accepted that this
 * computer may not have written (a crash, or an answer lost after the server committed), and
 * pulls written here before the state was saved. A push the cloud does not hold is left to the
 * planner. Updates `locals` and `base` in place.
 */
export async function recoverJournal(
  journal: Journal,
  entries: Readonly<Record<string, SyncEntry>>,
  locals: Map<string, StoredNote>,
  held: ReadonlyMap<string, HeldNote>,
  base: Record<string, string>,
  baselines: BaselineStore,
  writer: LocalWriter,
  now: number,
): Promise<void> {
  // A pulled version was in the cloud, so once written here it is what both sides agreed on as of
  // that pull, whatever the cloud holds now and whatever the person did to the file since (without
  // this, a note pulled just before a crash has no base: a delete on another device would upload
  // it again, a delete here would never reach the cloud, an edit here would be a conflict with
  // nothing). A write not marked counts only when the file holds exactly that version: a process
  // killed before the write leaves no file, and a note of that id the person writes here then is
  // theirs, not an edit of the pull — asked about beside the cloud's if they differ (seed 32714:
  // such a note was taken for the pull edited and uploaded over the other device's note, which
  // survived only in a backup; nothing on disk tells it from a pull written and edited after a
  // kill between the write and its mark, a window of one appended line). Before the pushes: a
  // push the cloud holds now is the newer word on that note.
  for (const p of journal.pulls) {
    const isHeld = held.has(noteIdKey(p.id));
    const localHash = locals.get(p.id)?.hash ?? null;
    if (p.written || (!isHeld && localHash === p.pulled)) setBase(base, p.id, p.pulled);
  }
  for (const p of journal.pushes) {
    const entry = entries[p.id];
    const cloudHash = entry?.hash ?? null;
    // Committed: the cloud holds the push, or its entry's last change replaced exactly that version
    // (another device changed or deleted it since: without this the note would count as never
    // synced here, and a delete made there would be undone by uploading it again). Otherwise not
    // committed, or changed more than once since: plan from the old baseline as usual. A change
    // on top of our push was made after the version the round planning it had seen: an entry not
    // changed since then replaced an earlier version that our push happens to equal (a person
    // undoing another device's edit, pushed and not committed: seed 30691), not our push.
    const stillThere = cloudHash === p.pushed;
    const seen = p.version ?? journal.version;
    const replacedOurs =
      p.pushed !== null && entry?.replaced === p.pushed && (seen === null || entry.seq > seen);
    if (!stillThere && !replacedOurs) continue;
    const localHash = locals.get(p.id)?.hash ?? null;
    if (localHash === p.pushed) {
      setBase(base, p.id, p.pushed);
    } else if (stillThere && localHash === p.localBefore && p.pushed !== null) {
      const text = await baselines.getObject(p.pushed);
      const note = text === null ? null : noteOfId(text, p.id, now);
      if (!note) continue;
      const written = await writer.write(note, localHash, null);
      if (written) {
        locals.set(p.id, written);
        setBase(base, p.id, p.pushed);
      }
    } else if (p.localBefore !== null && (await baselines.hasObject(p.localBefore))) {
      // Edited again here since: the version this computer pushed from is a common ancestor.
      base[p.id] = p.localBefore;
    }
  }
}
