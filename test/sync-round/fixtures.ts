import { contentHash } from '../../shared/content-hash.js';
import type { HeldNote, HeldReason } from '../../shared/held-note.js';
import { serializeNote } from '../../shared/note-format.js';
import { noteIdKey } from '../../shared/note-id.js';
import type { Note } from '../../shared/note.js';
import type { SyncEntry, SyncLimits } from '../../shared/sync-protocol.js';
import { storedNote } from '../../electron/memory/note-store/stored-note.js';
import type { StoredNote } from '../../electron/memory/types.js';
import { objectKey } from '../../electron/sync/round/object-key.js';
import type { PlanInput } from '../../electron/sync/round/types.js';

/** A note version: its id and body (summary and tags fixed), with its hash and file text. */
export interface Version {
  note: Note;
  hash: string;
  text: string;
}

export function version(id: string, body: string, summary = `note ${id}`): Version {
  const note: Note = { id, summary, tags: [], body, createdAt: 1, updatedAt: 1 };
  return { note, hash: contentHash(note), text: serializeNote(note) };
}

export function local(v: Version): StoredNote {
  return storedNote(v.note, 'user', `/notes/${v.note.id}.md`, 1);
}

export function entry(id: string, v: Version | null, seq = 1): SyncEntry {
  return { id, hash: v?.hash ?? null, rev: v ? `r${seq}` : null, seq, size: v ? v.text.length : 0 };
}

export function limits(
  plan: 'free' | 'paid',
  notesPerScope: number | null,
  noteBytes: number | null,
): SyncLimits {
  return {
    plan,
    quota: {
      notesPerScope: 100_000,
      changesPerCommit: 500,
      noteBytes: 1_000_000,
      responseBytes: 8_000_000,
      tombstoneDays: 90,
    },
    planLimits: { notesPerScope, noteBytes },
  };
}

/** One note's three sides: here (L), the baseline (B), the cloud (C: null = tombstone, undefined = no entry). */
export interface Sides {
  L?: Version;
  B?: Version;
  C?: Version | null;
  /** The baseline has no copy of B. */
  baseCopyMissing?: boolean;
  /** The snapshot did not carry C's body and no copy has it. */
  cloudBodyMissing?: boolean;
  /** The file is on disk here but not loaded (then L must be absent). */
  held?: HeldReason;
}

export function planInput(notes: Record<string, Sides>, over: Partial<PlanInput> = {}): PlanInput {
  const locals = new Map<string, StoredNote>();
  const base: Record<string, string> = {};
  const entries: Record<string, SyncEntry> = {};
  const snapshot = new Map<string, string>();
  const baseline = new Map<string, string>();
  const stored = new Set<string>();
  const held = new Map<string, HeldNote>();
  for (const [id, s] of Object.entries(notes)) {
    if (s.L) locals.set(id, local(s.L));
    if (s.held)
      held.set(noteIdKey(id), { id, path: `/notes/${id}.md`, reason: s.held, message: `${id}: ${s.held}` });
    if (s.B) {
      base[id] = s.B.hash;
      if (!s.baseCopyMissing) {
        baseline.set(s.B.hash, s.B.text);
        stored.add(s.B.hash);
      }
    }
    if (s.C !== undefined) {
      entries[id] = entry(id, s.C);
      if (s.C && !s.cloudBodyMissing) snapshot.set(objectKey(id, s.C.hash), s.C.text);
    }
  }
  return {
    scope: 'user',
    now: 1_000,
    locals,
    held,
    baseline: { base, conflicts: {}, stored },
    cloud: { entries, activeNotes: Object.values(entries).filter((e) => e.hash !== null).length },
    texts: { snapshot, baseline },
    limits: null,
    typedBlocked: false,
    sealed: false,
    deleteDecision: null,
    deleteWindow: null,
    deletedWhileLost: {},
    decidedWhileLost: {},
    deletedInLostCloud: new Set(),
    ...over,
  };
}
