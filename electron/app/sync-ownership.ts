import { mkdirSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { BaselineLocation } from '../sync/baseline-location.js';
import type { Clock } from '../sync/clock.js';
import { changedSince, knownProjects } from '../sync/owner/known-projects.js';
import { appOnlySignInMessage, appSignIn, markAppSignIn } from '../sync/owner/app-sign-in.js';
import { askHandover, clearHandover, handoverWaiting } from '../sync/owner/handover.js';
import { OwnerLock, type OwnerRole } from '../sync/owner/owner-lock.js';
import { ownerPaths } from '../sync/owner/paths.js';
import { dropUnreadAnswers, takeAsks, writeAnswer, type RoundAsk } from '../sync/owner/ask-round.js';
import { takeRequests, type SyncDirectory } from '../sync/owner/requests.js';
import { syncHolder } from '../sync/owner/sync-hold.js';
import { roundsHere } from '../sync/round-report.js';
import type { SyncService } from '../sync/sync-service.js';
import { runBounded, EXIT_ROUND_BOUND_MS } from './exit-round.js';
import type { OpenProject } from './open-project.js';
import type { ProcessSync } from './process-sync.js';
import { onUnexpectedError, reportedOr, unlessMissing } from '../memory/unexpected-error.js';

export interface OwnershipOptions {
  role: OwnerRole;
  /** How often the owner renews its heartbeat and a standby looks at the lock (default 2 s). */
  heartbeatMs?: number;
  /** A heartbeat older than this is stale (default 3 heartbeats). */
  staleMs?: number;
  /**
   * Where a process without a window tells the person why its sync waits (`memdesk mcp`: its
   * stderr, the MCP client's log). Said once per ownership.
   */
  say?: (line: string) => void;
  /** How often the owner looks over every project the home knows for edits nobody saw (default 5 min). */
  sweepMs?: number;
}

export interface SyncOwnershipDeps extends OwnershipOptions {
  home: string;
  clock: Clock;
  sync: ProcessSync;
  /** Opens a project a nudge names that this process has not open, for sync only (no page events). */
  openGuest(projectRoot: string): Promise<OpenProject>;
  /** A guest project is closed this long after its last nudge (the scheduler's in-use window). */
  guestMs?: number;
}

/**
 * One long-running process's part in "one sync owner per home" (docs/architecture.md): every
 * heartbeat it either renews the owner lock it holds or tries to take it (free, or stale: its
 * owner exited or was killed). While it owns sync, its coordinator schedules rounds and it serves
 * the nudges other processes leave (watching the requests directory, and reading it every
 * heartbeat in case a watch event is missed), opening a nudging process's project when it has
 * not got it open. While it does not, its local writes become nudges (ProcessSync.passOn).
 */
export class SyncOwnership {
  /** Heartbeats so far (tests count how many a takeover needs). */
  ticks = 0;
  private readonly lock: OwnerLock;
  private readonly paths: ReturnType<typeof ownerPaths>;
  private readonly heartbeatMs: number;
  private timer: unknown = null;
  private watchers: FSWatcher[] = [];
  private stopped = false;
  private readonly guests = new Map<string, { project: Promise<OpenProject>; lastNudge: number }>();
  /** Watches on the notes directories of known projects no core of this process has open. */
  private readonly known = new Map<string, FSWatcher>();
  private readonly knownLocations = new Map<string, BaselineLocation | null>();
  private sweptAt: number | null = null;
  /** This ownership's sign-in check is done (or running). */
  private signInChecked = false;
  private appMarking = false;

  constructor(private readonly deps: SyncOwnershipDeps) {
    this.paths = ownerPaths(deps.home);
    this.heartbeatMs = deps.heartbeatMs ?? 2_000;
    this.lock = new OwnerLock(this.paths.lockFile, {
      clock: deps.clock,
      role: deps.role,
      staleMs: deps.staleMs ?? 3 * this.heartbeatMs,
    });
  }

  get owner(): boolean {
    return this.deps.sync.owner;
  }

  /** The first heartbeat now, the next ones on the clock. */
  start(): void {
    this.tick();
  }

  private tick(): void {
    this.timer = null;
    if (this.stopped) return;
    this.ticks++;
    const owns = this.heartbeat();
    // An encryption change in another process holds the home's sync: no automatic round meanwhile.
    const holder = owns ? syncHolder(this.deps.home, this.deps.clock) : null;
    this.deps.sync.setPaused(holder !== null && holder.pid !== process.pid);
    if (owns !== this.deps.sync.owner) this.deps.sync.setOwner(owns);
    if (this.deps.role === 'app') this.markAppSignIn();
    else if (owns && !this.signInChecked) {
      this.signInChecked = true;
      void this.sayWhySyncWaits();
    } else if (!owns) this.signInChecked = false;
    if (owns && this.watchers.length === 0) this.watchRequests();
    if (!owns) this.unwatch();
    if (owns) {
      this.serveRequests();
      this.closeIdleGuests();
      dropUnreadAnswers(this.deps.home);
      const now = this.deps.clock.now();
      if (this.sweptAt === null || now - this.sweptAt >= (this.deps.sweepMs ?? 5 * 60_000)) {
        this.sweptAt = now;
        void this.coverKnownProjects().catch(reportedOr(undefined, 'sync ownership: known projects'));
      }
    }
    this.timer = this.deps.clock.setTimeout(() => this.tick(), this.heartbeatMs);
  }

  /**
   * Renews or tries the lock, with the desktop app's priority (handover.ts): the app asks a
   * running owner to hand over; an owner asked hands over; nobody else takes the lock while a
   * live app waits for it.
   */
  private heartbeat(): boolean {
    const { handoverFile } = this.paths;
    if (this.deps.role === 'app') {
      const current = this.lock.held ? null : this.lock.owner();
      if (current && current.role !== 'app') askHandover(handoverFile);
      const owns = this.lock.tryAcquire();
      if (owns) clearHandover(handoverFile);
      return owns;
    }
    if (handoverWaiting(handoverFile) !== null) {
      if (this.lock.held) this.handOver();
      return false;
    }
    return this.lock.tryAcquire();
  }

  /** The app: tells the home's other processes whether it holds a sign-in (app-sign-in.ts). */
  private markAppSignIn(): void {
    if (this.appMarking) return;
    this.appMarking = true;
    const { accounts } = this.deps.sync.engine;
    void (async () => {
      const origin = await accounts.origin();
      const token = origin ? await accounts.tokens.get(origin) : null;
      if (!this.stopped) markAppSignIn(this.deps.home, token ? origin : null);
    })()
      .catch(reportedOr(undefined, 'sync ownership: app sign-in marker'))
      .finally(() => (this.appMarking = false));
  }

  /** An owner without a sign-in of its own on a home signed in in the app only says so. */
  private async sayWhySyncWaits(): Promise<void> {
    const { accounts } = this.deps.sync.engine;
    const origin = appSignIn(this.deps.home);
    if (!origin || !this.deps.say) return;
    const own = await accounts.tokens.get(origin).catch(reportedOr(null, 'sync ownership: sign-in'));
    if (!own) this.deps.say(`memdesk: cloud sync waits: ${appOnlySignInMessage(origin)}`);
  }

  /** Stops scheduling, passes writes still in their debounce on as nudges, lets go of the lock. */
  private handOver(): void {
    const { sync } = this.deps;
    const pending = sync.engine.coordinator.pendingWrites();
    sync.setOwner(false);
    this.lock.release();
    for (const key of pending) sync.nudgeOwner(key);
  }

  /** Nudges and asked rounds: watched, and read every heartbeat in case a watch event is lost. */
  private watchRequests(): void {
    for (const dir of [this.paths.requestsDir, this.paths.askedDir]) {
      try {
        mkdirSync(dir, { recursive: true });
        const watcher = watch(dir, () => this.serveRequests());
        // A watch that fails later (directory removed) leaves the heartbeat's reading.
        watcher.on('error', () => this.unwatch());
        this.watchers.push(watcher);
      } catch (err) {
        onUnexpectedError(err, 'sync ownership: watch requests'); // the heartbeat still reads them
      }
    }
  }

  private unwatch(): void {
    for (const watcher of this.watchers.splice(0)) watcher.close();
    for (const watcher of this.known.values()) watcher.close();
    this.known.clear();
    this.knownLocations.clear();
    this.sweptAt = null;
  }

  /**
   * A note edited by hand in a project no process has open still syncs: the owner watches the
   * notes directory of every project the home has synced before (known-projects.ts) and treats a
   * change there like a nudge (opening the project as a guest). On taking ownership, and every
   * sweepMs after, it also compares each directory with its baseline's last save (one stat per
   * note) — edits made while no owner ran, or that a watch missed. Directories a core of this
   * process has open are left to that core's own watcher.
   */
  private async coverKnownProjects(): Promise<void> {
    const { engine } = this.deps.sync;
    const attached = (key: string): boolean => engine.all().some((s) => s.key === key);
    const seen = new Set<string>();
    const known = knownProjects(engine.paths.baselinesDir, this.knownLocations);
    for (const project of known) {
      const key = path.resolve(project.dir);
      seen.add(key);
      const dir: SyncDirectory = { key, scope: 'project', projectRoot: project.root };
      if (!this.known.has(key)) {
        try {
          const watcher = watch(key, () => {
            if (!this.stopped && this.deps.sync.owner && !attached(key)) void this.serve(dir);
          });
          watcher.on('error', () => watcher.close()); // removed: the next sweep looks again
          this.known.set(key, watcher);
        } catch (err) {
          unlessMissing(err, 'sync ownership: watch a known project'); // moved or deleted
        }
      }
    }
    for (const [key, watcher] of this.known)
      if (!seen.has(key)) {
        watcher.close();
        this.known.delete(key);
      }
    for (const project of known) {
      if (this.stopped || !this.deps.sync.owner) return;
      const key = path.resolve(project.dir);
      if (!attached(key) && (await changedSince(key, project.savedAt)))
        void this.serve({ key, scope: 'project', projectRoot: project.root });
    }
  }

  private serveRequests(): void {
    if (this.stopped || !this.deps.sync.owner) return;
    for (const request of takeRequests(this.paths.requestsDir)) void this.serve(request);
    for (const ask of takeAsks(this.deps.home)) void this.answer(ask);
  }

  /** A nudge: the directory's writes reach the cloud after the debounce, as if written here. */
  private async serve(request: SyncDirectory): Promise<void> {
    const svc = await this.open(request);
    if (!svc) return; // cannot be opened here (moved, unreadable): its writer's next nudge retries
    const { coordinator } = this.deps.sync.engine;
    if (request.scope === 'project') coordinator.markInUse(request.key);
    coordinator.localWrite(request.key);
  }

  /**
   * A round a person asked for in another process (立即同步, `memdesk sync`): run here, with the
   * mass-delete answer, and answered with what each directory's round did. Refused — the asker
   * then runs it itself — when a directory cannot be opened here or this process is exiting; and
   * while an encryption change holds the home's sync (the asker then says so).
   */
  private async answer(ask: RoundAsk): Promise<void> {
    const ranBy = process.pid;
    this.deps.sync.trace('ask-taken', { key: ask.id, manual: true });
    let answer;
    try {
      // Its asker says why the round waits (ProcessSync.roundNow) rather than run it.
      if (this.deps.sync.held) throw new Error('an encryption change holds the sync');
      const services: SyncService[] = [];
      for (const dir of ask.dirs) {
        const svc = await this.open(dir);
        if (!svc) throw new Error(`${dir.key} cannot be opened by the sync owner`);
        services.push(svc);
      }
      const reports = await roundsHere(this.deps.sync.engine, services, ask.deletes);
      // Rounds aborted by the exit report nothing true: the asker runs its own.
      if (this.stopped) throw new Error('the sync owner is exiting');
      answer = { id: ask.id, ranBy, reports: Object.fromEntries(reports) };
    } catch (err) {
      answer = { id: ask.id, ranBy, refused: (err as Error).message };
    }
    writeAnswer(this.deps.home, answer);
  }

  /**
   * The service of a directory another process names, opening its project here for sync only
   * when this process has not got it open (a guest, closed after guestMs without a nudge).
   * Null when the project cannot be opened here.
   */
  private async open(dir: SyncDirectory): Promise<SyncService | null> {
    const { engine } = this.deps.sync;
    const find = (): SyncService | null => engine.all().find((s) => s.key === dir.key) ?? null;
    if (dir.scope === 'project' && dir.projectRoot !== undefined) {
      const guest = this.guests.get(dir.projectRoot);
      if (guest) guest.lastNudge = this.deps.clock.now();
      else if (!find()) {
        const project = this.deps.openGuest(dir.projectRoot);
        this.guests.set(dir.projectRoot, { project, lastNudge: this.deps.clock.now() });
        try {
          await project;
        } catch {
          this.guests.delete(dir.projectRoot);
          return null;
        }
      }
      await guest?.project.catch(() => undefined); // a guest still opening
    }
    return find();
  }

  private closeIdleGuests(): void {
    const guestMs = this.deps.guestMs ?? 30 * 60_000;
    const now = this.deps.clock.now();
    for (const [root, guest] of this.guests) {
      if (now - guest.lastNudge <= guestMs) continue;
      this.guests.delete(root);
      void guest.project
        .then((p) => p.close())
        .catch(reportedOr(undefined, 'sync ownership: close guest project'));
    }
  }

  /**
   * The process is exiting: as owner, writes still waiting for their debounce get one bounded
   * round (EXIT_ROUND_BOUND_MS); what it cannot finish is left as nudges for the next owner.
   * Then the lock is released and guest projects are closed.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer !== null) this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
    this.unwatch();
    const { sync } = this.deps;
    if (sync.owner) {
      const pending = sync.engine.coordinator.pendingWrites();
      const done = await runBounded(sync, pending, this.deps.clock, EXIT_ROUND_BOUND_MS);
      for (const key of pending.filter((k) => !done.has(k))) sync.nudgeOwner(key);
      sync.setOwner(false);
    }
    this.lock.release();
    clearHandover(this.paths.handoverFile);
    const guests = [...this.guests.values()];
    this.guests.clear();
    await Promise.all(
      guests.map((g) =>
        g.project.then((p) => p.close()).catch(reportedOr(undefined, 'sync ownership: close guest project')),
      ),
    );
  }
}
