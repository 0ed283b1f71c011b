import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AppEvent } from '../../shared/events.js';
import type { MergeSync } from '../cleanup/merge-sync-port.js';
import { withDirLock } from '../memory/dir-lock.js';
import type { MemoryCore } from '../memory/types.js';
import { mergeSyncFor } from '../sync/commit-first.js';
import type { SyncRoundReport } from '../../shared/api/sync.js';
import { askOwnerForRound } from '../sync/owner/ask-round.js';
import { DeviceLimitsFile } from '../sync/owner/device-limits.js';
import type { OwnerRole } from '../sync/owner/owner-lock.js';
import { ownerPaths } from '../sync/owner/paths.js';
import { heldError, holdLock, HOLD_HEARTBEAT_MS, syncHolder } from '../sync/owner/sync-hold.js';
import { writeRequest, type SyncDirectory } from '../sync/owner/requests.js';
import { roundsHere, type DeletesDecision } from '../sync/round-report.js';
import { SyncEngine, type SyncEngineOptions } from '../sync/sync-engine.js';
import type { SyncService } from '../sync/sync-service.js';

export interface ProcessSyncOptions extends Omit<SyncEngineOptions, 'home' | 'scheduling'> {
  home: string;
  /**
   * A long-running process that may own sync for its home (the desktop app, the web bridge, the
   * MCP server): it schedules rounds on the clock while it owns sync (setOwner), and passes its
   * local writes on to the owner while it does not. False: rounds only when asked (syncNow,
   * runPending) — a CLI run, and tests that drive every round themselves.
   */
  autoStart?: boolean;
  /**
   * Appends one JSON line per round start and end ({pid, event, key, manual}) to this file:
   * diagnostics (MEMDESK_SYNC_TRACE) and the multi-process tests' record of who ran rounds when.
   */
  traceFile?: string;
  /** What kind of process this is (the app, the bridge, `memdesk mcp`, a CLI run): named in a hold. */
  role?: OwnerRole;
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
  /** This process owns sync for its home (electron/app/sync-ownership.ts decides). */
  private owns = false;
  /** Another process holds the home's sync (an encryption change: owner/sync-hold.ts). */
  private paused = false;
  /** This process holds it (holdRounds): no automatic rounds here either. */
  private holding = false;
  /** …and has the home's rounds lock: its rounds run one after another on this chain instead. */
  private roundsHeld = false;
  private heldRounds: Promise<unknown> = Promise.resolve();
  /** The coordinator schedules automatic rounds (owner, and nobody holds the home's sync). */
  private scheduling = false;

  constructor(private readonly opts: ProcessSyncOptions) {
    const { autoStart: _autoStart, traceFile: _traceFile, role: _role, home, ...rest } = opts;
    const paths = ownerPaths(home);
    const trace = (event: string, which: { key: string; manual: boolean }): void => this.trace(event, which);
    this.engine = new SyncEngine({
      ...rest,
      home: path.resolve(home),
      scheduling: {
        autoStart: false,
        limits: new DeviceLimitsFile(paths.limitsFile),
        // One round at a time across the home's processes (owner, manual rounds, CLI exit rounds).
        exclusive: <T>(round: () => Promise<T>, which: { key: string; manual: boolean; signal: AbortSignal }) => {
          const traced = async (): Promise<T> => {
            trace('round-start', which);
            try {
              return await round();
            } finally {
              trace('round-end', which);
            }
          };
          // Holding the home's sync, this process already has the rounds lock: one after another here.
          if (this.roundsHeld) {
            const run = this.heldRounds.catch(() => undefined).then(traced);
            this.heldRounds = run;
            return run;
          }
          return withRoundsLock(paths.roundsDir, traced, which.signal);
        },
        onLocalWrite: (key) => this.passOn(key),
      },
    });
  }

  /**
   * One line of MEMDESK_SYNC_TRACE: round starts and ends, and asked rounds the owner takes
   * (`{event: 'ask-taken', key: askId}`), with this process's pid.
   */
  trace(event: string, { key, manual }: { key: string; manual: boolean }): void {
    if (this.opts.traceFile)
      appendFileSync(this.opts.traceFile, JSON.stringify({ pid: process.pid, event, key, manual }) + '\n');
  }

  /** Whether this process schedules the home's automatic rounds. */
  get owner(): boolean {
    return this.owns;
  }

  /** Ownership taken (rounds start on the clock) or lost (automatic rounds stop at once). */
  setOwner(owns: boolean): void {
    this.owns = owns;
    this.schedule();
  }

