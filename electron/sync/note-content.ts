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

/**
 * Note `id` from a copy stored by content hash (the baseline's objects/, a conflict's sides): the
 * hash leaves the id out, so the copy may name a twin's id (a note copied as a template). The id
 * is the one the copy was asked for — else the twin is written over (seed 40937).
 */
export function noteOfId(content: string, id: string, fallbackTime: number): Note | null {
  const note = noteFromContent(content, fallbackTime);
  return note && { ...note, id };
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
