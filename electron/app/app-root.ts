import path from 'node:path';
import type { AppEvent } from '../../shared/events.js';
import { setUnexpectedErrorLog } from '../memory/unexpected-error.js';
import { openProject, type OpenProject, type ProcessServices, type ProjectOptions } from './open-project.js';
import type { ProcessSync, ProcessSyncOptions } from './process-sync.js';

export interface AppRootOptions extends Pick<
  ProcessServices,
  'home' | 'env' | 'now' | 'keyStore' | 'consolidation' | 'openExternal'
> {
  /** Every event of every core the process opens (the window, the page's event stream). */
  emit?: (event: AppEvent) => void;
  /** The process's sync engine: scheduling (autoStart), where tokens live, fetch, clock. */
  sync?: Omit<ProcessSyncOptions, 'home' | 'emit'>;
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
  /** Stops the sync engine (requests aborted, running rounds finish their atomic writes). */
  stop(): Promise<void>;
}

export function createAppRoot(options: AppRootOptions): AppRoot {
  let loading: Promise<ProcessSync> | undefined;
  let loaded: ProcessSync | null = null;
  let stopped = false;
  // One log per home for errors the process carried on after (memdesk info shows their count).
  setUnexpectedErrorLog(path.join(path.resolve(options.home), 'logs', 'unexpected-errors.log'));
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
      loading ??= import('./process-sync.js').then(({ ProcessSync }) => {
        loaded = new ProcessSync({
          ...options.sync,
          home: options.home,
          ...(options.emit ? { emit: options.emit } : {}),
        });
        return loaded;
      });
      return loading;
    },
    knownPlan: () => loaded?.knownPlan() ?? null,
    emit(core, event) {
      options.emit?.(event);
      if (core) loaded?.observe(core, event);
    },
    release: (core) => loaded?.release(core),
    async stop() {
      stopped = true;
      await loading;
      await loaded?.stop();
    },
  };
  return root;
}
