import type { Clock } from './clock.js';
import type { DeviceLimitsFile } from './owner/device-limits.js';
import { RequestBudget } from './request-budget.js';

/**
 * R-SYNC-SCHED: one coordinator per process schedules every note directory, however many projects
 * are open; each directory has one sync service, so user notes sync once, not once per project.
 *
 *   - a local write syncs ~3 s later; a burst of writes is one round (debounce, capped at 30 s)
 *   - otherwise each directory is checked every minute, thinning to every five while nothing
 *     changes on either side
 *   - user notes are always checked; a project's only while it is in use and 30 minutes after
 *   - about 20 requests a minute per device (RequestBudget; with `limits`, shared by every
 *     process of the home through its device-limits file)
 *   - a 429 pauses every directory until its Retry-After (with `limits`, in every process)
 *   - transient errors retry after 60 s
 *   - sync now (立即同步) always runs at once
 * Time is the injected Clock: tests drive all of this without sleeping.
 */

export type DirectoryKind = 'user' | 'project';

export interface RoundContext {
  /** A person asked for this round (立即同步): no debounce, no pause, no budget wait. */
  manual: boolean;
  /** Aborted when sync is switched off (or the process stops): every request must honour it. */
  signal: AbortSignal;
  /** Call before every HTTP request: waits for the request budget (automatic rounds only). */
  beforeRequest(): Promise<void>;
}

export type RoundResult =
  | { outcome: 'ok'; changed: boolean }
  | { outcome: 'rate_limited'; retryAfterMs: number }
  | { outcome: 'transient' }
  /** Nothing to do until something changes: sync off, signed out, paused, a permanent error. */
  | { outcome: 'blocked' };

export interface ScheduledDirectory {
  /** The note directory (one service per directory). */
  readonly key: string;
  readonly kind: DirectoryKind;
  round(ctx: RoundContext): Promise<RoundResult>;
}

export interface CoordinatorOptions {
  clock: Clock;
  debounceMs?: number;
  maxDebounceMs?: number;
  pollMs?: number;
  maxPollMs?: number;
  inUseMs?: number;
  retryMs?: number;
  requestsPerMinute?: number;
  /**
   * Run rounds on the clock (the app, the web bridge). False for one-shot processes such as the
   * CLI: nothing happens until syncNow() or start().
   */
  autoStart?: boolean;
  /** Called after every round (status pages, events). */
  onRound?: (key: string, result: RoundResult | { outcome: 'error'; error: unknown }) => void;
  /** The device's budget and pause, shared by the home's processes (electron/sync/owner/). */
  limits?: DeviceLimitsFile;
  /** Wraps every round: the home's rounds lock, so rounds of two processes never overlap. */
  exclusive?: <T>(
    round: () => Promise<T>,
    which: { key: string; manual: boolean; signal: AbortSignal },
  ) => Promise<T>;
  /** Every local write, scheduled or not (a process that does not own sync passes it on). */
  onLocalWrite?: (key: string) => void;
}

interface Entry {
  dir: ScheduledDirectory;
  refs: number;
  /** Next regular check; null = not scheduled (a project out of use). */
  pollAt: number;
  interval: number;
  /** A local write asks for a round at this time. */
  debounceAt: number | null;
  firstWriteAt: number | null;
  lastUsedAt: number;
  running: Promise<RoundResult> | null;
  /** The running round was asked for by a person (suspend() leaves it running). */
  manual: boolean;
  rerun: boolean;
  controller: AbortController | null;
}

export class SyncCoordinator {
  readonly clock: Clock;
  readonly budget: RequestBudget;
  private readonly entries = new Map<string, Entry>();
  private timer: unknown = null;
  private timerAt: number | null = null;
  private stopped = false;
  private started: boolean;
  private ownPause: number | null = null;
  readonly debounceMs: number;
  readonly maxDebounceMs: number;
  readonly pollMs: number;
  readonly maxPollMs: number;
  readonly inUseMs: number;
  readonly retryMs: number;
  private readonly onRound: CoordinatorOptions['onRound'];
  private readonly limits: DeviceLimitsFile | undefined;
  private readonly exclusive: NonNullable<CoordinatorOptions['exclusive']>;
  private readonly onLocalWrite: CoordinatorOptions['onLocalWrite'];
  private readonly idleWaiters: Array<() => void> = [];
  private busy = 0;
  private budgetWaiting = 0;
  private readonly settledWaiters: Array<() => void> = [];

  constructor(opts: CoordinatorOptions) {
    this.clock = opts.clock;
    this.debounceMs = opts.debounceMs ?? 3_000;
    this.maxDebounceMs = opts.maxDebounceMs ?? 30_000;
    this.pollMs = opts.pollMs ?? 60_000;
    this.maxPollMs = opts.maxPollMs ?? 5 * 60_000;
    this.inUseMs = opts.inUseMs ?? 30 * 60_000;
    this.retryMs = opts.retryMs ?? 60_000;
    this.limits = opts.limits;
    this.budget = new RequestBudget(this.clock, opts.requestsPerMinute ?? 20, 60_000, this.limits);
    this.onRound = opts.onRound;
    this.exclusive = opts.exclusive ?? ((round) => round());
    this.onLocalWrite = opts.onLocalWrite;
    this.started = opts.autoStart ?? true;
  }

