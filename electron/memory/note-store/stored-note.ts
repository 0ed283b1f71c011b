import type { Note, Scope } from '../../../shared/note.js';
import { fastContentHash } from '../hash.js';
import { extractLinks } from '../links.js';
import type { StoredNote } from '../types.js';

/**
 * A StoredNote whose `hash` and `links` are computed on first use (then kept): loading 10,000
 * notes should not pay for hashes nobody asked for. Both are enumerable, so spreading or
 * serialising the note includes them like plain fields. With `bodyOf`, the body too is read on
 * first use (the index cache: a `list` or a `recall` reads a few bodies, not 10,000).
 */
export function storedNote(
  note: Note,
  scope: Scope,
  file: string,
  mtimeMs: number,
  bodyOf?: () => string,
): StoredNote {
  let hash: string | undefined;
  let links: string[] | undefined;
  let whole = bodyOf === undefined;
  const full = (): Note => {
    if (!whole) {
      note.body = bodyOf!();
      whole = true;
    }
    return note;
  };
  // A fixed-shape literal (no spread) keeps V8 on its fast path when loading thousands of notes;
  // `type` and `extra` are own properties even when undefined (JSON output drops them).
  const stored: StoredNote = {
    id: note.id,
    summary: note.summary,
    type: note.type,
    tags: note.tags,
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
    body: note.body,
    extra: note.extra,
    scope,
    path: file,
    mtimeMs,
    get hash(): string {
      return (hash ??= fastContentHash(full()));
    },
    set hash(value: string) {
      hash = value;
    },
    get links(): string[] {
      return (links ??= extractLinks(full().body));
    },
    set links(value: string[]) {
      links = value;
    },
  };
  if (!whole) Object.defineProperty(stored, 'body', { enumerable: true, get: () => full().body });
  return stored;
}
