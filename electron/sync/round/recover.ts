import type { StoredNote } from '../../memory/types.js';
import type { BaselineStore, Journal } from '../baseline-store.js';
import type { SyncEntry } from '../../../shared/sync-protocol.js';
import { noteFromContent } from '../note-content.js';
import type { LocalWriter } from './apply.js';
import { setBase } from './plan.js';

/**
 * Step 3 of a round: finish a previous round's journal — pushes the cloud accepted that this
 * computer may not have written (a crash, or an answer lost after the server committed). A push
 * the cloud does not hold is left to the planner. Updates `locals` and `base` in place.
 */
export async function recoverJournal(
  journal: Journal,
  entries: Readonly<Record<string, SyncEntry>>,
  locals: Map<string, StoredNote>,
  base: Record<string, string>,
  baselines: BaselineStore,
  writer: LocalWriter,
  now: number,
): Promise<void> {
  for (const p of journal.pushes) {
    const cloudHash = entries[p.id]?.hash ?? null;
    if (cloudHash !== p.pushed) continue; // not committed (or changed again since): plan as usual
    const localHash = locals.get(p.id)?.hash ?? null;
    if (localHash === p.pushed) {
      setBase(base, p.id, p.pushed);
    } else if (localHash === p.localBefore && p.pushed !== null) {
      const text = await baselines.getObject(p.pushed);
      const note = text === null ? null : noteFromContent(text, now);
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