  /** A 429 pauses every directory until this time (every process's, with `limits`). */
  get pausedUntil(): number | null {
    return this.limits ? this.limits.read().pausedUntil : this.ownPause;
  }

  set pausedUntil(until: number | null) {
    if (this.limits) this.limits.update((l) => ({ ...l, pausedUntil: until }));
    else this.ownPause = until;
  }

  /** Starts scheduling rounds on the clock (see autoStart). */
  start(): void {
    this.started = true;
    this.reschedule();
  }

  /**
   * Stops scheduling rounds until start() (this process no longer owns sync): automatic rounds
   * in flight are aborted; directories, debounces and polls are kept for a later start().
   */
  suspend(): void {
    this.started = false;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = null;
    for (const entry of this.entries.values())
      if (!entry.manual) entry.controller?.abort(new Error('another process owns sync now'));
  }

  /** Registers a directory; a second registration of the same directory shares the first. */
  add(dir: ScheduledDirectory): () => void {
    let entry = this.entries.get(dir.key);
    if (entry) {
      entry.refs++;
      if (dir.kind === 'project') this.markInUse(dir.key);
    } else {
      const now = this.clock.now();
      // The first check runs at once (a fresh start catches up with the other devices).
      entry = {
        dir,
        refs: 1,
        pollAt: now,
        interval: this.pollMs,
        debounceAt: null,
        firstWriteAt: null,
        lastUsedAt: now,
        running: null,
        manual: false,
        rerun: false,
        controller: null,
      };
      this.entries.set(dir.key, entry);
    }
    this.reschedule();
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      const e = this.entries.get(dir.key);
      if (!e) return;
      e.refs--;
      if (e.refs <= 0) {
        e.controller?.abort();
        this.entries.delete(dir.key);
        this.reschedule();
      }
    };
  }

  get(key: string): ScheduledDirectory | undefined {
    return this.entries.get(key)?.dir;
  }

  directories(): ScheduledDirectory[] {
    return [...this.entries.values()].map((e) => e.dir);
  }

  /** A local write in the directory: a round ~3 s after the last write of a burst. */
  localWrite(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.onLocalWrite?.(key);
    const now = this.clock.now();
    entry.firstWriteAt ??= now;
    entry.debounceAt = Math.min(now + this.debounceMs, entry.firstWriteAt + this.maxDebounceMs);
    this.reschedule();
  }

  /** The project is in use (a message sent in it, the Memory page open): check it for 30 more minutes. */
  markInUse(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    const now = this.clock.now();
    const wasIdle = !this.isInUse(entry, now);
    entry.lastUsedAt = now;
    if (wasIdle) {
      entry.pollAt = now;
      entry.interval = this.pollMs;
    }
    this.reschedule();
  }

  private isInUse(entry: Entry, now: number): boolean {
    return entry.dir.kind === 'user' || now - entry.lastUsedAt <= this.inUseMs;
  }

  /** When the directory's next automatic round is due, or null when none is scheduled. */
  dueAt(key: string): number | null {
    const entry = this.entries.get(key);
    return entry ? this.dueOf(entry, this.clock.now()) : null;
  }

  private dueOf(entry: Entry, _now: number): number | null {
    let due: number | null = entry.debounceAt;
    // A project is checked only while in use and 30 minutes after: a poll falling later waits for markInUse.
    const pollAllowed = entry.dir.kind === 'user' || entry.pollAt <= entry.lastUsedAt + this.inUseMs;
    if (pollAllowed) due = due === null ? entry.pollAt : Math.min(due, entry.pollAt);
    if (due !== null && this.pausedUntil !== null) due = Math.max(due, this.pausedUntil);
    return due;
  }

  private reschedule(): void {
    if (this.stopped || !this.started) return;
    const now = this.clock.now();
    let earliest: number | null = null;
    for (const entry of this.entries.values()) {
      if (entry.running) continue;
      const due = this.dueOf(entry, now);
      if (due !== null && (earliest === null || due < earliest)) earliest = due;
    }
    if (earliest === this.timerAt) return;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = earliest;
    if (earliest !== null) {
      this.timer = this.clock.setTimeout(
        () => {
          this.timer = null;
          this.timerAt = null;
          void this.tick();
        },
        Math.max(0, earliest - now),
      );
    }
  }

  private async tick(): Promise<void> {
    if (this.stopped || !this.started) return;
    const now = this.clock.now();
    if (this.pausedUntil !== null && this.pausedUntil <= now) this.pausedUntil = null;
    const due = [...this.entries.values()].filter((e) => {
      if (e.running) return false;
      const at = this.dueOf(e, now);
      return at !== null && at <= now;
    });
    // Rounds of different directories run one after another: a steady, small request rate.
    for (const entry of due) await this.run(entry, false);
    this.reschedule();
  }

  private run(entry: Entry, manual: boolean): Promise<RoundResult> {
    // A directory released (project closed) or a coordinator stopped (quit) starts no new round —
    // not even one chained behind an aborted round by 立即同步 — so nothing goes out unaborted.
    if (this.stopped || this.entries.get(entry.dir.key) !== entry)
      return Promise.resolve({ outcome: 'blocked' });
    if (entry.running) {
      if (!manual) {
        entry.rerun = true;
        return entry.running;
      }
      // Sync now during a round: run one more round right after it.
      return entry.running.then(() => this.run(entry, true));
    }
    const controller = new AbortController();
    entry.controller = controller;
    entry.manual = manual;
    entry.debounceAt = null;
    entry.firstWriteAt = null;
    this.busy++;
    const ctx: RoundContext = {
      manual,
      signal: controller.signal,
      beforeRequest: async () => {
        if (!manual) {
          for (let wait = this.budget.delayFor(); wait > 0; wait = this.budget.delayFor()) {
            this.budgetWaiting++;
            this.notifySettled();
            try {
              await sleep(this.clock, wait, controller.signal);
            } finally {
              this.budgetWaiting--;
            }
          }
        }
        controller.signal.throwIfAborted();
        this.budget.record();
      },
    };
    const promise = (async (): Promise<RoundResult> => {
      let result: RoundResult;
      try {
        result = await this.exclusive(() => entry.dir.round(ctx), {
          key: entry.dir.key,
          manual,
          signal: controller.signal,
        });
        this.onRound?.(entry.dir.key, result);
      } catch (error) {
        if (controller.signal.aborted) {
          // Stopped before the round began (waiting for another process's round): nothing ran.
          result = { outcome: 'blocked' };
        } else {
          this.onRound?.(entry.dir.key, { outcome: 'error', error });
          result = { outcome: 'transient' };
        }
      }
      this.after(entry, result);
      return result;
    })();
    entry.running = promise;
    void promise.finally(() => {
      entry.running = null;
      entry.controller = null;
      this.busy--;
      if (entry.rerun && this.entries.has(entry.dir.key)) {
        entry.rerun = false;
        entry.debounceAt = this.clock.now();
      }
      this.reschedule();
      if (this.busy === 0) for (const w of this.idleWaiters.splice(0)) w();
      this.notifySettled();
    });
    return promise;
  }

  private after(entry: Entry, result: RoundResult): void {
    const now = this.clock.now();
    switch (result.outcome) {
      case 'ok':
        entry.interval = result.changed ? this.pollMs : Math.min(entry.interval * 2, this.maxPollMs);
        entry.pollAt = now + entry.interval;
        break;
      case 'rate_limited':
        this.pausedUntil = Math.max(this.pausedUntil ?? 0, now + result.retryAfterMs);
        entry.pollAt = this.pausedUntil;
        break;
      case 'transient':
        entry.pollAt = now + this.retryMs;
        break;
      case 'blocked':
        entry.pollAt = now + entry.interval;
        break;
    }
  }

  /** 立即同步: one round for each directory (or the given ones) at once, in spite of pauses. */
  async syncNow(keys?: readonly string[]): Promise<Map<string, RoundResult>> {
    const results = new Map<string, RoundResult>();
    const entries = keys
      ? keys.map((k) => this.entries.get(k)).filter((e): e is Entry => !!e)
      : [...this.entries.values()];
    for (const entry of entries) results.set(entry.dir.key, await this.run(entry, true));
    return results;
  }

  /**
   * One automatic round now for each of the given directories — a one-shot process's round
   * before it exits — unless a 429 pause or the request budget would
   * make it wait: then nothing runs (the next owner's first check catches up).
   */
  async runPending(keys: readonly string[]): Promise<Map<string, RoundResult>> {
    const results = new Map<string, RoundResult>();
    const now = this.clock.now();
    const paused = this.pausedUntil;
    if ((paused !== null && paused > now) || this.budget.delayFor() > 0) return results;
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (entry) results.set(key, await this.run(entry, false));
    }
    return results;
  }

  /** Directories with local writes waiting for their debounce. */
  pendingWrites(): string[] {
    return [...this.entries.values()].filter((e) => e.debounceAt !== null).map((e) => e.dir.key);
  }

  /** Aborts every round in flight (sync switched off). */
  abortAll(): void {
    for (const entry of this.entries.values())
      entry.controller?.abort(new Error('cloud sync was switched off'));
  }

  /** Resolves when no round is running. */
  idle(): Promise<void> {
    if (this.busy === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Resolves when every running round is either finished or waiting for the request budget (its
   * next step then depends only on the clock). Tests with a fake clock advance time after this.
   */
  settled(): Promise<void> {
    if (this.busy === this.budgetWaiting) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  private notifySettled(): void {
    if (this.busy === this.budgetWaiting) for (const w of this.settledWaiters.splice(0)) w();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.abortAll();
  }
}

function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clock.clearTimeout(handle);
      reject(signal.reason);
    };
    const handle = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
