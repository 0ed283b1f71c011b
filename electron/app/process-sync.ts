import path from 'node:path';
import type { AppEvent } from '../../shared/events.js';
import type { MergeSync } from '../cleanup/merge-sync-port.js';
import type { MemoryCore } from '../memory/types.js';
import { mergeSyncFor } from '../sync/commit-first.js';
import { SyncEngine, type SyncEngineOptions } from '../sync/sync-engine.js';

export interface ProcessSyncOptions extends Omit<SyncEngineOptions, 'home' | 'scheduling'> {
  home: string;
  /**
   * Schedule rounds on the clock (the desktop app, the web bridge). False keeps the coordinator
   * idle until syncNow: the CLI, and tests that drive every round themselves.
   */
  autoStart?: boolean;
}

/**
 * The process's one sync engine (one coordinator) for its home, held by the composition root
 * (app-root.ts): every core the process opens attaches its directories to it, so user notes sync
 * once however many projects are open; a core released before it closes (project switch, bridge
 * closed) hands the shared user-notes service to a store that is still open.
 */
export class ProcessSync {
  readonly engine: SyncEngine;
  private readonly attached = new WeakMap<MemoryCore, { project: boolean; detach: Array<() => void> }>();
  private stopped = false;

  constructor(private readonly opts: ProcessSyncOptions) {
    const { autoStart, home, ...rest } = opts;
    this.engine = new SyncEngine({
      ...rest,
      home: path.resolve(home),
      scheduling: { autoStart: autoStart ?? false },
    });
  }

  /** The engine with this core's directories attached (once; the project's when it has its id). */
  attach(core: MemoryCore): SyncEngine {
    let state = this.attached.get(core);
    if (!state) {
      state = { project: false, detach: [] };
      this.attached.set(core, state);
      const user = this.engine.attachUser(core.user);
      if (user) state.detach.push(user.detach);
    }
    // A project registered after the core was opened (project init) joins when it has its id.
    if (!state.project) {
      const project = this.engine.attachProject(core);
      if (project) {
        state.project = true;
        state.detach.push(project.detach);
      }
    }
    if (this.opts.autoStart && !this.stopped) this.engine.start();
    return this.engine;
  }

  /** Before the process closes a core: its directories' attachments go. */
  release(core: MemoryCore): void {
    const state = this.attached.get(core);
    if (!state) return;
    this.attached.delete(core);
    for (const detach of state.detach) detach();
  }

  /** The cleanup merge's link to the engine for this core (commitFirst for the core's scopes). */
  mergeSync(core: MemoryCore): MergeSync {
    return mergeSyncFor(this.attach(core), core);
  }

  /** Every app event passes through: a note written in a project counts as using it. */
  observe(core: MemoryCore, event: AppEvent): void {
    if (this.stopped || !this.opts.autoStart) return;
    if (event.type === 'notes.changed' && event.scope === 'project') this.attach(core).markInUse(core);
  }

  /**
   * What the sync server's last answer said about the plan: 'paid' if the account or one of its
   * teams has a paid plan (the server resolves teams), 'free', or null when unknown.
   */
  knownPlan(): 'paid' | 'free' | null {
    const plans = this.engine.all().map((svc) => svc.limits?.plan ?? null);
    return plans.includes('paid') ? 'paid' : plans.includes('free') ? 'free' : null;
  }

  /**
   * Stops the engine for good (quit, bridge closed, CLI run over): requests in flight are aborted,
   * then running rounds are awaited — they stop at the abort and every write they made is atomic,
   * so nothing is left half-written.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.engine.coordinator.stop();
    await this.engine.coordinator.idle();
    this.engine.stop();
  }
}
