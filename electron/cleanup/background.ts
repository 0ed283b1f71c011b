import type { MemoryCore } from '../memory/types.js';
import type { CleanupService } from './cleanup-service.js';
import { Consolidator, type ConsolidatorOptions } from './consolidation.js';

/** What a process wires in for 待整理 (`ctx.cleanup`): its service, built by the composition root. */
export interface CleanupDeps {
  service(): Promise<CleanupService>;
}

/** The part of the handler context that 待整理 fills in (structural: cleanup never imports api). */
export interface CleanupHost {
  core: MemoryCore;
  cleanup: CleanupDeps;
}

/**
 * What a process passes on to its project's consolidator: the plan as the sync server last said it
 * (AppSync.knownPlan), and for tests timers, a clock (default: the core's) and a listener per round.
 */
export type ProjectCleanupOptions = Pick<ConsolidatorOptions, 'lastKnownPlan' | 'timers' | 'onRound'> &
  Partial<Pick<ConsolidatorOptions, 'now'>>;

export interface ProjectCleanup {
  service: CleanupService;
  consolidator: Consolidator;
  /** Stops the consolidator and waits for a round in progress (quit, project switch, bridge closed). */
  stop(): Promise<void>;
}

/**
 * 待整理 for one open project in a long-running process (the desktop app, the web bridge): one
 * CleanupService shared by the page's handlers (`ctx.cleanup.service`, built by the composition
 * root, which also closes it) and background consolidation, so both take the same path
 * (commitFirst with sync on).
 */
export async function startProjectCleanup(
  ctx: CleanupHost,
  opts: ProjectCleanupOptions,
): Promise<ProjectCleanup> {
  const core = ctx.core;
  const service = await ctx.cleanup.service();
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
    },
  };
}
