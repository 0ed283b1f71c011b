import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/errors.js';
import type { AppEvent } from '../../shared/events.js';
import { defaultScopeForType, type Scope } from '../../shared/note.js';
import { credentialsMessage, findFieldCredentials } from './credentials.js';
import { parseNote } from '../../shared/note-format.js';
import { createBackupStore } from './backups.js';
import { loadMemoryConfig } from './config.js';
import type { MemoryConfig } from './config-schema.js';
import { StoreIndexCache } from './index-cache.js';
import { createNoteStore } from './note-store.js';
import { readProjectId, registerProject, resolveProjectNotesDir } from './project.js';
import { SearchIndex } from './search/index.js';
import { createUsageStore, projectUsageKey } from './usage.js';
import type {
  BackupEntry,
  CoreOptions,
  MemoryCore,
  NoteIndexCache,
  NoteStore,
  NoteStoreChange,
  ProjectInfo,
  StoredNote,
  UsageStore,
  UserMemory,
  Warning,
} from './types.js';
import { onUnexpectedError } from './unexpected-error.js';
import { userNotesDir } from './scope-full.js';

export { defaultHome } from './default-home.js';

export { userNotesDir } from './scope-full.js';

/** The core's options that concern the user level (watch: start the user directory's watcher). */
export type UserMemoryOptions = Pick<
  CoreOptions,
  'home' | 'now' | 'env' | 'lockTimeoutMs' | 'watch' | 'syncFirstLoad' | 'analyzerBuild'
>;

/** How a core opened with these options keeps its stores' index caches. */
const indexCacheOptions = (opts: Pick<CoreOptions, 'watch' | 'analyzerBuild'>) => ({
  longRunning: opts.watch === true,
  analyzerBuild: opts.analyzerBuild ?? null,
});

/** How a store of a core opened with these options reads its files (NoteStoreOptions.syncIo). */
const storeSyncIo = (opts: Pick<CoreOptions, 'watch' | 'syncFirstLoad'>): boolean | 'first-load' =>
  !opts.watch || (opts.syncFirstLoad ? 'first-load' : false);

/**
 * The user level of one OHARNESS_HOME: user notes, backups. When the user directory cannot be
 * created, `store` is null and a warning says what is unavailable; project notes keep working.
 */
export async function createUserMemory(opts: UserMemoryOptions): Promise<UserMemory> {
  const home = path.resolve(opts.home);
  const now = opts.now ?? Date.now;
  const warnings: Warning[] = [];
  const { config, warnings: configWarnings } = await loadMemoryConfig({ home, env: opts.env ?? process.env });
  warnings.push(...configWarnings);
  const dir = userNotesDir(home);
  let homeUsable = true;
  try {
    await fs.mkdir(dir, { recursive: true });
  } catch (err) {
    homeUsable = false;
    warnings.push({
      code: 'user_dir_unavailable',
      message: `cannot create ${dir} (${(err as Error).message}): your own notes, backups and recall counts are unavailable; project notes still work`,
      scope: 'user',
      path: dir,
    });
  }
  const backups = createBackupStore(home, now);
  const store = homeUsable
    ? createNoteStore({
        scope: 'user',
        dir,
        maxNotes: config.maxNotes,
        maxNoteBytes: config.maxNoteBytes,
        backups,
        now,
        ...(opts.lockTimeoutMs !== undefined ? { lockTimeoutMs: opts.lockTimeoutMs } : {}),
        syncIo: storeSyncIo(opts),
      })
    : null;
  const indexCache = store
    ? new StoreIndexCache(home, store, config.maxNoteBytes, indexCacheOptions(opts))
    : null;
  indexCache?.prime();
  await store?.load();
  if (opts.watch) store?.watch();
  return {
    home,
    store,
    indexCache,
    backups,
    now,
    homeUsable,
    warnings: () => [...warnings],
    close: async () => {
      indexCache?.close();
      await store?.close();
    },
  };
}

