import { promises as fs, statSync } from 'node:fs';
import path from 'node:path';
import type { Warning } from '../../../shared/api/notes.js';
import type { HeldNote, HeldReason } from '../../../shared/held-note.js';
import { noteIdKey } from '../../../shared/note-id.js';
import type { StoredNote } from '../types.js';
import {
  linkWarning,
  readNoteFile,
  readNoteFileSync,
  unreadableWarning,
  type FileEntry,
  type NoteDir,
  type ReadResult,
} from './note-file.js';
import { missingOr } from '../unexpected-error.js';
import { isNoteFileEntry } from './note-file-entry.js';
import { mapLimit } from '../../../shared/map-limit.js';

const READ_CONCURRENCY = 64;

export interface ScanLimits extends NoteDir {
  maxNotes: number;
  /**
   * Stat and read with synchronous calls (one-shot processes: ~3× less CPU for 10,000 stats, ~5×
   * for 10,000 reads than promise round trips; a long-running process keeps its event loop free).
   */
  syncIo?: boolean;
}

/** What tells a file's change without reading it: mtime and size for its content, ctime for its mode or owner. */
type Stamp = Pick<FileEntry, 'mtimeMs' | 'ctimeMs' | 'size'>;
const stampOf = ({ mtimeMs, ctimeMs, size }: Stamp): Stamp => ({ mtimeMs, ctimeMs, size });
const sameStamp = (a: Stamp, b: Stamp): boolean =>
  a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.size === b.size;

/** What a directory holds now: every file seen, the notes loaded (by file name), and the problems. */
export interface ScanOutcome {
  files: Map<string, FileEntry>;
  loaded: Map<string, StoredNote>;
  warnings: Warning[];
  held: HeldNote[];
  /** `*.md` files on disk, loaded or not. */
  mdCount: number;
}

/**
 * Reads a note directory, reusing the `known` entries whose mtime, ctime and size did not change.
 * Null error: the listing itself failed (the caller decides what that means for the notes it holds).
 */
