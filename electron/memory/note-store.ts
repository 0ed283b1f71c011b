import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Warning } from '../../shared/api/notes.js';
import type { HeldNote } from '../../shared/held-note.js';
import type { Note, Scope } from '../../shared/note.js';
import { noteIdKey } from '../../shared/note-id.js';
import { withDirLock } from './dir-lock.js';
import type { FileEntry } from './note-store/note-file.js';
import { scanNoteDir, type ScanLimits } from './note-store/scan.js';
import { DirWatcher } from './note-store/watcher.js';
import {
  deleteNote,
  isLink,
  replaceNoteRaw,
  withDirCreatedAndLocked,
  writeNote,
  type WriteTarget,
} from './note-store/writer.js';
import type {
  AdoptedFile,
  BackupStore,
  DeleteNoteOptions,
  LoadedFile,
  NoteStore,
  NoteStoreChange,
  StoredNote,
  WriteNoteOptions,
} from './types.js';
import { onUnexpectedError, unlessMissing } from './unexpected-error.js';

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
   * Stat and read the files with synchronous calls: one-shot processes (the CLI) that wait for the
   * load anyway — ~3–5× less CPU than 10,000 promise round trips (docs/performance.md, CLI cold start).
   * 'first-load': the first load only, later rescans with promises — a long-running process that
   * has nothing to answer until its notes are loaded (`memdesk mcp`), then keeps its event loop free.
   */
  syncIo?: boolean | 'first-load';
}

export function createNoteStore(opts: NoteStoreOptions): NoteStore {
  return new FileNoteStore(opts);
}

/**
 * The store's in-memory view of its directory and who hears about changes; reading a file
 * (note-store/note-file.ts), scanning the directory (scan.ts), writing (writer.ts) and watching
 * (watcher.ts) each live in their own file.
 */
class FileNoteStore implements NoteStore {
  readonly scope: Scope;
  readonly dir: string;
  readonly maxNotes: number;
  readonly maxNoteBytes: number;
  private files = new Map<string, FileEntry>();
  /** File name → the note loaded from it (files with problems or case collisions are absent). */
  private loaded = new Map<string, StoredNote>();
  private byKey = new Map<string, StoredNote>();
  private sorted: StoredNote[] | null = null;
  private loadWarnings: Warning[] = [];
  private heldFiles: HeldNote[] = [];
  private mdFileCount = 0;
  private listeners = new Set<(change: NoteStoreChange) => void>();
  private readonly watcher: DirWatcher;
  private wantWatch = false;
  /** Bumped by every own write/delete: a scan that overlapped one is stale and is run again. */
  private writeGeneration = 0;
  /** A scan has started (syncIo 'first-load': the later ones use promises). */
  private scannedOnce = false;
  private watchWarning: Warning | null = null;
  private warningsKey = '';
  private warningListeners = new Set<() => void>();
  private readonly target: WriteTarget;
  private readonly scanLimits: ScanLimits;

