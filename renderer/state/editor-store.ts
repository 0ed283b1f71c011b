import { createStore, useStore } from 'zustand';
import type { NoteDetail } from '../../shared/api/notes.js';
import type { FieldErrors } from '../api/describe-error.js';
import { draftStore as defaultDraftStore, noteDraftKey, type DraftFields } from './draft-store.js';

export type { DraftFields } from './draft-store.js';

/**
 * The note being edited: the version it started from (`base`), the person's draft, and — when the
 * file changed on disk while the draft was dirty — that newer version, which is never applied
 * silently: the page shows both and the person chooses. A dirty draft is also kept in the draft
 * store (per note, across navigation and reloads) until it is saved or discarded.
 */
export interface EditorState {
  base: NoteDetail | null;
  draft: DraftFields | null;
  /** A newer version found on disk while the draft had unsaved changes. */
  diskVersion: NoteDetail | null;
  /** The note was deleted on disk while open. */
  deletedOnDisk: boolean;
  /** Why the last save was refused, per field, in words (cleared as the field is edited). */
  fieldErrors: FieldErrors | null;
  setFieldErrors(errors: FieldErrors | null): void;
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
  /** The person threw the draft away: back to the saved version, the kept draft removed. */
  discard(): void;
  /** Leaves the note; a dirty draft stays kept for the next time it is opened. */
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

export function createEditorStore(drafts = defaultDraftStore) {
  const store = createStore<EditorState>()((set, get) => ({
    base: null,
    draft: null,
    diskVersion: null,
    deletedOnDisk: false,
    fieldErrors: null,
    setFieldErrors(fieldErrors) {
      set({ fieldErrors });
    },
    receive(note) {
      const s = get();
      if (!sameNote(s.base, note)) {
        // Opening a note: a draft kept from before comes back; if the file changed since that
        // draft began, the newer version is held back for the person to compare.
        const kept = drafts.getState().notes[noteDraftKey(note.scope, note.id)];
        const changedSince = kept && kept.baseHash !== note.hash && !sameFields(fieldsOf(note), kept.fields);
        set({
          base: note,
          draft: kept ? kept.fields : fieldsOf(note),
          diskVersion: changedSince ? note : null,
          deletedOnDisk: false,
          fieldErrors: null,
        });
        return;
      }
      if (!isDirty(s)) {
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
      const { draft: d, fieldErrors } = get();
      if (!d) return;
      set({
        draft: { ...d, [key]: value },
        fieldErrors: fieldErrors?.[key] ? { ...fieldErrors, [key]: undefined } : fieldErrors,
      });
    },
    saved(note) {
      set({ base: note, draft: fieldsOf(note), diskVersion: null, deletedOnDisk: false, fieldErrors: null });
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
    discard() {
      const { base } = get();
      if (!base) return;
      drafts.getState().dropNote(noteDraftKey(base.scope, base.id));
      set({ draft: fieldsOf(base), diskVersion: null, fieldErrors: null });
    },
    close() {
      set({ base: null, draft: null, diskVersion: null, deletedOnDisk: false, fieldErrors: null });
    },
  }));
  // Keep (or forget) the open note's draft as it changes. A held-back disk version keeps the
  // draft's original base hash, so reopening still knows the file changed under it.
  store.subscribe((s) => {
    if (!s.base || !s.draft) return;
    const key = noteDraftKey(s.base.scope, s.base.id);
    const d = drafts.getState();
    if (isDirty(s) || s.diskVersion || s.deletedOnDisk) {
      const baseHash = s.diskVersion ? (d.notes[key]?.baseHash ?? s.base.hash) : s.base.hash;
      const kept = d.notes[key];
      if (!kept || kept.fields !== s.draft || kept.baseHash !== baseHash)
        d.putNote(key, { fields: s.draft, baseHash });
    } else if (d.notes[key]) d.dropNote(key);
  });
  return store;
}

export type EditorStore = ReturnType<typeof createEditorStore>;
export const editorStore = createEditorStore();

export function useEditor<T>(selector: (s: EditorState) => T): T {
  return useStore(editorStore, selector);
}