export async function createMemoryCore(opts: CoreOptions): Promise<MemoryCore> {
  const home = path.resolve(opts.home);
  const now = opts.now ?? Date.now;
  const env = opts.env ?? process.env;
  const ownsUser = !opts.user;
  const user =
    opts.user ??
    (await createUserMemory({
      home,
      now,
      env,
      ...(opts.lockTimeoutMs !== undefined ? { lockTimeoutMs: opts.lockTimeoutMs } : {}),
      ...(opts.watch ? { watch: true } : {}),
      ...(opts.syncFirstLoad ? { syncFirstLoad: true } : {}),
      ...(opts.analyzerBuild ? { analyzerBuild: opts.analyzerBuild } : {}),
    }));
  const root = opts.projectRoot !== undefined ? path.resolve(opts.projectRoot) : undefined;
  const projectWarnings: Warning[] = [];
  let config: MemoryConfig;
  let configWarnings: Warning[];
  let project: ProjectInfo | null = null;
  let projectStore: NoteStore | null = null;
  let projectCache: StoreIndexCache | null = null;
  let usage: UsageStore;
  // A core that fails to open lets go of what it opened: the user memory it created and the
  // project cache's file (held open while lists are read from it; Windows will not replace it then).
  try {
    ({ config, warnings: configWarnings } = await loadMemoryConfig({
      home,
      env,
      ...(root !== undefined ? { projectRoot: root } : {}),
    }));
    if (root !== undefined) {
      const notesDir = await resolveProjectNotesDir(root, config.dir);
      if (notesDir.warning) projectWarnings.push(notesDir.warning);
      const memoryDir = notesDir.dir;
      project = {
        root,
        id: await readProjectId(root, projectWarnings),
        memoryDir,
        artifactsDir: path.join(root, 'ARTIFACTS'),
      };
      if (notesDir.ok) {
        projectStore = createNoteStore({
          scope: 'project',
          dir: memoryDir,
          maxNotes: config.maxNotes,
          maxNoteBytes: config.maxNoteBytes,
          backups: user.backups,
          now,
          ...(opts.lockTimeoutMs !== undefined ? { lockTimeoutMs: opts.lockTimeoutMs } : {}),
          syncIo: storeSyncIo(opts),
        });
        // The index cache lives in the home: without a usable home the project's notes are read as before.
        if (user.homeUsable)
          projectCache = new StoreIndexCache(
            home,
            projectStore,
            config.maxNoteBytes,
            indexCacheOptions(opts),
          );
        projectCache?.prime();
        await projectStore.load();
        if (opts.watch) projectStore.watch();
      }
    }

    usage = await createUsageStore({
      home,
      projectKey: project ? projectUsageKey(project.id, project.root) : null,
      now,
      persist: user.homeUsable,
    });
  } catch (err) {
    projectCache?.close();
    await projectStore?.close();
    if (ownsUser) await user.close();
    throw err;
  }

  const store = (scope: Scope): NoteStore | null => (scope === 'project' ? projectStore : user.store);
  const stores = (): NoteStore[] => [projectStore, user.store].filter((s): s is NoteStore => s !== null);
  const cacheOf = (scope: Scope): NoteIndexCache | null =>
    scope === 'project' ? projectCache : user.indexCache;
  /** Indexes a note with its persisted analysis when the cache has it (most of the cost of indexing). */
  const indexNote = (note: StoredNote): void => index!.upsert(note, cacheOf(note.scope)?.analysisOf(note));
  /** Saves the caches of both stores (a failure only costs the next open its speed). */
  const saveCaches = async (): Promise<void> => {
    await Promise.all(
      [projectCache?.save(), user.indexCache?.save()].map((p) =>
        p?.catch((err) => onUnexpectedError(err, 'index cache: save')),
      ),
    );
  };

  // The search index is built on first use, then kept current by every change of either store.
  // A long-running core (watch: true — the app, the MCP server) builds it in small slices in the
  // background right after opening, so its first remember/search does not wait ~2 s at 10,000
  // notes (docs/performance.md). Whatever is still queued is indexed at once on first use.
  let index: SearchIndex | null = null;
  let queue: Array<readonly [Scope, string]> = [];
  let queued = 0;
  let warming: NodeJS.Immediate | null = null;
  const indexQueued = (limit: number): void => {
    for (let n = 0; n < limit && queued < queue.length; n++) {
      const [scope, id] = queue[queued++]!;
      // The current version (a change since queueing was already indexed; a removal is skipped).
      const note = store(scope)?.get(id);
      if (note) indexNote(note);
    }
    if (queued >= queue.length) queue = [];
  };
  const startIndex = (): SearchIndex => {
    const fresh = new SearchIndex();
    index = fresh;
    // The persisted postings of notes unchanged since the cache was written (read per term when a
    // query needs them); only the other notes are queued for analysis.
    const adopted = stores().map((s) => cacheOf(s.scope)?.adoptInto(fresh) ?? new Set<StoredNote>());
    queue = stores().flatMap((s, i) =>
      s
        .list()
        .filter((n) => !adopted[i]!.has(n))
        .map((n) => [s.scope, n.id] as const),
    );
    queued = 0;
    return fresh;
  };
  const searchIndex = (): SearchIndex => {
    const built = index ?? startIndex();
    if (queue.length > 0) indexQueued(Infinity);
    return built;
  };
  const WARM_SLICE = 50; // notes per slice: keeps event-loop pauses short (~50 ms on a loaded machine)
  const warmStep = (): void => {
    warming = null;
    if (!index || queue.length === 0) return;
    indexQueued(WARM_SLICE);
    if (queue.length > 0) warming = setImmediate(warmStep);
    else void saveCaches();
  };
  const onStoreChange = (change: NoteStoreChange): void => {
    if (index) {
      const s = store(change.scope);
      for (const id of change.removed) index.remove(change.scope, id);
      for (const id of change.changed) {
        const note = s?.get(id);
        if (note) indexNote(note);
        else index.remove(change.scope, id);
      }
    }
    const event: AppEvent = {
      type: 'notes.changed',
      scope: change.scope,
      ids: [...change.changed, ...change.removed],
    };
    opts.emit?.(event);
  };
  const onWarningsChange = (): void => opts.emit?.({ type: 'warnings.changed' });
  const unsubscribe = stores().flatMap((s) => [
    s.onChange(onStoreChange),
    s.onWarningsChange(onWarningsChange),
  ]);

  if (opts.watch) {
    startIndex();
    warming = setImmediate(warmStep);
  }

  const resolveLink = (id: string): StoredNote | null => projectStore?.get(id) ?? user.store?.get(id) ?? null;

  const backlinks = (scope: Scope, id: string): StoredNote[] => {
    const target = store(scope)?.get(id);
    if (!target) return [];
    const out: StoredNote[] = [];
    for (const s of stores()) {
      for (const n of s.list()) {
        if (n.scope === scope && n.id === target.id) continue;
        // A link counts as pointing here when it resolves here (project first, then user).
        if (n.links.some((l) => resolveLink(l) === target)) out.push(n);
      }
    }
    return out;
  };

  async function backupNote(scope: Scope, id: string, reason: string): Promise<BackupEntry | null> {
    const s = store(scope);
    if (!s) return null;
    const note = s.get(id);
    const raw = await s.readRaw(note?.id ?? id);
    if (raw === null) return null;
    const parsed = parseNote(raw);
    return user.backups.backup({
      noteId: note?.id ?? id,
      content: raw,
      reason,
      originDir: s.dir,
      scope,
      summary: parsed.ok ? parsed.note.summary : null,
    });
  }

  async function restoreBackup(backupId: string) {
    const { entry, content } = await user.backups.get(backupId);
    const credentials = await findFieldCredentials([['the backup', content]]);
    if (credentials.length > 0)
      throw new AppError(
        'refused',
        `backup ${backupId}: ${credentialsMessage(credentials)}; it stays in memory-backups/ (not synced) where you can copy what you need`,
      );
    const parsed = parseNote(content);
    // The recorded note id is its file name (which wins over the frontmatter, see note-store.ts).
    const noteId = entry.noteId;
    // Where it goes: the recorded origin; for reason-less backups, the scope its type defaults to.
    let target: NoteStore | null;
    let scope: Scope | null = entry.scope;
    if (entry.originDir !== null) {
      target = stores().find((s) => path.resolve(s.dir) === path.resolve(entry.originDir!)) ?? null;
      if (target) scope = target.scope;
      else {
        target = createNoteStore({
          scope: entry.scope ?? 'project',
          dir: entry.originDir,
          maxNotes: config.maxNotes,
          maxNoteBytes: config.maxNoteBytes,
          backups: user.backups,
          now,
        });
      }
    } else {
      scope = defaultScopeForType(parsed.ok ? parsed.note.type : undefined);
      target = store(scope);
      if (!target) {
        throw new AppError(
          'unavailable',
          `backup ${backupId} has no recorded origin and the ${scope} notes directory is unavailable`,
        );
      }
    }
    const result = await target.replaceRaw(noteId, content, {
      backupReason: `replaced by restoring backup ${backupId}`,
    });
    return { id: noteId, scope, dir: target.dir, replacedBackupId: result.replacedBackupId };
  }

  return {
    home,
    user,
    project,
    config,
    usage,
    now,
    store,
    search: searchIndex,
    async registerProject() {
      if (!project)
        throw new AppError(
          'invalid_input',
          'no project directory given (use --project DIR or run inside the project)',
        );
      const info = await registerProject(project.root, project.memoryDir);
      project.id = info.id;
      if (opts.watch) projectStore?.watch();
      return info;
    },
    warnings: () =>
      dedupe([
        ...user.warnings(),
        ...configWarnings,
        ...projectWarnings,
        ...stores().flatMap((s) => s.warnings()),
      ]),
    backupNote,
    restoreBackup,
    resolveLink,
    backlinks,
    async settle() {
      await new Promise<void>((resolve) => setImmediate(resolve));
      await Promise.all(stores().map((s) => s.settle()));
    },
    async close() {
      if (warming) clearImmediate(warming);
      warming = null;
      for (const u of unsubscribe) u();
      await saveCaches();
      projectCache?.close();
      await projectStore?.close();
      if (ownsUser) await user.close();
    },
  };
}

/** The user config is read by both levels; report each problem once. */
function dedupe(warnings: Warning[]): Warning[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = `${w.code}\n${w.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
