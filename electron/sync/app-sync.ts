import type { AppEvent } from '../../shared/events.js';
import type { MemoryCore } from '../memory/types.js';
import {
  configureProcessSyncEngine,
  releaseCoreSync,
  stopProcessSyncEngine,
  syncEngineFor,
} from './process-engine.js';
import type { SyncEngine } from './sync-engine.js';
import type { TokenStore } from './token-store.js';

/**
 * The sync lifecycle of a long-running process (the desktop app, the web bridge): the process's
 * one coordinator started with the process, every core it opens attached, project activity turned
 * into "in use" (30 more minutes of polling), and a clean stop (requests in flight aborted, running
 * rounds allowed to finish their atomic writes). Plain Node: electron/main and the bridge share it.
 */
export interface AppSync {
  readonly engine: SyncEngine;
  /** Attach a core the process opened (the desktop opens another project): its directories sync. */
  attach(core: MemoryCore): void;
  /** Before closing a core (project switch, bridge closed): its directories' attachments go. */
  release(core: MemoryCore): void;
  /**
   * What the sync server's last answer said about the plan: 'paid' if the account or one of its
   * teams has a paid plan (the server resolves teams), 'free', or null when unknown.
   */
  knownPlan(): 'paid' | 'free' | null;
  /** Pass every app event through: a note written in a project counts as using it. */
  observe(core: MemoryCore, event: AppEvent): void;
  /** Stop on quit: abort requests in flight, wait for running rounds, stop the timers. */
  stop(): Promise<void>;
}

export interface AppSyncOptions {
  home: string;
  emit: (event: AppEvent) => void;
  tokens?: TokenStore;
  /** The end-to-end encryption keys (the desktop: safeStorage). */
  keys?: TokenStore;
  fetch?: typeof fetch;
  /** False keeps the coordinator idle until syncNow (tests that drive every round themselves). */
  autoStart?: boolean;
}

export function startAppSync(opts: AppSyncOptions): AppSync {
  const engine = configureProcessSyncEngine(opts.home, {
    emit: opts.emit,
    autoStart: opts.autoStart ?? true,
    ...(opts.tokens ? { tokens: opts.tokens } : {}),
    ...(opts.keys ? { keys: opts.keys } : {}),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  let stopped = false;
  return {
    engine,
    attach(core) {
      if (stopped) return;
      syncEngineFor(core);
      if (opts.autoStart ?? true) engine.start();
    },
    release(core) {
      releaseCoreSync(core);
    },
    knownPlan: () => knownPlan(engine),
    observe(core, event) {
      if (stopped) return;
      if (event.type === 'notes.changed' && event.scope === 'project') engine.markInUse(core);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopProcessSyncEngine(opts.home);
    },
  };
}

/** 'paid' when any scope's last server answer said paid; 'free' when one said free; else null. */
export function knownPlan(engine: SyncEngine): 'paid' | 'free' | null {
  const plans = engine.all().map((svc) => svc.limits?.plan ?? null);
  return plans.includes('paid') ? 'paid' : plans.includes('free') ? 'free' : null;
}