export async function scanNoteDir(
  d: ScanLimits,
  known: ReadonlyMap<string, FileEntry>,
): Promise<{ outcome: ScanOutcome } | { listingError: Error }> {
  let names: string[];
  let links: string[];
  try {
    const dirents = (await fs.readdir(d.dir, { withFileTypes: true })).filter(isNoteFileEntry);
    // readdir's types come from lstat: a link is never followed, whatever it points to.
    names = dirents.filter((e) => e.isFile()).map((e) => e.name);
    links = dirents.filter((e) => e.isSymbolicLink()).map((e) => e.name);
  } catch (err) {
    return { listingError: err as Error };
  }
  names.sort();
  links.sort();
  const mdCount = names.length + links.length;
  const warnings: Warning[] = [];
  const held: HeldNote[] = [];
  const hold = (name: string, reason: HeldReason, message: string): void => {
    held.push({ id: name.slice(0, -3), path: path.join(d.dir, name), reason, message });
  };
  for (const name of links) {
    const warning = linkWarning(d, name);
    warnings.push(warning);
    hold(name, 'symlink', warning.message);
  }

  // Known files need a stat to tell whether they changed; on a first load the read itself stats.
  const stats = new Map<string, Stamp>();
  const needStat = known.size > 0 || names.length > d.maxNotes;
  // path.join(d.dir, name) for a plain file name, without normalising once per file.
  const dirPrefix = path.join(d.dir, '_').slice(0, -1);
  const files = new Map<string, FileEntry>();
  // Unchanged files are taken as known first (no promise per file); only the others are read.
  const changed: string[] = [];
  // Within the limit (no file left out by recency), one-shot: each stat is compared as it comes
  // and dropped (10,000 Stats kept to the end of the scan were most of its garbage collection).
  const compareAsStated = needStat && d.syncIo === true && names.length <= d.maxNotes;
  if (compareAsStated) {
    const stated: string[] = [];
    for (const name of names) {
      const st = statSync(dirPrefix + name, { throwIfNoEntry: false });
      if (!st) continue; // removed since listed
      stated.push(name);
      const before = known.get(name);
      if (before && sameStamp(before, st)) files.set(name, before);
      else changed.push(name);
    }
    names = stated;
  } else if (needStat && d.syncIo) {
    for (const name of names) {
      const st = statSync(dirPrefix + name, { throwIfNoEntry: false });
      if (st) stats.set(name, st); // a Stats is a Stamp: no copy per file
    }
    names = names.filter((n) => stats.has(n));
  } else if (needStat) {
    await mapLimit(names, READ_CONCURRENCY, async (name) => {
      const st = await fs.stat(path.join(d.dir, name)).catch(missingOr(null, 'note scan: stat')); // removed since listed
      if (st) stats.set(name, stampOf(st));
    });
    names = names.filter((n) => stats.has(n));
  }
  if (names.length > d.maxNotes) {
    const byRecency = [...names].sort((a, b) => stats.get(b)!.mtimeMs - stats.get(a)!.mtimeMs);
    const skipped = byRecency.length - d.maxNotes;
    const keep = new Set(byRecency.slice(0, d.maxNotes));
    for (const name of names)
      if (!keep.has(name))
        hold(
          name,
          'over_note_limit',
          `${path.join(d.dir, name)} is not loaded: the folder holds more notes than memory.maxNotes (${d.maxNotes}) and it is among the least recently modified`,
        );
    names = names.filter((n) => keep.has(n));
    warnings.push({
      code: 'over_note_limit',
      message: `${d.dir} holds ${byRecency.length} notes, more than memory.maxNotes (${d.maxNotes}); the ${skipped} least recently modified are not loaded and new notes are refused until some are removed`,
      scope: d.scope,
      path: d.dir,
    });
  }

  if (!compareAsStated)
    for (const name of names) {
      const before = known.get(name);
      const st = stats.get(name);
      if (before && st && sameStamp(before, st)) files.set(name, before);
      else changed.push(name);
    }
  const take = (name: string, result: ReadResult): void => {
    const before = known.get(name);
    if ('entry' in result) files.set(name, result.entry);
    else if ('error' in result) {
      // Not readable right now (EMFILE under load, a link to a directory): a note read before
      // stays as it was — it is not removed — and the problem is reported either way. A file this
      // process may not read (EACCES, EPERM) changed since it was read: the copy known is not what
      // the file holds, so the note is held (sync neither pushes it nor writes over it).
      const warning = unreadableWarning(d, name, result.error);
      const code = (result.error as NodeJS.ErrnoException).code;
      const denied = code === 'EACCES' || code === 'EPERM';
      files.set(
        name,
        before?.note && !denied
          ? { ...before, mtimeMs: NaN, warning }
          : { name, mtimeMs: NaN, ctimeMs: NaN, size: -1, note: null, warning, held: 'unreadable' },
      );
    }
  };
  if (d.syncIo) for (const name of changed) take(name, readNoteFileSync(d, name));
  else await mapLimit(changed, READ_CONCURRENCY, async (name) => take(name, await readNoteFile(d, name)));

  // Case collisions: the first name (sorted) loads, the others are reported, untouched.
  const loaded = new Map<string, StoredNote>();
  const seenKeys = new Map<string, string>();
  for (const name of names) {
    const entry = files.get(name);
    if (!entry) continue;
    if (entry.warning) warnings.push(entry.warning);
    if (!entry.note) {
      if (entry.held)
        hold(name, entry.held, entry.warning?.message ?? `${path.join(d.dir, name)} is not loaded`);
      continue;
    }
    const key = noteIdKey(entry.note.id);
    const first = seenKeys.get(key);
    if (first !== undefined) {
      const message = `${path.join(d.dir, name)} is not loaded: its id equals "${first.slice(0, -3)}" ignoring case, and macOS and Windows cannot keep both files; rename or merge one of them`;
      warnings.push({ code: 'id_collision', message, scope: d.scope, path: path.join(d.dir, name) });
      hold(name, 'case_twin', message);
      continue;
    }
    seenKeys.set(key, name);
    loaded.set(name, entry.note);
  }
  held.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { outcome: { files, loaded, warnings, held, mdCount } };
}
