import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AppEvent } from '../../shared/events.js';
import { setUnexpectedErrorLog } from '../memory/unexpected-error.js';
import type { MemoryCore } from '../memory/types.js';
import type { Clock } from '../sync/clock.js';
import { openProject, type OpenProject, type ProcessServices, type ProjectOptions } from './open-project.js';
import type { ProcessSync, ProcessSyncOptions } from './process-sync.js';
import type { OwnershipOptions, SyncOwnership } from './sync-ownership.js';
import type { ExitSync, WrittenDirectory } from './exit-sync.js';

export interface AppRootOptions extends Pick<
  ProcessServices,
  'home' | 'env' | 'now' | 'keyStore' | 'consolidation' | 'openExternal'
> {
  /** Every event of every core the process opens (the window, the page's event stream). */
  emit?: (event: AppEvent) => void;
  /**
   * The process's sync engine: where tokens live, fetch, clock. `autoStart`: a long-running
   * process that takes part in "one sync owner per home" (owner: its role and heartbeat).
   */
  sync?: Omit<ProcessSyncOptions, 'home' | 'emit' | 'traceFile' | 'role'> & { owner?: OwnershipOptions };
  /** See ProcessServices.syncOnOpen (default false). */
  syncOnOpen?: boolean;
}

/**
 * The composition root of a process (the desktop app, the web bridge, one CLI run, the MCP
 * server): it holds the process's services — the sync engine, 待整理's key store and background
 * consolidation — and builds each open project's object graph from them (open-project.ts). Nothing
 * below it keeps module-level state: handlers get every service through their context.
 */
export interface AppRoot extends ProcessServices {
  /** Opens a project (or user notes only, without projectRoot): core, services, handler table. */
  open(project?: ProjectOptions): Promise<OpenProject>;
  /** This process's part in "one sync owner per home" (null unless sync.autoStart, until built). */
  ownership(): SyncOwnership | null;
  /**
   * A one-shot process (a CLI run) before it closes its projects: notes it wrote reach the cloud
   * (exit-sync.ts) — handed to a running owner, or one bounded round of its own.
   */
  syncBeforeExit(): Promise<ExitSync>;
  /** Stops the sync engine (requests aborted, running rounds finish their atomic writes). */
  stop(): Promise<void>;
}

export function createAppRoot(options: AppRootOptions): AppRoot {
  let loading: Promise<ProcessSync> | undefined;
  let loaded: ProcessSync | null = null;
  let ownership: SyncOwnership | null = null;
  let stopped = false;
  // One log per home for errors the process carried on after (memdesk info shows their count).
  setUnexpectedErrorLog(path.join(path.resolve(options.home), 'logs', 'unexpected-errors.log'));
  // Sync modules load only when a command syncs (`memdesk recall` loads none of them).
  const clock = async (): Promise<Clock> =>
    options.sync?.clock ?? (await import('../sync/clock.js')).systemClock;
  /** Note directories this process wrote to (notes.changed), for syncBeforeExit. */
  const written = new Map<string, WrittenDirectory>();
  const noteWrite = (core: MemoryCore, event: AppEvent): void => {
    if (event.type !== 'notes.changed') return;
    const store = event.scope === 'user' ? core.user.store : core.store('project');
    if (!store || (event.scope === 'project' && !core.project?.id)) return;
    const key = path.resolve(store.dir);
    const projectRoot = event.scope === 'project' ? core.project?.root : undefined;
    written.set(key, { key, scope: event.scope, core, ...(projectRoot ? { projectRoot } : {}) });
  };
  const root: AppRoot = {
    home: path.resolve(options.home),
    env: options.env,
    ...(options.now ? { now: options.now } : {}),
    syncOnOpen: options.syncOnOpen ?? false,
    ...(options.keyStore ? { keyStore: options.keyStore } : {}),
    ...(options.consolidation ? { consolidation: options.consolidation } : {}),
    ...(options.openExternal ? { openExternal: options.openExternal } : {}),
    open: (project = {}) => openProject(root, project),
    sync() {
      if (stopped) return Promise.reject(new Error('the process is shutting down'));
      loading ??= (async () => {
        const { ProcessSync } = await import('./process-sync.js');
        const { owner, ...syncOptions } = options.sync ?? {};
        const trace = options.env.MEMDESK_SYNC_TRACE;
        loaded = new ProcessSync({
          ...syncOptions,
          home: options.home,
          ...(options.emit ? { emit: options.emit } : {}),
          ...(trace ? { traceFile: trace } : {}),
          role: options.sync?.autoStart ? (owner?.role ?? 'app') : 'cli',
        });
        if (options.sync?.autoStart) {
          const { SyncOwnership } = await import('./sync-ownership.js');
          ownership = new SyncOwnership({
            role: 'app',
            ...owner,
            home: options.home,
            clock: await clock(),
            sync: loaded,
            // A project another process wrote in, opened here to sync it: its events go to sync
            // only, never to this process's page.
            openGuest: (projectRoot) =>
              openProject(
                { ...root, emit: (core, event) => core && loaded?.observe(core, event) },
                { projectRoot, cwd: projectRoot, watch: true },
              ),
          });
          ownership.start();
        }
        return loaded;
      })();
      return loading;
    },
    ownership: () => ownership,
    knownPlan: () => loaded?.knownPlan() ?? null,
    emit(core, event) {
      options.emit?.(event);
      if (core) {
        loaded?.observe(core, event);
        if (!options.sync?.autoStart) noteWrite(core, event);
      }
    },
    release: (core) => loaded?.release(core),
    async syncBeforeExit() {
      // A command that ran its own rounds (memdesk sync) has synced what it wrote.
      if (written.size === 0 || loaded !== null) return { outcome: 'none' };
      // Never signed in on this home (no cloud.json, syncPaths().cloudFile): no sync module is
      // loaded at all, so a note command stays as light as before (test/cli/lazy-load.test.ts).
      if (!existsSync(path.join(root.home, 'cloud.json'))) return { outcome: 'none' };
      const { syncWrittenBeforeExit } = await import('./exit-sync.js');
      return syncWrittenBeforeExit({
        home: root.home,
        clock: await clock(),
        written: [...written.values()],
        sync: () => root.sync(),
      });
    },
    async stop() {
      stopped = true;
      await loading;
      await (ownership as SyncOwnership | null)?.stop();
      await loaded?.stop();
    },
  };
  return root;
}