  constructor(private readonly opts: NoteStoreOptions) {
    this.scope = opts.scope;
    this.dir = opts.dir;
    this.maxNotes = opts.maxNotes;
    this.maxNoteBytes = opts.maxNoteBytes;
    this.watcher = new DirWatcher({
      dir: opts.dir,
      debounceMs: opts.debounceMs ?? 100,
      rescan: async () => {
        const change = await this.scan();
        if (change && !this.watcher.isClosed) this.notify({ ...change, external: true });
      },
      onFailure: (err) => {
        this.watchWarning = err && {
          code: 'watch_unavailable',
          message: `cannot watch ${this.dir} for changes (${err.message}); edits made outside this app appear only after a restart`,
          scope: this.scope,
          path: this.dir,
        };
        this.warningsMayHaveChanged();
      },
    });
    this.target = {
      scope: opts.scope,
      dir: opts.dir,
      maxNotes: this.maxNotes,
      maxNoteBytes: this.maxNoteBytes,
      backups: opts.backups,
      withLock: (fn) => this.withLock(fn),
      ensureDir: () => this.ensureDir(),
      get: (id) => this.get(id),
      record: (name, entry, mdCount) => this.record(name, entry, mdCount),
    };
    // Scans and writes use the limits the store exposes (maxNotes, maxNoteBytes), as callers do.
    this.scanLimits = {
      scope: opts.scope,
      dir: opts.dir,
      maxNotes: this.maxNotes,
      maxNoteBytes: this.maxNoteBytes,
      syncIo: opts.syncIo === true,
    };
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
    const syncNow = this.opts.syncIo === 'first-load' && !this.scannedOnce;
    this.scannedOnce = true;
    const scanned = await scanNoteDir(
      syncNow ? { ...this.scanLimits, syncIo: true } : this.scanLimits,
      this.files,
    );
    // An own write or delete finished while this scan read the directory: its listing may predate
    // that write, and applying it would drop the written note from memory. Scan again instead.
    if (generation !== this.writeGeneration) return this.scanOnce();
    if ('listingError' in scanned) {
      const err = scanned.listingError;
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        const warning: Warning = {
          code: 'dir_unreadable',
          message: `cannot read ${this.dir}: ${err.message}`,
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
    const { files, loaded, warnings, held, mdCount } = scanned.outcome;
    this.mdFileCount = mdCount;
    const before = this.loaded;
    this.files = files;
    this.loaded = loaded;
    const changed: string[] = [];
    const removed: string[] = [];
    if (before.size === 0) for (const note of loaded.values()) changed.push(note.id);
    else for (const [name, note] of loaded) if (before.get(name) !== note) changed.push(note.id);
    for (const [name, note] of before) if (!loaded.has(name)) removed.push(note.id);
    this.loadWarnings = warnings;
    this.heldFiles = held;
    this.rebuildIndex();
    return changed.length > 0 || removed.length > 0
      ? { scope: this.scope, dir: this.dir, changed, removed }
      : null;
  }

  private rebuildIndex(): void {
    this.byKey.clear();
    for (const note of this.loaded.values()) this.byKey.set(noteIdKey(note.id), note);
    this.sorted = null;
  }

  adopt(files: readonly AdoptedFile[]): void {
    if (this.files.size > 0) return;
    for (const file of files) this.files.set(file.name, file);
  }

  loadedFiles(): LoadedFile[] {
    const out: LoadedFile[] = [];
    for (const [name, note] of this.loaded) {
      const entry = this.files.get(name);
      if (entry && !entry.warning)
        out.push({ name, mtimeMs: entry.mtimeMs, ctimeMs: entry.ctimeMs, size: entry.size, note });
    }
    return out;
  }

  forEachLoadedFile(fn: (name: string, note: StoredNote) => void): void {
    this.loaded.forEach((note, name) => {
      const entry = this.files.get(name);
      if (entry && !entry.warning) fn(name, note);
    });
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
      } catch (err) {
        onUnexpectedError(err, 'note store: warnings listener'); // it must not break the store
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
    return this.mdFileCount >= this.maxNotes;
  }

  async readRaw(id: string): Promise<string | null> {
    const file = path.join(this.dir, `${id}.md`);
    if (await isLink(file)) return null;
    try {
      return await fs.readFile(file, 'utf8');
    } catch (err) {
      unlessMissing(err, 'note store: readRaw');
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

  withDirCreatedAndLocked<T>(fn: () => Promise<T>): Promise<T> {
    return withDirCreatedAndLocked(this.target, fn);
  }

  async write(note: Note, opts: WriteNoteOptions = {}): Promise<StoredNote> {
    const stored = await writeNote(this.target, note, opts);
    this.warningsMayHaveChanged();
    this.notify({ scope: this.scope, dir: this.dir, changed: [stored.id], removed: [], external: false });
    return stored;
  }

  async replaceRaw(
    id: string,
    content: string,
    opts: { backupReason: string },
  ): Promise<{ note: StoredNote | null; replacedBackupId: string | null }> {
    const result = await replaceNoteRaw(this.target, id, content, opts);
    this.warningsMayHaveChanged();
    this.notify({ scope: this.scope, dir: this.dir, changed: [id], removed: [], external: false });
    return result;
  }

  async delete(id: string, opts: DeleteNoteOptions): Promise<{ backupId: string }> {
    const result = await deleteNote(this.target, id, opts);
    this.warningsMayHaveChanged();
    this.notify({ scope: this.scope, dir: this.dir, changed: [], removed: [result.id], external: false });
    return { backupId: result.backupId };
  }

  /** A write's effect on the in-memory view (WriteTarget.record), under the lock. */
  private record(
    name: string,
    entry: FileEntry | null | undefined,
    mdCount: (current: number) => number,
  ): void {
    const file = path.join(this.dir, name);
    if (entry !== undefined) {
      if (entry) this.files.set(name, entry);
      else this.files.delete(name);
      if (entry?.note) this.loaded.set(name, entry.note);
      else this.loaded.delete(name);
      this.loadWarnings = this.loadWarnings.filter((w) => w.path !== file);
      if (entry?.warning) this.loadWarnings.push(entry.warning);
      this.heldFiles = this.heldFiles.filter((h) => h.path !== file);
      if (entry?.held)
        this.heldFiles.push({
          id: name.slice(0, -3),
          path: file,
          reason: entry.held,
          message: entry.warning?.message ?? `${file} is not loaded`,
        });
    }
    this.mdFileCount = mdCount(this.mdFileCount);
    this.writeGeneration++;
    this.rebuildIndex();
  }

  /**
   * Creates the directory for a first write. When a watcher was wanted but the directory did not
   * exist, it starts now — and a rescan picks up files another process put there between our
   * load (which found no directory) and this moment, which no watcher event will ever report.
   */
  private async ensureDir(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    if (this.wantWatch && !this.watcher.running) {
      this.watch();
      if (this.watcher.running) this.watcher.schedule();
    }
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
      } catch (err) {
        onUnexpectedError(err, 'note store: change listener'); // it must not break the store
      }
    }
  }

  watch(): void {
    this.wantWatch = true;
    this.watcher.start();
  }

  async settle(): Promise<void> {
    // Linux's inotify queues an event as the write happens; elsewhere (FSEvents, Windows) events
    // may come later than a request that follows the edit, so the directory is checked instead.
    await this.watcher.flush(this.wantWatch && process.platform !== 'linux');
  }

  async close(): Promise<void> {
    await this.watcher.close();
  }
}
