import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/errors.js';
import type { Note } from '../../../shared/note.js';
import { parseNote, serializeNote } from '../../../shared/note-format.js';
import { noteIdKey, noteIdProblem } from '../../../shared/note-id.js';
import { syncDir, writeFileAtomic } from '../atomic-write.js';
import { fastContentHash } from '../hash.js';
import { noteReadError } from '../read-failure.js';
import type { BackupStore, DeleteNoteOptions, StoredNote, WriteNoteOptions } from '../types.js';
import { readNoteFile, type FileEntry, type NoteDir } from './note-file.js';
import { storedNote } from './stored-note.js';
import { unlessMissing } from '../unexpected-error.js';

/** What writing needs of the store it writes for. */
export interface WriteTarget extends NoteDir {
  maxNotes: number;
  backups: BackupStore | null;
  withLock<T>(fn: () => Promise<T>): Promise<T>;
  /** Creates the directory for a first write (and starts a wanted watcher). */
  ensureDir(): Promise<void>;
  get(id: string): StoredNote | undefined;
  /**
   * Records, under the lock, what a write did to file `name`: its new entry, null when it was
   * removed, undefined when it could not be read back (the store's view of it stays); and the
   * number of `*.md` files, given the one the store held.
   */
  record(name: string, entry: FileEntry | null | undefined, mdCount: (current: number) => number): void;
}

/**
 * Creates the directory when missing, then runs `fn` under its cross-process lock — whose file lives
 * in that directory, so it cannot be taken first. A directory that cannot be created (a file in its
 * place, no permission) is an io_error naming it; `fn` does not run. Every write to the directory
 * goes through here (NoteStore.withDirCreatedAndLocked for writes made outside this file).
 */
export async function withDirCreatedAndLocked<T>(
  t: Pick<WriteTarget, 'dir' | 'ensureDir' | 'withLock'>,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    await t.ensureDir();
  } catch (err) {
    throw new AppError('io_error', `cannot create ${t.dir}: ${(err as Error).message}`);
  }
  return t.withLock(fn);
}

/**
 * The steps every write shares: a valid id, the directory created, the cross-process lock, no
 * other file whose id equals this one ignoring case (`sameFile` ends that refusal's message),
 * and never through a symbolic link. `fn` runs under the lock with the directory's `*.md` names.
 */
async function inLockedDir<T>(
  t: WriteTarget,
  id: string,
  sameFile: string,
  fn: (names: string[], name: string, file: string) => Promise<T>,
): Promise<T> {
  const name = `${id}.md`;
  const file = path.join(t.dir, name);
  return withDirCreatedAndLocked(t, async () => {
    const names = await mdNames(t.dir);
    const key = noteIdKey(id);
    const other = names.find((n) => n !== name && noteIdKey(n.slice(0, -3)) === key);
    if (other) {
      throw new AppError(
        'conflict',
        `a note "${other.slice(0, -3)}" already exists in ${t.dir}; ids equal ignoring case name the same file${sameFile}`,
      );
    }
    await refuseLink(file);
    return fn(names, name, file);
  });
}

function requireValidId(id: string): void {
  const problem = noteIdProblem(id);
  if (problem) throw new AppError('invalid_input', `invalid note id "${id}": ${problem}`);
}

/** Writes a note (see NoteStore.write): optimistic concurrency, limits, backup when asked, atomic write. */
export async function writeNote(t: WriteTarget, note: Note, opts: WriteNoteOptions): Promise<StoredNote> {
  requireValidId(note.id);
  const bodyBytes = Buffer.byteLength(note.body, 'utf8');
  if (bodyBytes > t.maxNoteBytes) {
    throw new AppError(
      'limit_exceeded',
      `the body is ${bodyBytes} bytes, more than memory.maxNoteBytes (${t.maxNoteBytes}); shorten it or split it into several notes`,
    );
  }
  const sameFile = ` on macOS and Windows, so "${note.id}" is refused`;
  return inLockedDir(t, note.id, sameFile, async (names, name, file) => {
    const exists = names.includes(name);
    let raw: string | null = null;
    let currentHash: string | null = null;
    if (exists) {
      raw = await fs.readFile(file, 'utf8');
      const parsed = parseNote(raw);
      if (!parsed.ok) {
        if (opts.backupReason === undefined) {
          throw new AppError(
            'conflict',
            `${file} exists but cannot be read (${parsed.reason}); fix or move that file by hand first — it is never overwritten`,
          );
        }
      } else {
        currentHash = fastContentHash(parsed.note);
      }
    }
    if (opts.expectedHash === null && exists) {
      throw new AppError(
        'conflict',
        `a note "${note.id}" already exists in ${t.dir}; choose another id or edit that note`,
      );
    }
    if (typeof opts.expectedHash === 'string' && opts.expectedHash !== currentHash) {
      throw new AppError(
        'conflict',
        exists
          ? `the note "${note.id}" changed on disk since it was read; reload it and apply your change again`
          : `the note "${note.id}" was deleted on disk since it was read`,
      );
    }
    if (!exists && !opts.ignoreNoteLimit && names.length >= t.maxNotes) {
      throw new AppError(
        'limit_exceeded',
        `${t.dir} already holds ${names.length} notes (memory.maxNotes is ${t.maxNotes}); remove some before adding new ones`,
      );
    }
    if (exists && raw !== null && opts.backupReason !== undefined) {
      await requireBackups(t).backup({
        noteId: note.id,
        content: raw,
        reason: opts.backupReason,
        originDir: t.dir,
        scope: t.scope,
        summary: t.get(note.id)?.summary ?? null,
      });
    }
    const text = serializeNote(note);
    try {
      await writeFileAtomic(file, text);
    } catch (err) {
      throw new AppError('io_error', `cannot write ${file}: ${(err as Error).message}`);
    }
    const st = await fs.stat(file);
    const stored = storedNote(note, t.scope, file, st.mtimeMs);
    const entry: FileEntry = {
      name,
      mtimeMs: st.mtimeMs,
      ctimeMs: st.ctimeMs,
      size: st.size,
      note: stored,
      warning: null,
      held: null,
    };
    t.record(name, entry, (current) => (exists ? Math.max(current, names.length) : names.length + 1));
    return stored;
  });
}

