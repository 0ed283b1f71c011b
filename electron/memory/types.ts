/**
 * The memory core's public service shapes. Other areas (search, sync, cleanup, agents, api) code
 * against these; the implementations live beside this file. Plain Node, never 'electron'.
 *
 * Shape of the core:
 *   UserMemory   — one per OHARNESS_HOME: user config layer, the user NoteStore, backups, usage.
 *                  Several projects (a web bridge, the desktop app) share one.
 *   MemoryCore   — one per open project (or none): the project NoteStore, the layered config, and
 *                  the UserMemory it was built on.
 */
import type { AppEvent } from '../../shared/events.js';
import type { Note, Scope } from '../../shared/note.js';
import type { Warning } from '../../shared/api/notes.js';
import type { HeldNote } from '../../shared/held-note.js';
import type { MemoryConfig } from './config-schema.js';
import type { SearchIndex } from './search/index.js';
import type { DocumentAnalysis } from './search/search-index.js';

export type { MemoryConfig } from './config-schema.js';
export type { Warning } from '../../shared/api/notes.js';

/** A loaded note: the note itself plus where it lives and what the core derived from it. */
export interface StoredNote extends Note {
  scope: Scope;
  /** Canonical content hash (shared/content-hash.ts). */
  hash: string;
  /** Absolute path of the `<id>.md` file. */
  path: string;
  /** The file's mtime when it was last read or written by the core. */
  mtimeMs: number;
  /** `[[id]]` targets in the body, in order of first appearance, de-duplicated. Derived, never stored. */
  links: string[];
}

/** What changed in a directory: written by the core, or picked up by the watcher (`external`). */
export interface NoteStoreChange {
  scope: Scope;
  dir: string;
  /** Ids written or re-read. */
  changed: string[];
  /** Ids whose files disappeared. */
  removed: string[];
  external: boolean;
}

export interface WriteNoteOptions {
  /**
   * Optimistic concurrency: the content hash the caller last saw. `null` means "the note must not
   * exist yet". When the file on disk (read under the lock) differs, the write is refused with
   * AppError('conflict'). Omit to write unconditionally.
   */
  expectedHash?: string | null;
  /**
   * Back up the version being replaced first, with this reason (e.g. 'sync: took the cloud side').
   * Omit for writes the person chose (an edit in the UI); a backup is then not needed.
   */
  backupReason?: string;
  /** Allow creating a note although the directory is at memory.maxNotes (sync pulls use this). */
  ignoreNoteLimit?: boolean;
}

export interface DeleteNoteOptions {
  /** Reason recorded with the backup written before the delete. Required: deletes always back up. */
  backupReason: string;
  expectedHash?: string;
}

/** A loaded note with the mtime and size of its file when it was read (what the index cache keeps). */
export interface LoadedFile {
  /** `<id>.md` */
  name: string;
  mtimeMs: number;
  ctimeMs: number;
  size: number;
  note: StoredNote;
}

/** A loaded file in the shape of the store's own entries for files without problems. */
export interface AdoptedFile extends LoadedFile {
  warning: null;
  held: null;
}

/** A note directory's index cache (index-cache.ts): the search analyses of its notes, saved at close. */
export interface NoteIndexCache {
  /** The note's analysis: from the cache when the note came from it, else computed (and kept). */
  analysisOf(note: StoredNote): DocumentAnalysis;
  /**
   * Puts the persisted inverted index of the store's notes into `index` (which holds none of this
   * scope yet), minus the notes that changed since; returns the notes it now holds. The store's
   * other notes must be upserted.
   */
  adoptInto(index: SearchIndex): Set<StoredNote>;
  /** Writes the cache when enough changed since it was read. */
  save(): Promise<void>;
  /** Lets go of the cache file (called when the core closes, after the save). */
  close(): void;
}

