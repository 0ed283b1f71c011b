import { createStore, useStore } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';
import type { NoteType, Scope } from '../../shared/note.js';

/**
 * Unsaved work, kept per note until it is saved or discarded explicitly: survives switching notes,
 * tabs and a reload (localStorage). The editor, the new-note form, 待整理's merge editor and a sync
 * conflict's hand merge write here as the person types; nothing else removes an entry.
 */
export interface DraftFields {
  summary: string;
  type: NoteType | '';
  tags: string;
  body: string;
}

export interface NoteDraft {
  fields: DraftFields;
  /** The hash of the version the draft started from: a different hash on disk means it changed since. */
  baseHash: string;
}

export interface NewNoteDraft extends DraftFields {
  scope: Scope | '';
  id: string;
}

export interface DraftState {
  notes: Record<string, NoteDraft>;
  newNote: NewNoteDraft | null;
  /** Merge drafts: 待整理's by finding id, a sync conflict's hand merge by syncMergeKey. */
  merges: Record<string, DraftFields>;
  putNote(key: string, draft: NoteDraft): void;
  dropNote(key: string): void;
  setNewNote(draft: NewNoteDraft | null): void;
  putMerge(findingId: string, fields: DraftFields): void;
  dropMerge(findingId: string): void;
}

export const EMPTY_NEW_NOTE: NewNoteDraft = {
  summary: '',
  type: 'project',
  tags: '',
  body: '',
  scope: '',
  id: '',
};

export function noteDraftKey(scope: Scope, id: string): string {
  return `${scope}:${id}`;
}

/** A sync conflict's hand-merge draft, kept with 待整理's merge drafts (finding ids never start so). */
export function syncMergeKey(scope: Scope, id: string): string {
  return `sync:${scope}:${id}`;
}

export function sameFields(a: DraftFields, b: DraftFields): boolean {
  return a.summary === b.summary && a.type === b.type && a.tags === b.tags && a.body === b.body;
}

/** A new-note form with nothing typed is no draft. */
export function isEmptyNewNote(d: NewNoteDraft | null): boolean {
  return !d || (!d.summary.trim() && !d.body.trim() && !d.tags.trim() && !d.id.trim());
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const next = { ...record };
  delete next[key];
  return next;
}

/** localStorage when there is one (the page); none in Node tests, where the store just lives in memory. */
function storage(): StateStorage {
  const ls = globalThis.localStorage as Storage | undefined;
  if (ls) return ls;
  const mem = new Map<string, string>();
  return {
    getItem: (k) => mem.get(k) ?? null,
    setItem: (k, v) => void mem.set(k, v),
    removeItem: (k) => void mem.delete(k),
  };
}

export function createDraftStore(name = 'memdesk.drafts') {
  return createStore<DraftState>()(
    persist(
      (set) => ({
        notes: {},
        newNote: null,
        merges: {},
        putNote: (key, draft) => set((s) => ({ notes: { ...s.notes, [key]: draft } })),
        dropNote: (key) => set((s) => ({ notes: without(s.notes, key) })),
        setNewNote: (newNote) => set({ newNote: isEmptyNewNote(newNote) ? null : newNote }),
        putMerge: (id, fields) => set((s) => ({ merges: { ...s.merges, [id]: fields } })),
        dropMerge: (id) => set((s) => ({ merges: without(s.merges, id) })),
      }),
      {
        name,
        storage: createJSONStorage(storage),
        partialize: (s) => ({ notes: s.notes, newNote: s.newNote, merges: s.merges }),
      },
    ),
  );
}

export const draftStore = createDraftStore();

export function useDrafts<T>(selector: (s: DraftState) => T): T {
  return useStore(draftStore, selector);
}