/** Writes a file's exact bytes (restoring a backup; see NoteStore.replaceRaw). */
export async function replaceNoteRaw(
  t: WriteTarget,
  id: string,
  content: string,
  opts: { backupReason: string },
): Promise<{ note: StoredNote | null; replacedBackupId: string | null }> {
  requireValidId(id);
  const sameFile = `, so "${id}" cannot be written beside it`;
  return inLockedDir(t, id, sameFile, async (names, name, file) => {
    let replacedBackupId: string | null = null;
    if (names.includes(name)) {
      const current = await fs.readFile(file, 'utf8');
      if (current !== content) {
        const parsed = parseNote(current);
        const entry = await requireBackups(t).backup({
          noteId: id,
          content: current,
          reason: opts.backupReason,
          originDir: t.dir,
          scope: t.scope,
          summary: parsed.ok ? parsed.note.summary : null,
        });
        replacedBackupId = entry.id;
      }
    }
    try {
      await writeFileAtomic(file, content);
    } catch (err) {
      throw new AppError('io_error', `cannot write ${file}: ${(err as Error).message}`);
    }
    const read = await readNoteFile(t, name);
    const entry = 'entry' in read ? read.entry : undefined;
    t.record(name, entry, () => (names.includes(name) ? names.length : names.length + 1));
    return { note: entry?.note ?? null, replacedBackupId };
  });
}

/** Backs the file up, then removes it (see NoteStore.delete). */
export async function deleteNote(
  t: WriteTarget,
  id: string,
  opts: DeleteNoteOptions,
): Promise<{ backupId: string; id: string }> {
  const backups = requireBackups(t);
  const name = t.get(id) ? path.basename(t.get(id)!.path) : `${id}.md`;
  const file = path.join(t.dir, name);
  return t.withLock(async () => {
    await refuseLink(file);
    let raw: string;
    try {
      raw = await fs.readFile(file, 'utf8');
    } catch (err) {
      throw noteReadError(err, id, file, t.dir);
    }
    const parsed = parseNote(raw);
    if (opts.expectedHash !== undefined && !parsed.ok) {
      throw new AppError(
        'conflict',
        `the note "${id}" on disk is no longer a valid note (${parsed.reason}); fix the file before deleting it`,
        { cause: 'malformed' },
      );
    }
    if (opts.expectedHash !== undefined && parsed.ok && fastContentHash(parsed.note) !== opts.expectedHash) {
      throw new AppError(
        'conflict',
        `the note "${id}" changed on disk since it was read; reload it before deleting`,
      );
    }
    const entry = await backups.backup({
      noteId: name.slice(0, -3),
      content: raw,
      reason: opts.backupReason,
      originDir: t.dir,
      scope: t.scope,
      summary: parsed.ok ? parsed.note.summary : null,
    });
    try {
      await fs.unlink(file);
    } catch (err) {
      throw new AppError(
        'io_error',
        `backed up as ${entry.id} but cannot delete ${file}: ${(err as Error).message}`,
      );
    }
    await syncDir(t.dir);
    t.record(name, null, (current) => Math.max(0, current - 1));
    return { backupId: entry.id, id: name.slice(0, -3) };
  });
}

function requireBackups(t: WriteTarget): BackupStore {
  if (!t.backups) {
    throw new AppError(
      'unavailable',
      `backups are unavailable (the Memory Desk home directory cannot be used), so nothing is replaced or deleted`,
    );
  }
  return t.backups;
}

async function mdNames(dir: string): Promise<string[]> {
  const dirents = await fs.readdir(dir, { withFileTypes: true });
  return dirents
    .filter((d) => !d.isDirectory() && d.name.endsWith('.md') && !d.name.startsWith('.'))
    .map((d) => d.name);
}

export async function isLink(file: string): Promise<boolean> {
  try {
    return (await fs.lstat(file)).isSymbolicLink();
  } catch (err) {
    unlessMissing(err, 'note store: lstat'); // not there: not a link
    return false;
  }
}

/** A note file that is a symbolic link is never written through, replaced or deleted. */
async function refuseLink(file: string): Promise<void> {
  if (await isLink(file)) {
    throw new AppError(
      'conflict',
      `${file} is a symbolic link; Memory Desk never writes through, replaces or deletes a link in a notes folder — move it away by hand first`,
    );
  }
}
