import { promises as fs, statSync, watch as watchFs, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/errors.js';
import type { Warning } from '../../shared/api/notes.js';
import type { HeldNote, HeldReason } from '../../shared/held-note.js';
import type { Note, Scope } from '../../shared/note.js';
import { parseNote, serializeNote } from '../../shared/note-format.js';
import { fastParseNote } from './fast-parse.js';
import { noteIdKey, noteIdProblem } from '../../shared/note-id.js';
import { syncDir, writeFileAtomic } from './atomic-write.js';
import { withDirLock } from './dir-lock.js';
import { fastContentHash } from './hash.js';
import { extractLinks } from './links.js';
import type {
  BackupStore,
  DeleteNoteOptions,
  LoadedFile,
  NoteStore,
  NoteStoreChange,
  StoredNote,
  WriteNoteOptions,
} from './types.js';

/**
 * One note directory: loads `<id>.md` files within the limits, keeps them in memory, writes them
 * atomically under the directory's cross-process lock, and re-reads what others change on disk.
 *
 * Decisions (docs/note-format.md):
 * - The file name is the note's id. A frontmatter `id` that differs is reported (id_mismatch) and
 *   the file-name id is used; the file is not rewritten until someone edits the note.
 * - Files that cannot be parsed, are too large, or collide with another file ignoring case are
 *   reported with their path and reason and are never rewritten, renamed or deleted.
 * - Beyond memory.maxNotes, the least recently modified files are not loaded.
 * - A symbolic link is never followed (it could point out of the notes folder): it is reported,
 *   never read, written through, replaced or deleted.
 * - Every file present but not loaded is listed by held() with its reason: sync must never read
 *   it as a deleted note.
 */
export interface NoteStoreOptions {
  scope: Scope;
  dir: string;
  maxNotes: number;
  maxNoteBytes: number;
  /** Where deletes and backed-up replacements go; null when the home is unusable (deletes refused). */
  backups: BackupStore | null;
  now: () => number;
  lockTimeoutMs?: number;
  /** Watcher debounce (ms). */
  debounceMs?: number;
  /**
   * Stat the files with synchronous calls: one-shot processes (the CLI) that wait for the load
   * anyway — ~3× less CPU than 10,000 promise round trips (docs/performance.md, CLI cold start).
   */
  syncStat?: boolean;
}

/** Frontmatter may add this much to a file beyond memory.maxNoteBytes of body before it is not read at all. */
const FRONTMATTER_ALLOWANCE = 64 * 1024;
const READ_CONCURRENCY = 64;

interface FileEntry {
  name: string;
  mtimeMs: number;
  size: number;
  note: StoredNote | null;
  warning: Warning | null;
  /** Why the file is not loaded (null: loaded, or kept as it was read before). */
  held: HeldReason | null;
}

/** `gone`: the file no longer exists. `error`: it exists but cannot be read now (kept, reported). */
type ReadResult = { entry: FileEntry } | { gone: true } | { error: Error };

export function createNoteStore(opts: NoteStoreOptions): NoteStore {
  return new FileNoteStore(opts);
}

class FileNoteStore implements NoteStore {
  readonly scope: Scope;
  readonly dir: string;
  private files = new Map<string, FileEntry>();
  /** File name → the note loaded from it (files with problems or case collisions are absent). */
  private loaded = new Map<string, StoredNote>();
  private byKey = new Map<string, StoredNote>();
  private sorted: StoredNote[] | null = null;
  private loadWarnings: Warning[] = [];
  private heldFiles: HeldNote[] = [];
  private mdFileCount = 0;
  private listeners = new Set<(change: NoteStoreChange) => void>();
  private watcher: FSWatcher | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private rescanning: Promise<void> | null = null;
  private rescanAgain = false;
  private closed = false;
  private wantWatch = false;
  /** Bumped by every own write/delete: a scan that overlapped one is stale and is run again. */
  private writeGeneration = 0;
  private watchWarning: Warning | null = null;
  private warningsKey = '';
  private warningListeners = new Set<() => void>();

  constructor(private readonly opts: NoteStoreOptions) {
    this.scope = opts.scope;
    this.dir = opts.dir;
  }

  // ---------- reading ----------

  async load(): Promise<void> {
    const change = await this.scan();
    if (change) this.notify({ ...change, external: true });
  }

  /** Re-reads the directory, reusing entries whose mtime and size did not change; returns what changed. */
  private async scan(): Promise<Omit<NoteStoreChange, 'external'> | null> {
    const change = await this.scanOnce();
    this.warningsMayHaveChanged();
    return change;
  }

  private async scanOnce(): Promise<Omit<NoteStoreChange, 'external'> | null> {
    const generation = this.writeGeneration;
    let names: string[];
    let links: string[];
    try {
      const dirents = (await fs.readdir(this.dir, { withFileTypes: true })).filter(
        (d) => (d.isFile() || d.isSymbolicLink()) && d.name.endsWith('.md') && !d.name.startsWith('.'),
      );
      // readdir's types come from lstat: a link is never followed, whatever it points to.
      names = dirents.filter((d) => d.isFile()).map((d) => d.name);
      links = dirents.filter((d) => d.isSymbolicLink()).map((d) => d.name);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (generation !== this.writeGeneration) return this.scanOnce();
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        const warning: Warning = {
          code: 'dir_unreadable',
          message: `cannot read ${this.dir}: ${(err as Error).message}`,
          scope: this.scope,
          path: this.dir,
        };
        // A listing that failed (EMFILE under load, a permission change) says nothing about the
        // notes: keep the ones loaded rather than report them removed (sync would delete them).
        if (this.files.size > 0) {
          this.loadWarnings = [...this.loadWarnings.filter((w) => w.code !== 'dir_unreadable'), warning];
          return null;
        }
        this.loadWarnings = [warning];
      } else {
        this.loadWarnings = [];
      }
      const removed = [...this.byKey.values()].map((n) => n.id);
      this.heldFiles = [];
      this.files.clear();
      this.loaded.clear();
      this.mdFileCount = 0;
      this.rebuildIndex();
      return removed.length > 0 ? { scope: this.scope, dir: this.dir, changed: [], removed } : null;
    }
    names.sort();
    links.sort();
    const mdCount = names.length + links.length;
    const warnings: Warning[] = [];
    const held: HeldNote[] = [];
    const hold = (name: string, reason: HeldReason, message: string): void => {
      held.push({ id: name.slice(0, -3), path: path.join(this.dir, name), reason, message });
    };
    for (const name of links) {
      const warning = this.linkWarning(name);
      warnings.push(warning);
      hold(name, 'symlink', warning.message);
    }

    // Known files need a stat to tell whether they changed; on a first load the read itself stats.
    const stats = new Map<string, { mtimeMs: number; size: number }>();
    const needStat = this.files.size > 0 || names.length > this.opts.maxNotes;
    if (needStat && this.opts.syncStat) {
      for (const name of names) {
        const st = statSync(path.join(this.dir, name), { throwIfNoEntry: false });
        if (st) stats.set(name, { mtimeMs: st.mtimeMs, size: st.size });
      }
      names = names.filter((n) => stats.has(n));
    } else if (needStat) {
      await forEachLimited(names, READ_CONCURRENCY, async (name) => {
        const st = await fs.stat(path.join(this.dir, name)).catch(() => null);
        if (st) stats.set(name, { mtimeMs: st.mtimeMs, size: st.size });
      });
      names = names.filter((n) => stats.has(n));
    }
    if (names.length > this.opts.maxNotes) {
      const byRecency = [...names].sort((a, b) => stats.get(b)!.mtimeMs - stats.get(a)!.mtimeMs);
      const skipped = byRecency.length - this.opts.maxNotes;
      const keep = new Set(byRecency.slice(0, this.opts.maxNotes));
      for (const name of names)
        if (!keep.has(name))
          hold(
            name,
            'over_note_limit',
            `${path.join(this.dir, name)} is not loaded: the folder holds more notes than memory.maxNotes (${this.opts.maxNotes}) and it is among the least recently modified`,
          );
      names = names.filter((n) => keep.has(n));
      warnings.push({
        code: 'over_note_limit',
        message: `${this.dir} holds ${byRecency.length} notes, more than memory.maxNotes (${this.opts.maxNotes}); the ${skipped} least recently modified are not loaded and new notes are refused until some are removed`,
        scope: this.scope,
        path: this.dir,
      });
    }

    const next = new Map<string, FileEntry>();
    await forEachLimited(names, READ_CONCURRENCY, async (name) => {
      const known = this.files.get(name);
      const st = stats.get(name);
      if (known && st && known.mtimeMs === st.mtimeMs && known.size === st.size) {
        next.set(name, known);
        return;
      }
      const result = await this.readFile(name);
      if ('entry' in result) next.set(name, result.entry);
      else if ('error' in result) {
        // Not readable right now (EMFILE under load, EACCES, a link to a directory): a note read
        // before stays as it was — it is not removed — and the problem is reported either way.
        const warning = this.unreadable(name, result.error);
        next.set(
          name,
          known?.note
            ? { ...known, mtimeMs: NaN, warning }
            : { name, mtimeMs: NaN, size: -1, note: null, warning, held: 'unreadable' },
        );
      }
    });

    // Case collisions: the first name (sorted) loads, the others are reported, untouched.
    const loaded = new Map<string, StoredNote>();
    const seenKeys = new Map<string, string>();
    for (const name of names) {
      const entry = next.get(name);
      if (!entry) continue;
      if (entry.warning) warnings.push(entry.warning);
      if (!entry.note) {
        if (entry.held)
          hold(name, entry.held, entry.warning?.message ?? `${path.join(this.dir, name)} is not loaded`);
        continue;
      }
      const key = noteIdKey(entry.note.id);
      const first = seenKeys.get(key);
      if (first !== undefined) {
        const message = `${path.join(this.dir, name)} is not loaded: its id equals "${first.slice(0, -3)}" ignoring case, and macOS and Windows cannot keep both files; rename or merge one of them`;
        warnings.push({ code: 'id_collision', message, scope: this.scope, path: path.join(this.dir, name) });
        hold(name, 'case_twin', message);
        continue;
      }
      seenKeys.set(key, name);
      loaded.set(name, entry.note);
    }

    // An own write or delete finished while this scan read the directory: its listing may predate
    // that write, and applying it would drop the written note from memory. Scan again instead.
    if (generation !== this.writeGeneration) return this.scanOnce();
    this.mdFileCount = mdCount;
    const before = this.loaded;
    this.files = next;
    this.loaded = loaded;
    const changed: string[] = [];
    const removed: string[] = [];
    for (const [name, note] of loaded) if (before.get(name) !== note) changed.push(note.id);
    for (const [name, note] of before) if (!loaded.has(name)) removed.push(note.id);
    this.loadWarnings = warnings;
    this.heldFiles = held.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    this.rebuildIndex();
    return changed.length > 0 || removed.length > 0
      ? { scope: this.scope, dir: this.dir, changed, removed }
      : null;
  }

  private async readFile(name: string): Promise<ReadResult> {
    const file = path.join(this.dir, name);
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
      if (size > this.opts.maxNoteBytes + FRONTMATTER_ALLOWANCE) {
        return {
          entry: { name, mtimeMs, size, note: null, warning: this.tooLarge(file, size), held: 'too_large' },
        };
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
      await handle.close().catch(() => {});
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
          scope: this.scope,
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
    if (parsed.note.body.length * 3 > this.opts.maxNoteBytes) {
      const bodyBytes = Buffer.byteLength(parsed.note.body, 'utf8');
      if (bodyBytes > this.opts.maxNoteBytes) {
        return {
          entry: {
            name,
            mtimeMs,
            size,
            note: null,
            warning: this.tooLarge(file, bodyBytes),
            held: 'too_large',
          },
        };
      }
    }
    let warning: Warning | null = null;
    if (parsed.note.id !== fileId) {
      warning = {
        code: 'id_mismatch',
        message: `${file}: the frontmatter id "${parsed.note.id}" differs from the file name; the note is loaded as "${fileId}" (the file name wins)`,
        scope: this.scope,
        path: file,
      };
    }
    const note = parsed.note as Note;
    note.id = fileId;
    note.createdAt = parsed.note.createdAt ?? parsed.note.updatedAt ?? Math.round(mtimeMs);
    note.updatedAt = parsed.note.updatedAt ?? Math.round(mtimeMs);
    return { entry: { name, mtimeMs, size, note: this.stored(note, file, mtimeMs), warning, held: null } };
  }

  private unreadable(name: string, err: Error): Warning {
    const file = path.join(this.dir, name);
    return {
      code: 'unreadable_note',
      message: `${file} cannot be read (${err.message}); the file is left as it is`,
      scope: this.scope,
      path: file,
    };
  }

  private linkWarning(name: string): Warning {
    const file = path.join(this.dir, name);
    return {
      code: 'unreadable_note',
      message: `${file} cannot be read: it is a symbolic link, and Memory Desk never follows a link out of the notes folder; the link is left as it is`,
      scope: this.scope,
      path: file,
    };
  }

  private tooLarge(file: string, bytes: number): Warning {
    return {
      code: 'note_too_large',
      message: `${file} is not loaded: ${bytes} bytes is more than memory.maxNoteBytes (${this.opts.maxNoteBytes}); the file is left as it is`,
      scope: this.scope,
      path: file,
    };
  }

  private stored(note: Note, file: string, mtimeMs: number): StoredNote {
    return storedNote(note, this.scope, file, mtimeMs);
  }

  private rebuildIndex(): void {
    this.byKey.clear();
    for (const note of this.loaded.values()) this.byKey.set(noteIdKey(note.id), note);
    this.sorted = null;
  }

  adopt(files: readonly LoadedFile[]): void {
    if (this.files.size > 0) return;
    for (const { name, mtimeMs, size, note } of files)
      this.files.set(name, { name, mtimeMs, size, note, warning: null, held: null });
  }

  loadedFiles(): LoadedFile[] {
    const out: LoadedFile[] = [];
    for (const [name, note] of this.loaded) {
      const entry = this.files.get(name);
      if (entry && !entry.warning) out.push({ name, mtimeMs: entry.mtimeMs, size: entry.size, note });
    }
    return out;
  }

  list(): StoredNote[] {
    this.sorted ??= [...this.byKey.values()].sort(
      (a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : 1),
    );
    return this.sorted;
  }

  get(id: string): StoredNote | undefined {
    return this.byKey.get(noteIdKey(id));
  }

  warnings(): Warning[] {
    return this.watchWarning ? [...this.loadWarnings, this.watchWarning] : [...this.loadWarnings];
  }

  onWarningsChange(listener: () => void): () => void {
    this.warningListeners.add(listener);
    return () => this.warningListeners.delete(listener);
  }

  /** Tells listeners when the set of warnings differs from the last one they heard about. */
  private warningsMayHaveChanged(): void {
    const key = this.warnings()
      .map((w) => `${w.code}\u0000${w.path ?? ''}\u0000${w.message}`)
      .join('\u0001');
    if (key === this.warningsKey) return;
    this.warningsKey = key;
    for (const listener of this.warningListeners) {
      try {
        listener();
      } catch {
        // A failing listener must not break the store.
      }
    }
  }

  held(): HeldNote[] {
    return [...this.heldFiles];
  }

  fileCount(): number {
    return this.mdFileCount;
  }

  isFull(): boolean {
    return this.mdFileCount >= this.opts.maxNotes;
  }

  async readRaw(id: string): Promise<string | null> {
    const file = path.join(this.dir, `${id}.md`);
    if (await isLink(file)) return null;
    try {
      return await fs.readFile(file, 'utf8');
    } catch {
      return null;
    }
  }

  // ---------- writing ----------

  withLock<T>(fn: () => Promise<T>): Promise<T> {
    return withDirLock(
      this.dir,
      fn,
      this.opts.lockTimeoutMs !== undefined ? { timeoutMs: this.opts.lockTimeoutMs } : {},
    );
  }

  async write(note: Note, opts: WriteNoteOptions = {}): Promise<StoredNote> {
    const problem = noteIdProblem(note.id);
    if (problem) throw new AppError('invalid_input', `invalid note id "${note.id}": ${problem}`);
    const bodyBytes = Buffer.byteLength(note.body, 'utf8');
    if (bodyBytes > this.opts.maxNoteBytes) {
      throw new AppError(
        'limit_exceeded',
        `the body is ${bodyBytes} bytes, more than memory.maxNoteBytes (${this.opts.maxNoteBytes}); shorten it or split it into several notes`,
      );
    }
    try {
      await this.ensureDir();
    } catch (err) {
      throw new AppError('io_error', `cannot create ${this.dir}: ${(err as Error).message}`);
    }
    const name = `${note.id}.md`;
    const file = path.join(this.dir, name);
    const stored = await this.withLock(async () => {
      const names = await this.mdNames();
      const key = noteIdKey(note.id);
      const other = names.find((n) => n !== name && noteIdKey(n.slice(0, -3)) === key);
      if (other) {
        throw new AppError(
          'conflict',
          `a note "${other.slice(0, -3)}" already exists in ${this.dir}; ids equal ignoring case name the same file on macOS and Windows, so "${note.id}" is refused`,
        );
      }
      await refuseLink(file);
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
          `a note "${note.id}" already exists in ${this.dir}; choose another id or edit that note`,
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
      if (!exists && !opts.ignoreNoteLimit && names.length >= this.opts.maxNotes) {
        throw new AppError(
          'limit_exceeded',
          `${this.dir} already holds ${names.length} notes (memory.maxNotes is ${this.opts.maxNotes}); remove some before adding new ones`,
        );
      }
      if (exists && raw !== null && opts.backupReason !== undefined) {
        await this.requireBackups().backup({
          noteId: note.id,
          content: raw,
          reason: opts.backupReason,
          originDir: this.dir,
          scope: this.scope,
          summary: this.get(note.id)?.summary ?? null,
        });
      }
      const text = serializeNote(note);
      try {
        await writeFileAtomic(file, text);
      } catch (err) {
        throw new AppError('io_error', `cannot write ${file}: ${(err as Error).message}`);
      }
      const st = await fs.stat(file);
      const entry: FileEntry = {
        name,
        mtimeMs: st.mtimeMs,
        size: st.size,
        note: this.stored(note, file, st.mtimeMs),
        warning: null,
        held: null,
      };
      this.files.set(name, entry);
      this.loaded.set(name, entry.note!);
      this.mdFileCount = exists ? Math.max(this.mdFileCount, names.length) : names.length + 1;
      this.loadWarnings = this.loadWarnings.filter((w) => w.path !== file);
      this.heldFiles = this.heldFiles.filter((h) => h.path !== file);
      this.writeGeneration++;
      this.rebuildIndex();
      return entry.note!;
    });
    this.warningsMayHaveChanged();
    this.notify({ scope: this.scope, dir: this.dir, changed: [stored.id], removed: [], external: false });
    return stored;
  }

  async replaceRaw(
    id: string,
    content: string,
    opts: { backupReason: string },
  ): Promise<{ note: StoredNote | null; replacedBackupId: string | null }> {
    const problem = noteIdProblem(id);
    if (problem) throw new AppError('invalid_input', `invalid note id "${id}": ${problem}`);
    try {
      await this.ensureDir();
    } catch (err) {
      throw new AppError('io_error', `cannot create ${this.dir}: ${(err as Error).message}`);
    }
    const name = `${id}.md`;
    const file = path.join(this.dir, name);
    const result = await this.withLock(async () => {
      const names = await this.mdNames();
      const other = names.find((n) => n !== name && noteIdKey(n.slice(0, -3)) === noteIdKey(id));
      if (other) {
        throw new AppError(
          'conflict',
          `a note "${other.slice(0, -3)}" already exists in ${this.dir}; ids equal ignoring case name the same file, so "${id}" cannot be written beside it`,
        );
      }
      await refuseLink(file);
      let replacedBackupId: string | null = null;
      if (names.includes(name)) {
        const current = await fs.readFile(file, 'utf8');
        if (current !== content) {
          const parsed = parseNote(current);
          const entry = await this.requireBackups().backup({
            noteId: id,
            content: current,
            reason: opts.backupReason,
            originDir: this.dir,
            scope: this.scope,
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
      const read = await this.readFile(name);
      if ('entry' in read) {
        this.files.set(name, read.entry);
        if (read.entry.note) this.loaded.set(name, read.entry.note);
        else this.loaded.delete(name);
        this.loadWarnings = this.loadWarnings.filter((w) => w.path !== file);
        if (read.entry.warning) this.loadWarnings.push(read.entry.warning);
        this.heldFiles = this.heldFiles.filter((h) => h.path !== file);
        if (read.entry.held)
          this.heldFiles.push({
            id,
            path: file,
            reason: read.entry.held,
            message: read.entry.warning?.message ?? `${file} is not loaded`,
          });
      }
      this.mdFileCount = names.includes(name) ? names.length : names.length + 1;
      this.writeGeneration++;
      this.rebuildIndex();
      return { note: this.loaded.get(name) ?? null, replacedBackupId };
    });
    this.warningsMayHaveChanged();
    this.notify({ scope: this.scope, dir: this.dir, changed: [id], removed: [], external: false });
    return result;
  }

  async delete(id: string, opts: DeleteNoteOptions): Promise<{ backupId: string }> {
    const backups = this.requireBackups();
    const name = this.get(id) ? path.basename(this.get(id)!.path) : `${id}.md`;
    const file = path.join(this.dir, name);
    const result = await this.withLock(async () => {
      await refuseLink(file);
      let raw: string;
      try {
        raw = await fs.readFile(file, 'utf8');
      } catch {
        throw new AppError('not_found', `no note "${id}" in ${this.dir}`);
      }
      const parsed = parseNote(raw);
      if (
        opts.expectedHash !== undefined &&
        (!parsed.ok || fastContentHash(parsed.note) !== opts.expectedHash)
      ) {
        throw new AppError(
          'conflict',
          `the note "${id}" changed on disk since it was read; reload it before deleting`,
        );
      }
      const entry = await backups.backup({
        noteId: name.slice(0, -3),
        content: raw,
        reason: opts.backupReason,
        originDir: this.dir,
        scope: this.scope,
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
      await syncDir(this.dir);
      this.files.delete(name);
      this.loaded.delete(name);
      this.mdFileCount = Math.max(0, this.mdFileCount - 1);
      this.loadWarnings = this.loadWarnings.filter((w) => w.path !== file);
      this.heldFiles = this.heldFiles.filter((h) => h.path !== file);
      this.writeGeneration++;
      this.rebuildIndex();
      return { backupId: entry.id, id: name.slice(0, -3) };
    });
    this.warningsMayHaveChanged();
    this.notify({ scope: this.scope, dir: this.dir, changed: [], removed: [result.id], external: false });
    return { backupId: result.backupId };
  }

  /**
   * Creates the directory for a first write. When a watcher was wanted but the directory did not
   * exist, it starts now — and a rescan picks up files another process put there between our
   * load (which found no directory) and this moment, which no watcher event will ever report.
   */
  private async ensureDir(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    if (this.wantWatch && !this.watcher) {
      this.watch();
      if (this.watcher) this.schedule();
    }
  }

  private requireBackups(): BackupStore {
    if (!this.opts.backups) {
      throw new AppError(
        'unavailable',
        `backups are unavailable (the Memory Desk home directory cannot be used), so nothing is replaced or deleted`,
      );
    }
    return this.opts.backups;
  }

  private async mdNames(): Promise<string[]> {
    const dirents = await fs.readdir(this.dir, { withFileTypes: true });
    return dirents
      .filter((d) => !d.isDirectory() && d.name.endsWith('.md') && !d.name.startsWith('.'))
      .map((d) => d.name);
  }

  // ---------- watching ----------

  onChange(listener: (change: NoteStoreChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(change: NoteStoreChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // A failing listener must not break the store.
      }
    }
  }

  watch(): void {
    this.wantWatch = true;
    if (this.watcher || this.closed) return;
    try {
      this.watcher = watchDir(this.dir, () => this.schedule());
      this.watcher.on('error', (err) => {
        this.watcher?.close();
        this.watcher = null;
        this.watchFailed(err);
      });
      if (this.watchWarning) {
        this.watchWarning = null;
        this.warningsMayHaveChanged();
      }
    } catch (err) {
      // ENOENT: the directory does not exist yet (unregistered project): the first write creates it
      // and starts the watcher then. Anything else (the system's watch limit reached, EMFILE or
      // ENOSPC under load) is reported, never swallowed: edits by others would go unseen.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.watchFailed(err as Error);
    }
  }

  private watchFailed(err: Error): void {
    this.watchWarning = {
      code: 'watch_unavailable',
      message: `cannot watch ${this.dir} for changes (${err.message}); edits made outside this app appear only after a restart`,
      scope: this.scope,
      path: this.dir,
    };
    this.warningsMayHaveChanged();
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = null;
      void this.rescan();
    }, this.opts.debounceMs ?? 100);
  }

  /** Picks up external edits. Runs one scan at a time; edits during a scan trigger one more. */
  private async rescan(): Promise<void> {
    if (this.rescanning) {
      this.rescanAgain = true;
      return this.rescanning;
    }
    this.rescanning = (async () => {
      do {
        this.rescanAgain = false;
        try {
          const change = await this.scan();
          if (change && !this.closed) this.notify({ ...change, external: true });
        } catch {
          // A transient error (a file vanishing mid-read) is retried at the next event.
        }
      } while (this.rescanAgain && !this.closed);
    })();
    try {
      await this.rescanning;
    } finally {
      this.rescanning = null;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.debounce) clearTimeout(this.debounce);
    this.watcher?.close();
    this.watcher = null;
    await this.rescanning;
  }
}

async function isLink(file: string): Promise<boolean> {
  try {
    return (await fs.lstat(file)).isSymbolicLink();
  } catch {
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

function watchDir(dir: string, onEvent: () => void): FSWatcher {
  return watchFs(dir, { persistent: false }, () => onEvent());
}

async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  });
  await Promise.all(workers);
}

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
