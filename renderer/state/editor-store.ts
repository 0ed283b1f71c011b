import { createStore, useStore } from 'zustand';
import type { NoteDetail } from '../../shared/api/notes.js';
import type { NoteType } from '../../shared/note.js';

/**
 * The note being edited: the version it started from (`base`), the person's draft, and — when the
 * file changed on disk while the draft was dirty — that newer version, which is never applied
 * silently: the page shows both and the person chooses.
 */
export interface DraftFields {
  summary: string;
  type: NoteType | '';
  tags: string;
  body: string;
}

export interface EditorState {
  base: NoteDetail | null;
  draft: DraftFields | null;
  /** A newer version found on disk while the draft had unsaved changes. */
  diskVersion: NoteDetail | null;
  /** The note was deleted on disk while open. */
  deletedOnDisk: boolean;
  /** Loads a version from the core: replaces the draft unless it has unsaved changes. */
  receive(note: NoteDetail): void;
  setField<K extends keyof DraftFields>(key: K, value: DraftFields[K]): void;
  /** After a save: the saved version is the new base. */
  saved(note: NoteDetail): void;
  /** The person chose the disk version: the draft is dropped. */
  takeDisk(): void;
  /** The person chose their draft: it will be saved against the disk version's hash. */
  keepMine(): void;
  markDeletedOnDisk(): void;
  close(): void;
}

export function fieldsOf(note: NoteDetail): DraftFields {
  return { summary: note.summary, type: note.type ?? '', tags: note.tags.join(', '), body: note.body };
}

export function sameFields(a: DraftFields, b: DraftFields): boolean {
  return (
    a.summary === b.summary && a.type === b.type && normTags(a.tags) === normTags(b.tags) && a.body === b.body
  );
}

function normTags(tags: string): string {
  return tags
    .split(/[\s,]+/)
    .filter(Boolean)
    .join(',');
}

export function isDirty(s: Pick<EditorState, 'base' | 'draft'>): boolean {
  return !!s.base && !!s.draft && !sameFields(fieldsOf(s.base), s.draft);
}

function sameNote(a: NoteDetail | null, b: NoteDetail): boolean {
  return !!a && a.id === b.id && a.scope === b.scope;
}

export function createEditorStore() {
  return createStore<EditorState>()((set, get) => ({
    base: null,
    draft: null,
    diskVersion: null,
    deletedOnDisk: false,
    receive(note) {
      const s = get();
      if (!sameNote(s.base, note) || !isDirty(s)) {
        set({ base: note, draft: fieldsOf(note), diskVersion: null, deletedOnDisk: false });
        return;
      }
      if (note.hash === s.base!.hash) {
        // Same content (links/backlinks/recall count may differ): refresh the base, keep the draft.
        set({ base: note, deletedOnDisk: false });
        return;
      }
      // The draft is the person's; if it already equals the disk version there is nothing to choose.
      if (s.draft && sameFields(fieldsOf(note), s.draft)) {
        set({ base: note, diskVersion: null, deletedOnDisk: false });
        return;
      }
      set({ diskVersion: note, deletedOnDisk: false });
    },
    setField(key, value) {
      const d = get().draft;
      if (d) set({ draft: { ...d, [key]: value } });
    },
    saved(note) {
      set({ base: note, draft: fieldsOf(note), diskVersion: null, deletedOnDisk: false });
    },
    takeDisk() {
      const disk = get().diskVersion;
      if (disk) set({ base: disk, draft: fieldsOf(disk), diskVersion: null });
    },
    keepMine() {
      const disk = get().diskVersion;
      // The draft now builds on the disk version: the next save replaces it knowingly.
      if (disk) set({ base: { ...disk }, diskVersion: null });
    },
    markDeletedOnDisk() {
      set({ deletedOnDisk: true });
    },
    close() {
      set({ base: null, draft: null, diskVersion: null, deletedOnDisk: false });
    },
  }));
}

export type EditorStore = ReturnType<typeof createEditorStore>;
export const editorStore = createEditorStore();

export function useEditor<T>(selector: (s: EditorState) => T): T {
  return useStore(editorStore, selector);
}
