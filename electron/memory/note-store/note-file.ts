import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Warning } from '../../../shared/api/notes.js';
import type { HeldReason } from '../../../shared/held-note.js';
import type { Note, Scope } from '../../../shared/note.js';
import { noteIdProblem } from '../../../shared/note-id.js';
import { fastParseNote } from '../fast-parse.js';
import type { StoredNote } from '../types.js';
import { storedNote } from './stored-note.js';
import { onUnexpectedError } from '../unexpected-error.js';

/** Frontmatter may add this much to a file beyond memory.maxNoteBytes of body before it is not read at all. */
const FRONTMATTER_ALLOWANCE = 64 * 1024;

/** One `*.md` file of a note directory as last seen: its note, or why it is not loaded. */
export interface FileEntry {
  name: string;
  mtimeMs: number;
  size: number;
  note: StoredNote | null;
  warning: Warning | null;
  /** Why the file is not loaded (null: loaded, or kept as it was read before). */
  held: HeldReason | null;
}

/** `gone`: the file no longer exists. `error`: it exists but cannot be read now (kept, reported). */
export type ReadResult = { entry: FileEntry } | { gone: true } | { error: Error };

/** Which directory a file belongs to and its limit: what reading one note file needs. */
export interface NoteDir {
  scope: Scope;
  dir: string;
  maxNoteBytes: number;
}

/**
 * Reads and validates one note file: never through a link, within the size limit, the file name
 * as the id (a differing frontmatter id is reported), timestamps defaulting to the file's mtime.
 */
export async function readNoteFile(d: NoteDir, name: string): Promise<ReadResult> {
  const file = path.join(d.dir, name);
  let handle: fs.FileHandle;
  try {
    // O_NOFOLLOW: a file replaced by a link after the listing is not followed either.
    handle = await fs.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? { gone: true } : { error: err as Error };
  }
  let text: string;
  let mtimeMs: number;
  let size: number;
  try {
    const st = await handle.stat();
    if (!st.isFile()) {
      return { error: new Error('it is not a regular file (a link to a directory?)') };
    }
    mtimeMs = st.mtimeMs;
    size = st.size;
    if (size > d.maxNoteBytes + FRONTMATTER_ALLOWANCE) {
      return tooLarge(d, file, { name, mtimeMs, size }, size);
    }
    // One read of the size fstat reported (FileHandle.readFile would fstat again).
    const buffer = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    text = buffer.toString('utf8', 0, filled);
  } catch (err) {
    return { error: err as Error };
  } finally {
    await handle.close().catch((err) => onUnexpectedError(err, 'note file: close'));
  }
  const fail = (reason: string, held: HeldReason = 'unreadable'): ReadResult => ({
    entry: {
      name,
      mtimeMs,
      size,
      note: null,
      held,
      warning: {
        code: 'unreadable_note',
        message: `${file}: ${reason}; the file is left as it is`,
        scope: d.scope,
        path: file,
      },
    },
  });
  const fileId = name.slice(0, -3);
  const idProblem = noteIdProblem(fileId);
  if (idProblem) return fail(`the file name is not a valid note id (${idProblem})`, 'invalid_id');
  const parsed = fastParseNote(text);
  if (!parsed.ok) return fail(parsed.reason);
  // A UTF-16 unit is at most 3 UTF-8 bytes: only count bytes when the body might be too large.
  if (parsed.note.body.length * 3 > d.maxNoteBytes) {
    const bodyBytes = Buffer.byteLength(parsed.note.body, 'utf8');
    if (bodyBytes > d.maxNoteBytes) {
      return tooLarge(d, file, { name, mtimeMs, size }, bodyBytes);
    }
  }
  let warning: Warning | null = null;
  if (parsed.note.id !== fileId) {
    warning = {
      code: 'id_mismatch',
      message: `${file}: the frontmatter id "${parsed.note.id}" differs from the file name; the note is loaded as "${fileId}" (the file name wins)`,
      scope: d.scope,
      path: file,
    };
  }
  const note = parsed.note as Note;
  note.id = fileId;
  note.createdAt = parsed.note.createdAt ?? parsed.note.updatedAt ?? Math.round(mtimeMs);
  note.updatedAt = parsed.note.updatedAt ?? Math.round(mtimeMs);
  return {
    entry: { name, mtimeMs, size, note: storedNote(note, d.scope, file, mtimeMs), warning, held: null },
  };
}

export function unreadableWarning(d: NoteDir, name: string, err: Error): Warning {
  const file = path.join(d.dir, name);
  return {
    code: 'unreadable_note',
    message: `${file} cannot be read (${err.message}); the file is left as it is`,
    scope: d.scope,
    path: file,
  };
}

export function linkWarning(d: NoteDir, name: string): Warning {
  const file = path.join(d.dir, name);
  return {
    code: 'unreadable_note',
    message: `${file} cannot be read: it is a symbolic link, and Memory Desk never follows a link out of the notes folder; the link is left as it is`,
    scope: d.scope,
    path: file,
  };
}

/** A file held back for its size (`bytes`: the file's, or its body's). */
function tooLarge(
  d: NoteDir,
  file: string,
  seen: Pick<FileEntry, 'name' | 'mtimeMs' | 'size'>,
  bytes: number,
): ReadResult {
  const warning: Warning = {
    code: 'note_too_large',
    message: `${file} is not loaded: ${bytes} bytes is more than memory.maxNoteBytes (${d.maxNoteBytes}); the file is left as it is`,
    scope: d.scope,
    path: file,
  };
  return { entry: { ...seen, note: null, warning, held: 'too_large' } };
}