  /** Another process holds the home's sync (true) or no longer does: automatic rounds wait meanwhile. */
  setPaused(paused: boolean): void {
    this.paused = paused;
    this.schedule();
  }

  /** The home's sync is held — by this process or another — for an encryption change. */
  get held(): boolean {
    return this.holding || this.paused;
  }

  private schedule(): void {
    const run = this.owns && !this.paused && !this.holding;
    if (this.stopped || run === this.scheduling) return;
    this.scheduling = run;
    if (run) this.engine.start();
    else this.engine.coordinator.suspend();
  }

  /**
   * Runs `change` (an encryption change) holding the home's sync (owner/sync-hold.ts): no other
   * process of the home runs a round until it ends, and this one runs only the rounds it starts.
   * Waits for a round running elsewhere to end first; refused while another process holds it.
   */
  async holdRounds<T>(change: () => Promise<T>): Promise<T> {
    const { clock } = this.engine;
    const lock = holdLock(this.opts.home, clock, this.opts.role ?? 'cli');
    if (this.holding || !lock.tryAcquire()) {
      throw heldError(lock.owner() ?? { pid: process.pid, role: this.opts.role ?? 'cli' });
    }
    const renew = (): void => {
      lock.heartbeat();
      beat = clock.setTimeout(renew, HOLD_HEARTBEAT_MS);
    };
    let beat = clock.setTimeout(renew, HOLD_HEARTBEAT_MS);
    this.holding = true;
    this.schedule(); // an automatic round of this process in flight is aborted: the lock comes free
    try {
      return await withRoundsLock(ownerPaths(this.opts.home).roundsDir, async () => {
        this.roundsHeld = true;
        try {
          return await change();
        } finally {
          await this.heldRounds.catch(() => undefined);
          this.roundsHeld = false;
        }
      });
    } finally {
      clock.clearTimeout(beat);
      lock.release();
      this.holding = false;
      this.schedule();
    }
  }

  /** A local write in a process that does not own sync: the owner is nudged to sync it. */
  private passOn(key: string): void {
    if (this.owns || this.stopped || !this.opts.autoStart) return;
    this.nudgeOwner(key);
  }

  /** Leaves the owner a nudge to sync this directory (it opens the project if it must). */
  nudgeOwner(key: string): void {
    const svc = this.engine.all().find((s) => s.key === key);
    if (!svc) return;
    writeRequest(ownerPaths(this.opts.home).requestsDir, { ...directoryOf(svc), pid: process.pid });
  }

  /**
   * 立即同步 (the page, the web bridge, `memdesk sync`): one round now for each of the services,
   * with the person's mass-delete answer. When another process owns sync the round is asked of it
   * (owner/ask-round.ts) and its answer returned; when there is none, or it dies or does not
   * answer, the round runs here — after any round in progress elsewhere (the rounds lock).
   */
  async roundNow(services: SyncService[], deletes?: DeletesDecision): Promise<Map<string, SyncRoundReport>> {
    this.refuseWhileHeld();
    if (!this.owns) {
      const answered = await askOwnerForRound({
        home: this.opts.home,
        clock: this.engine.clock,
        dirs: services.map(directoryOf),
        ...(deletes ? { deletes } : {}),
      });
      if (answered) return answered;
      this.refuseWhileHeld(); // the owner refused the ask because an encryption change began
    }
    return roundsHere(this.engine, services, deletes);
  }

  /** 立即同步 while an encryption change holds the home's sync: says so (owner/sync-hold.ts). */
  private refuseWhileHeld(): void {
    const holder = syncHolder(this.opts.home, this.engine.clock);
    if (holder) throw heldError(holder);
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
    if (this.scheduling && !this.stopped) this.engine.start();
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
    if (this.stopped || !this.owns) return;
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

/** One round at a time across the home's processes: the lock of memory-sync/owner/rounds/. */
function withRoundsLock<T>(roundsDir: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  mkdirSync(roundsDir, { recursive: true });
  return withDirLock(roundsDir, fn, { timeoutMs: 120_000, staleMs: 15 * 60_000, ...(signal ? { signal } : {}) });
}

/** A service's directory as another process of the home opens it. */
function directoryOf(svc: SyncService): SyncDirectory {
  return {
    key: svc.key,
    scope: svc.scope,
    ...(svc.ref.projectRoot !== undefined ? { projectRoot: svc.ref.projectRoot } : {}),
  };
}
