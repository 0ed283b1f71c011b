import type { Note, NoteContent } from '../../shared/note.js';
import { parseNote, plainNote, serializeNote } from '../../shared/note-format.js';
import type { StoredNote } from '../memory/types.js';

/** A note as the protocol carries it (the whole file) → a Note the store can write. */
export function noteFromContent(content: string, fallbackTime: number): Note | null {
  const parsed = parseNote(content);
  if (!parsed.ok) return null;
  const { createdAt, updatedAt, ...rest } = parsed.note;
  return { ...rest, createdAt: createdAt ?? updatedAt ?? fallbackTime, updatedAt: updatedAt ?? fallbackTime };
}

/** The note file the protocol carries for a stored note (canonical serialisation). */
export function contentOfStored(note: StoredNote): string {
  return serializeNote(plainNote(note));
}

export function contentFields(note: Note | NoteContent): NoteContent {
  return {
    summary: note.summary,
    ...(note.type !== undefined ? { type: note.type } : {}),
    tags: note.tags,
    body: note.body,
    ...(note.extra && Object.keys(note.extra).length > 0 ? { extra: note.extra } : {}),
  };
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