/** One note directory (`<project>/MEMORY/` or `$OHARNESS_HOME/memory/user/`). */
export interface NoteStore {
  readonly scope: Scope;
  readonly dir: string;
  /**
   * This directory's memory.maxNotes: the user config's for the user scope, the project-layered one
   * for the project scope (core.ts). Limits and refusals must name this, not MemoryCore.config.
   */
  readonly maxNotes: number;
  /**
   * This directory's memory.maxNoteBytes, chosen as maxNotes is: a larger body is refused by write()
   * and not loaded by load(). Code that writes files past the store (archive import) or checks a
   * body before writing it (a merge) must check against this.
   */
  readonly maxNoteBytes: number;
  /** (Re)reads the directory. Malformed files are reported in warnings(), never touched. */
  load(): Promise<void>;
  /**
   * Before the first load: files whose mtime and size on disk still match are taken from `files`
   * instead of being read (the index cache, index-cache.ts). The store keeps these objects as its
   * file entries (no copy per file): they are never changed afterwards, only replaced.
   */
  adopt(files: readonly AdoptedFile[]): void;
  /** The loaded notes with their files' mtime and size. */
  loadedFiles(): LoadedFile[];
  /** Calls fn with the file name and note of each file loadedFiles() lists, in its order, without making the list. */
  forEachLoadedFile(fn: (name: string, note: StoredNote) => void): void;
  /** Loaded notes, most recently updated first. */
  list(): StoredNote[];
  /** Exact id, or the same id ignoring case (ids equal ignoring case name one file). */
  get(id: string): StoredNote | undefined;
  /** Problems found by the last load: unreadable_note, note_too_large, id_collision, over_note_limit, … */
  warnings(): Warning[];
  /**
   * Every `*.md` file on disk at the last load that is not loaded, and why (malformed, too large,
   * a case twin, skipped by memory.maxNotes, a symbolic link, an invalid name). Sync never reads
   * such a note as deleted.
   */
  held(): HeldNote[];
  /** Number of `*.md` files on disk at the last load (including ones not loaded). */
  fileCount(): number;
  /** True when no new note may be created (memory.maxNotes reached). */
  isFull(): boolean;
  /**
   * Writes `<id>.md` atomically under the directory's cross-process lock. Validates the id, the
   * size limit and case collisions. Returns the stored note (hash, path, mtime filled).
   */
  write(note: Note, opts?: WriteNoteOptions): Promise<StoredNote>;
  /**
   * Writes a file's exact bytes (restoring a backup) under the lock. When a different version is on
   * disk it is backed up first with `backupReason`. Refuses case collisions; ignores maxNotes (the
   * person chose this). `note` is null when the content does not parse (it is still written).
   */
  replaceRaw(
    id: string,
    content: string,
    opts: { backupReason: string },
  ): Promise<{ note: StoredNote | null; replacedBackupId: string | null }>;
  /** Backs the file up, then removes it, under the lock. */
  delete(id: string, opts: DeleteNoteOptions): Promise<{ backupId: string }>;
  /**
   * Runs fn holding the directory's write lock (in-process queue + cross-process lock file). The
   * lock file lives in the directory: when it may not exist yet, use withDirCreatedAndLocked.
   */
  withLock<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * For a write made outside write()/replaceRaw() (an archive import's exact bytes): creates the
   * directory when missing, as the first write() does (a wanted watcher starts), then runs fn under
   * withLock. A directory that cannot be created is an io_error naming it, and fn does not run.
   */
  withDirCreatedAndLocked<T>(fn: () => Promise<T>): Promise<T>;
  /** The raw bytes of a note's file as on disk (for sync baselines and backups). */
  readRaw(id: string): Promise<string | null>;
  onChange(listener: (change: NoteStoreChange) => void): () => void;
  /** Called when warnings() changes (a malformed file appears or is fixed, the watcher fails). */
  onWarningsChange(listener: () => void): () => void;
  /** Starts watching the directory for external edits (debounced); idempotent. */
  watch(): void;
  /** Applies edits the watcher was told of but still debounces, now (see DirWatcher.flush). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** A backup as listed; reason/originDir/scope are null for backups written before they were recorded. */
export interface BackupEntry {
  id: string;
  noteId: string;
  scope: Scope | null;
  summary: string | null;
  reason: string | null;
  at: number;
  originDir: string | null;
  /** The copied file inside memory-backups/. */
  path: string;
}

export interface BackupInput {
  noteId: string;
  /** The file's content exactly as it was on disk. */
  content: string;
  reason: string;
  originDir: string;
  scope: Scope | null;
  summary?: string | null;
}

export interface BackupStore {
  readonly dir: string;
  backup(input: BackupInput): Promise<BackupEntry>;
  /** Latest first. */
  list(limit?: number): Promise<BackupEntry[]>;
  get(backupId: string): Promise<{ entry: BackupEntry; content: string }>;
}

export interface NoteUsage {
  count: number;
  lastRecalledAt: number | null;
}

/**
 * Recall counts per machine in `$OHARNESS_HOME/memory-usage/`, never in the notes, so recall never
 * changes a note and never triggers an upload. Keyed by scope key ('user' or 'project:<projectId>').
 */
export interface UsageStore {
  get(scope: Scope, id: string): NoteUsage;
  all(scope: Scope): ReadonlyMap<string, NoteUsage>;
  record(hits: ReadonlyArray<{ scope: Scope; id: string }>): Promise<void>;
  /** Re-reads the counts other processes (agent hooks, MCP servers) recorded since the last read. */
  refresh(): Promise<void>;
}

export interface ProjectInfo {
  root: string;
  /** null until the project is registered (`project init`). */
  id: string | null;
  memoryDir: string;
  artifactsDir: string;
}

export interface CoreOptions {
  /** OHARNESS_HOME. */
  home: string;
  /** Project root; omit for user-only use. */
  projectRoot?: string;
  /** Injected clock (tests). */
  now?: () => number;
  /** Where change events go (IPC, web bridge, tests). */
  emit?: (event: AppEvent) => void;
  /** Environment for config overrides (defaults to process.env). */
  env?: Record<string, string | undefined>;
  /** Share one UserMemory between several projects. */
  user?: UserMemory;
  /** Directory lock wait before giving up (ms). */
  lockTimeoutMs?: number;
  /** Watch the note directories for external edits (the app and web bridge do; the CLI does not). */
  watch?: boolean;
  /**
   * With watch: the first load reads the files synchronously (NoteStoreOptions.syncIo
   * 'first-load'): the process has nothing to answer before its notes are loaded (`memdesk mcp`).
   */
  syncFirstLoad?: boolean;
  /** The bundled CLI's build, when this process runs it: its own index caches skip the analyzer's probe (index-cache.ts analyzerIdentity). */
  analyzerBuild?: string;
}

export interface UserMemory {
  readonly home: string;
  /** null when the user directory could not be created (a user_dir_unavailable warning says why). */
  readonly store: NoteStore | null;
  /** The user store's index cache (index-cache.ts); null with `store`. */
  readonly indexCache: NoteIndexCache | null;
  readonly backups: BackupStore;
  readonly now: () => number;
  /** false when $OHARNESS_HOME cannot be used at all (recall counts then stay in memory). */
  readonly homeUsable: boolean;
  /** Warnings of the user level (home not usable, user config invalid). */
  warnings(): Warning[];
  close(): Promise<void>;
}

export interface MemoryCore {
  readonly home: string;
  readonly user: UserMemory;
  readonly project: ProjectInfo | null;
  /** defaults < user config < project config (only-off keys) < environment. */
  readonly config: MemoryConfig;
  readonly usage: UsageStore;
  readonly now: () => number;
  store(scope: Scope): NoteStore | null;
  /** The search index over both stores (search/, built on first use, kept current on every change). */
  search(): SearchIndex;
  /** Registers the project: .oharness/project.json, MEMORY/, ARTIFACTS/. */
  registerProject(): Promise<ProjectInfo & { id: string }>;
  /** Every warning: user level, config, both stores. */
  warnings(): Warning[];
  /**
   * Copies a note's current file to memory-backups/ with the reason. Callers: sync, cleanup,
   * agents, forget. Returns null when the note has no file (nothing to back up).
   */
  backupNote(scope: Scope, id: string, reason: string): Promise<BackupEntry | null>;
  /** Restores a backup into the directory it came from, backing up the newer version it replaces. */
  restoreBackup(
    backupId: string,
  ): Promise<{ id: string; scope: Scope | null; dir: string; replacedBackupId: string | null }>;
  /** Resolves `[[id]]` project first, then user; null when dangling. */
  resolveLink(id: string): StoredNote | null;
  /** Notes that link to (scope, id). */
  backlinks(scope: Scope, id: string): StoredNote[];
  /**
   * Brings a watching core up to date with the disk before an answer: file events the system has
   * already queued are read (one turn of the event loop), then both stores apply them at once.
   */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** The pieces of a note a remember/edit call provides (see notes-service.ts). */
export type NoteDraft = Pick<Note, 'summary' | 'type' | 'tags' | 'body'>;

/**
 * remember / edit / forget with every rule of a note (ids, tags, default scope by type,
 * credentials refused, limits, backups). Built by `createNotesService(core)` in notes-service.ts;
 * the API handlers, retain (agents) and the MCP server all call this one service.
 */
export interface RememberRequest {
  summary: string;
  body: string;
  type?: Note['type'];
  tags?: string | string[];
  scope?: Scope;
  id?: string;
  /** Extra frontmatter keys to keep. */
  extra?: Record<string, unknown>;
}
export interface EditRequest {
  id: string;
  scope?: Scope;
  summary?: string;
  /** null removes the type. */
  type?: Note['type'] | null;
  tags?: string | string[];
  body?: string;
  baseHash?: string;
  /** When set, the replaced version is backed up with this reason (edits nobody reviewed). */
  backupReason?: string;
}
export interface RememberResult {
  note: StoredNote;
  /** The most related existing notes, best first (before this one was written). */
  related: Array<{ id: string; scope: Scope; summary: string }>;
  /** An existing note this one probably duplicates, or null. The note is written anyway. */
  duplicateOf: { id: string; scope: Scope; summary: string } | null;
  /** `[[id]]` links in the body that name no note (yet). */
  danglingLinks: string[];
}
export interface NotesService {
  remember(req: RememberRequest): Promise<RememberResult>;
  edit(req: EditRequest): Promise<StoredNote>;
  forget(ref: {
    id: string;
    scope?: Scope;
    reason?: string;
  }): Promise<{ id: string; scope: Scope; backupId: string }>;
  /** Finds a note by id: the given scope, else project first then user. Throws not_found. */
  find(ref: { id: string; scope?: Scope }): StoredNote;
}
