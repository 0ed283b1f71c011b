import type { ProjectCleanup } from '../cleanup/background.js';
import type { MergeSync } from '../cleanup/merge-sync-port.js';
import { createMemoryCore } from '../memory/core.js';
import { createNotesService } from '../memory/notes-service.js';
import type { CoreOptions, MemoryCore } from '../memory/types.js';
import type { HandlerContext } from '../api/context.js';
import type { ApiHandlers } from '../api/dispatch.js';
import { createHandlers } from '../api/handlers.js';
import type { AppEvent } from '../../shared/events.js';
import type { ProjectCleanupOptions } from '../cleanup/background.js';
import type { KnownPlan } from '../cleanup/consolidation.js';
import type { KeyStore } from '../cleanup/model/key-store.js';
import { createAgentsServices } from './agents-services.js';
import type { ProcessSync } from './process-sync.js';
import { createLazyCleanup } from './cleanup-services.js';

/** What a project is built from: the process's services (the composition root, app-root.ts). */
export interface ProcessServices {
  /** OHARNESS_HOME. */
  readonly home: string;
  /** Config overrides are read from here only (the web bridge passes its own, never the real one). */
  readonly env: Record<string, string | undefined>;
  readonly now?: () => number;
  /**
   * Attach every core to the sync engine as it opens (long-running processes); otherwise the
   * engine is built on the first sync call (a CLI command that never syncs never loads it).
   */
  readonly syncOnOpen: boolean;
  /** 待整理's model key: safeStorage in the desktop app; the 0600 file under OHARNESS_HOME by default. */
  readonly keyStore?: KeyStore;
  /** Background consolidation for each open project (long-running processes); off when absent. */
  readonly consolidation?: Pick<ProjectCleanupOptions, 'timers' | 'now' | 'onRound'>;
  /** Shows a sync sign-in page in the system browser (HandlerContext.openExternal). */
  readonly openExternal?: (url: string) => Promise<void> | void;
  /** The process's sync engine, built (and its module loaded) on the first call. */
  sync(): Promise<ProcessSync>;
  /** The plan the sync server last announced, or null (also while no engine was built). */
  knownPlan(): KnownPlan;
  /** Passes a core's event to the process (its sink, then sync's "in use" tracking). */
  emit(core: MemoryCore | null, event: AppEvent): void;
  /** Before a core closes: its sync attachments go (nothing to do while no engine was built). */
  release(core: MemoryCore): void;
}

/** The core's options a project is opened with (CoreOptions), and the directory the process works in. */
export interface ProjectOptions extends Pick<
  CoreOptions,
  'projectRoot' | 'watch' | 'syncFirstLoad' | 'analyzerBuild' | 'lockTimeoutMs'
> {
  /** The directory the process works in (defaults to the project, else process.cwd()). */
  cwd?: string;
}

/** One open project: its handler context, handler table and background work, closed together. */
export interface OpenProject {
  ctx: HandlerContext;
  handlers: ApiHandlers;
  /** Background consolidation (null unless the root runs it). */
  cleanup: ProjectCleanup | null;
  /** Stops consolidation, releases the core's sync attachments, closes the core. */
  close(): Promise<void>;
}

/**
 * Builds one project's object graph from the process's services: the memory core, its notes
 * service, its link to the process's sync engine, 待整理's dependencies (and background
 * consolidation when the root runs it), and the handler table over all of them.
 */
export async function openProject(root: ProcessServices, opts: ProjectOptions): Promise<OpenProject> {
  const { home, env, now, syncOnOpen, keyStore, consolidation } = root;
  // Events can arrive while the core is still opening: the core is known once it is open.
  const opened: { core: MemoryCore | null } = { core: null };
  const core = await createMemoryCore({
    home,
    env,
    emit: (event) => root.emit(opened.core, event),
    ...(opts.projectRoot !== undefined ? { projectRoot: opts.projectRoot } : {}),
    ...(now ? { now } : {}),
    ...(opts.watch ? { watch: true } : {}),
    ...(opts.syncFirstLoad ? { syncFirstLoad: true } : {}),
    ...(opts.analyzerBuild ? { analyzerBuild: opts.analyzerBuild } : {}),
    ...(opts.lockTimeoutMs !== undefined ? { lockTimeoutMs: opts.lockTimeoutMs } : {}),
  });
  opened.core = core;
  const mergeSync: MergeSync = {
    enabled: async (scope) => (await root.sync()).mergeSync(core).enabled(scope),
    commitFirst: async (scope, batch) => (await root.sync()).mergeSync(core).commitFirst(scope, batch),
  };
  const lazyCleanup = createLazyCleanup(core, { keyStore, sync: mergeSync, analysisWorker: !!consolidation });
  const ctx: HandlerContext = {
    core,
    notes: createNotesService(core),
    cwd: opts.cwd ?? opts.projectRoot ?? process.cwd(),
    env,
    sync: {
      engine: async () => (await root.sync()).attach(core),
      roundNow: async (services, deletes) => (await root.sync()).roundNow(services, deletes),
      holdRounds: async (change) => (await root.sync()).holdRounds(change),
    },
    cleanup: lazyCleanup,
    agents: createAgentsServices(core, env, keyStore),
    ...(root.openExternal ? { openExternal: root.openExternal } : {}),
  };
  let cleanup: ProjectCleanup | null = null;
  try {
    if (syncOnOpen) (await root.sync()).attach(core);
    if (consolidation) {
      const { startProjectCleanup } = await import('../cleanup/background.js');
      cleanup = await startProjectCleanup(ctx, {
        lastKnownPlan: () => root.knownPlan(),
        ...consolidation,
      });
    }
  } catch (err) {
    await release();
    throw err;
  }
  async function release(): Promise<void> {
    try {
      await cleanup?.stop();
      await lazyCleanup.close();
    } finally {
      root.release(core);
      await core.close();
    }
  }
  return { ctx, handlers: createHandlers(ctx), cleanup, close: release };
}
