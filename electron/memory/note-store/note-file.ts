import { closeSync, constants, fstatSync, openSync, promises as fs, readSync, type Stats } from 'node:fs';
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
  /**
   * The inode's change time: a change of mode or owner alone (chmod 000 by another tool) keeps
   * mtime and size but not ctime, so an entry whose file was made unreadable is read again (held).
   */
  ctimeMs: number;
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
  const steps = readSteps(asyncCalls, d, name);
  let step = steps.next();
  while (!step.done) {
    let answer: unknown;
    try {
      answer = await step.value;
    } catch (err) {
      step = steps.throw(err);
      continue;
    }
    step = steps.next(answer);
  }
  return step.value;
}

/**
 * readNoteFile with synchronous calls, for one-shot processes: the first run of a command at
 * 10,000 notes reads every file, and four promise round trips per file cost ~5× the CPU of the
 * same calls made synchronously (docs/performance.md).
 */
export function readNoteFileSync(d: NoteDir, name: string): ReadResult {
  const steps = readSteps(syncCalls, d, name);
  let step = steps.next();
  // Each call was made, and any error it raised thrown, inside readSteps: hand its answer back.
  while (!step.done) step = steps.next(step.value);
  return step.value;
}

type ReadBytes = { bytesRead: number };

/**
 * The file calls reading one note makes, on a handle `H`: answered at once (a value, or an error
 * thrown in the caller) or later (a promise). readSteps is written once over both.
 */
interface FileCalls<H> {
  open(file: string): H | Promise<H>;
  stat(handle: H): Stats | Promise<Stats>;
  read(handle: H, buffer: Buffer, offset: number, length: number): ReadBytes | Promise<ReadBytes>;
  close(handle: H): void | Promise<void>;
}

const syncCalls: FileCalls<number> = {
  open: (file) => openSync(file, OPEN_FLAGS),
  stat: (fd) => fstatSync(fd),
  read: (fd, buffer, offset, length) => ({ bytesRead: readSync(fd, buffer, offset, length, offset) }),
  close: (fd) => closeSync(fd),
};

const asyncCalls: FileCalls<fs.FileHandle> = {
  open: (file) => fs.open(file, OPEN_FLAGS),
  stat: (handle) => handle.stat(),
  read: (handle, buffer, offset, length) => handle.read(buffer, offset, length, offset),
  close: (handle) => handle.close(),
};

/**
 * Yields each file call's answer (a value or a promise) and is resumed with what it resolves to,
 * or with its error thrown in: readNoteFileSync and readNoteFile drive it with and without awaiting.
 */
function* call<T>(answer: T | Promise<T>): Generator<unknown, T, unknown> {
  return (yield answer) as T;
}

/** Reading one note file, as one body for both drivers above. */
function* readSteps<H>(io: FileCalls<H>, d: NoteDir, name: string): Generator<unknown, ReadResult, unknown> {
  const file = path.join(d.dir, name);
  let handle: H;
  try {
    // O_NOFOLLOW: a file replaced by a link after the listing is not followed either.
    handle = yield* call(io.open(file));
  } catch (err) {
    return openFailed(err);
  }
  try {
    const st = yield* call(io.stat(handle));
    const refused = sizeRefusal(d, file, name, st);
    if (refused) return refused;
    // One read of the size fstat reported (readFile would fstat again).
    const buffer = Buffer.allocUnsafe(st.size);
    let filled = 0;
    while (filled < st.size) {
      const { bytesRead } = yield* call(io.read(handle, buffer, filled, st.size - filled));
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return noteEntry(d, name, file, buffer.toString('utf8', 0, filled), st);
  } catch (err) {
    return { error: err as Error };
  } finally {
    try {
      yield* call(io.close(handle));
    } catch (err) {
      onUnexpectedError(err, 'note file: close');
    }
  }
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW;

function openFailed(err: unknown): ReadResult {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' ? { gone: true } : { error: err as Error };
}

/** Why an opened file is not read at all (not a regular file, or far over the size limit), or null. */
function sizeRefusal(d: NoteDir, file: string, name: string, st: Stats): ReadResult | null {
  if (!st.isFile()) return { error: new Error('it is not a regular file (a link to a directory?)') };
  if (st.size > d.maxNoteBytes + FRONTMATTER_ALLOWANCE)
    return tooLarge(d, file, { name, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, size: st.size }, st.size);
  return null;
}

/** The note a file's text holds, or why it is held back. */
function noteEntry(
  d: NoteDir,
  name: string,
  file: string,
  text: string,
  { mtimeMs, ctimeMs, size }: Pick<Stats, 'mtimeMs' | 'ctimeMs' | 'size'>,
): ReadResult {
  const fail = (reason: string, held: HeldReason = 'unreadable'): ReadResult => ({
    entry: {
      name,
      mtimeMs,
      ctimeMs,
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
      return tooLarge(d, file, { name, mtimeMs, ctimeMs, size }, bodyBytes);
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
    entry: {
      name,
      mtimeMs,
      ctimeMs,
      size,
      note: storedNote(note, d.scope, file, mtimeMs),
      warning,
      held: null,
    },
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
  seen: Pick<FileEntry, 'name' | 'mtimeMs' | 'ctimeMs' | 'size'>,
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
