import type { MemoryCore } from '../memory/types.js';
import { CleanupService } from './cleanup-service.js';
import { Consolidator, type KnownPlan, type RoundReport, type Timers } from './consolidation.js';
import type { MergeSync } from './merge-sync-port.js';
import { FileKeyStore, type KeyStore } from './model/key-store.js';

/** What a process wires in for 待整理 (`ctx.cleanup`); absent fields get their defaults. */
export interface CleanupDeps {
  keyStore?: KeyStore;
  /** null: never sync (a plain local merge). */
  sync?: MergeSync | null;
  service?: CleanupService;
}

/** The part of the handler context that 待整理 fills in (structural: cleanup never imports api). */
export interface CleanupHost {
  core: MemoryCore;
  cleanup?: CleanupDeps;
}

export interface ProjectCleanupOptions {
  /** The sync engine's commitFirst for this core (null: merges stay local). */
  sync: MergeSync | null;
  /** safeStorage in the desktop app; the 0600 file under OHARNESS_HOME by default. */
  keyStore?: KeyStore;
  /** What the sync server's last answer said about the plan (AppSync.knownPlan); null: unknown. */
  lastKnownPlan: () => KnownPlan;
  timers?: Timers;
  now?: () => number;
  onRound?: (report: RoundReport) => void;
}

export interface ProjectCleanup {
  service: CleanupService;
  consolidator: Consolidator;
  /** Stops the consolidator and waits for a round in progress (quit, project switch, bridge closed). */
  stop(): Promise<void>;
}

/**
 * 待整理 for one open project in a long-running process (the desktop app, the web bridge): one
 * CleanupService shared by the page's handlers (`ctx.cleanup.service`) and background
 * consolidation, so both take the same path (commitFirst with sync on). Call before building the
 * handler table from `ctx`.
 */
export async function startProjectCleanup(
  ctx: CleanupHost,
  opts: ProjectCleanupOptions,
): Promise<ProjectCleanup> {
  const core = ctx.core;
  const keyStore = opts.keyStore ?? new FileKeyStore(core.home);
  const service = new CleanupService({ core, keyStore, sync: opts.sync, analysisWorker: true });
  ctx.cleanup = { ...ctx.cleanup, keyStore, service };
  const consolidator = new Consolidator({
    target: service,
    home: core.home,
    stateKey: core.project ? service.scopeKey('project') : 'user',
    settings: () => core.config.consolidate,
    lastKnownPlan: opts.lastKnownPlan,
    now: opts.now ?? core.now,
    ...(opts.timers ? { timers: opts.timers } : {}),
    ...(opts.onRound ? { onRound: opts.onRound } : {}),
  });
  await consolidator.start();
  return {
    service,
    consolidator,
    async stop() {
      consolidator.stop();
      await consolidator.whenIdle();
      await service.close();
    },
  };
}
