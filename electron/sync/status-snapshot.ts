import { promises as fs } from 'node:fs';
import path from 'node:path';
import { noteIdKey } from '../../shared/note-id.js';
import type { NoteStore } from '../memory/types.js';
import type { BaselineState } from './baseline-store.js';
import type { SyncService } from './sync-service.js';

/**
 * What `sync.status` reads of a scope, kept between calls (the page asks after every round and
 * every change of a note). At 10,000 synced notes, parsing and validating state.json on every call
 * cost ~35 ms of CPU per call (0.4–0.8 s under load, bench/ui/sync-status.ts); now the file is read
 * again only when its stat changed — a round of this process or of another one on the same home
 * writes it atomically, so its inode, size or mtime changes — and the count of notes to upload is
 * counted again only when the state, the notes or what is excluded changed.
 */
interface Kept {
  stat: string;
  state: BaselineState;
  uploads: { list: unknown; state: BaselineState; excluded: string; count: number } | null;
}

const kept = new WeakMap<SyncService, Kept>();

/** The scope's baseline state as last saved; read only (shared between calls). */
export async function statusState(svc: SyncService): Promise<BaselineState> {
  const stat = await statKey(path.join(svc.baselines.dir, 'state.json'));
  const k = kept.get(svc);
  if (stat !== null && k?.stat === stat) return k.state;
  const state = await svc.state();
  if (stat !== null) kept.set(svc, { stat, state, uploads: null });
  else kept.delete(svc);
  return state;
}

/**
 * Notes that differ here from the last sync's version (written, edited or deleted since), as the
 * next round would see them: a held file is not a deletion; conflicts and local-only notes wait
 * for the person or stay here, so they are not "to upload".
 */
export function statusPendingUploads(svc: SyncService, state: BaselineState, excluded: string[]): number {
  const store = svc.store;
  const list = store.list(); // the same array until a note changes
  const held = store.held();
  const key = `${excluded.join('\n')}\u0000${held.map((h) => h.id).join('\n')}`;
  const k = kept.get(svc);
  const u = k?.uploads;
  if (u && u.list === list && u.state === state && u.excluded === key) return u.count;
  const count = pendingUploads(store, state.base, excluded, held);
  if (k && k.state === state) k.uploads = { list, state, excluded: key, count };
  return count;
}

function pendingUploads(
  store: NoteStore,
  base: Readonly<Record<string, string>>,
  excluded: string[],
  heldNotes: ReadonlyArray<{ id: string }>,
): number {
  const skip = new Set(excluded);
  const held = new Set(heldNotes.map((h) => noteIdKey(h.id)));
  let count = 0;
  for (const n of store.list()) if (!skip.has(n.id) && base[n.id] !== n.hash) count++;
  for (const id of Object.keys(base))
    if (!skip.has(id) && !store.get(id) && !held.has(noteIdKey(id))) count++;
  return count;
}

/** The file's identity and version; null when it cannot be told (then it is read as before). */
async function statKey(file: string): Promise<string | null> {
  try {
    const st = await fs.stat(file, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch (err) {
    // No state file yet: loadState answers the empty baseline, which is as good to keep.
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'none' : null;
  }
}
