import path from 'node:path';
import { AppError } from '../../shared/errors.js';
import type { AppEvent } from '../../shared/events.js';
import type { Scope } from '../../shared/note.js';
import type { MemoryCore, NoteStore, BackupStore, UserMemory } from '../memory/types.js';
import { AccountSource } from './account.js';
import { systemClock, type Clock } from './clock.js';
import { SyncCoordinator, type CoordinatorOptions, type RoundResult } from './coordinator.js';
import type { CommitFirstBatch, CommitFirstResult } from '../cleanup/merge-sync-port.js';
import { commitFirst } from './commit-first.js';
import { scopeLabel } from './scope-labels.js';
import { statusPendingUploads, statusState } from './status-snapshot.js';
import { syncPaths, type SyncPaths } from './sync-paths.js';
import { SyncService, type SyncHooks } from './sync-service.js';
import { SyncTargetsStore } from './sync-targets.js';
import { FileTokenStore, type TokenStore } from './token-store.js';
import type { ScopeRef } from './scope-key.js';
import type { ScopeSyncStatus } from '../../shared/api/sync.js';
import { reportedOr } from '../memory/unexpected-error.js';

export interface SyncEngineOptions {
  home: string;
  /** Where tokens live: the CLI's 0600 file by default; the desktop passes a safeStorage one. */
  tokens?: TokenStore;
  /** Where the end-to-end encryption key lives: a 0600 file by default; the desktop uses safeStorage. */
  keys?: TokenStore;
  clock?: Clock;
  fetch?: typeof fetch;
  hooks?: SyncHooks;
  emit?: (event: AppEvent) => void;
  scheduling?: Omit<CoordinatorOptions, 'clock' | 'onRound'>;
  /**
   * Tests only: the scrypt cost of keyrings this engine's process makes (`encryption on`,
   * change-passphrase), recorded in the keyring so every device unlocks it at that cost. No
   * production composition passes it (test/sync-crypto/kdf-cost.test.ts checks they do not);
   * unset, keyrings get kdf.ts DEFAULT_SCRYPT.
   */
  kdfCostForTests?: { logN: number };
}

/**
 * The process's sync engine: one coordinator, one service per note directory (shared by every
 * open project, so user notes sync once), the toggle, the account, and status for the page.
 */
/** One registration of a note directory (a core's store of it). */
interface Holder {
  store: NoteStore;
  backups: BackupStore;
  ref: ScopeRef;
}

export class SyncEngine {
  readonly paths: SyncPaths;
  readonly targets: SyncTargetsStore;
  readonly accounts: AccountSource;
  /** This device's end-to-end encryption keys, per origin (crypto/device-key.ts). */
  readonly keys: TokenStore;
  readonly coordinator: SyncCoordinator;
  readonly clock: Clock;
  readonly kdfCostForTests: { logN: number } | null;
  private readonly services = new Map<string, { svc: SyncService; holders: Holder[]; release: () => void }>();
  private readonly hooks: SyncHooks;
  /** To the page's event stream (sync status, `encryption on` progress). */
  readonly emit: (event: AppEvent) => void;

  constructor(opts: SyncEngineOptions) {
    this.paths = syncPaths(path.resolve(opts.home));
    this.clock = opts.clock ?? systemClock;
    this.kdfCostForTests = opts.kdfCostForTests ?? null;
    this.targets = new SyncTargetsStore(this.paths.pluginsFile);
    this.keys = opts.keys ?? new FileTokenStore(this.paths.keyFile);
    this.accounts = new AccountSource(this.paths, opts.tokens ?? new FileTokenStore(this.paths.tokenFile), {
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
      now: () => this.clock.now(),
      keys: this.keys,
    });
    this.hooks = opts.hooks ?? {};
    this.emit = opts.emit ?? (() => {});
    this.coordinator = new SyncCoordinator({
      clock: this.clock,
      ...opts.scheduling,
      onRound: (key, result) => this.afterRound(key, result),
    });
  }

  private afterRound(key: string, result: RoundResult | { outcome: 'error'; error: unknown }): void {
    const entry = this.services.get(key);
    if (!entry) return;
    if (result.outcome === 'error') entry.svc.failed(result.error);
    for (const { svc } of this.services.values()) svc.pausedUntil = this.coordinator.pausedUntil;
    this.emit({ type: 'sync.status', scope: entry.svc.scope });
  }

  /**
   * Registers a note directory; the same directory registered twice shares one service. Each
   * registration holds its own store (a project switch opens a new core — and new stores — on the
   * same directories before the old core closes): when the holder whose store the service uses
   * detaches while others remain, the service is rebuilt on a remaining holder's store, so it never
   * keeps a closed store. Its state is on disk (baselines), so nothing is lost by the rebuild.
   */
  attach(
    store: NoteStore,
    backups: BackupStore,
    ref: ScopeRef,
  ): { service: SyncService; detach: () => void } {
    const key = path.resolve(store.dir);
    const holder: Holder = { store, backups, ref };
    let entry = this.services.get(key);
    if (entry) entry.holders.push(holder);
    else {
      entry = { ...this.createService(key, holder), holders: [holder] };
      this.services.set(key, entry);
    }
    const service = entry.svc;
    if (ref.scope === 'project') this.coordinator.markInUse(key);
    let detached = false;
    return {
      service,
      detach: () => {
        if (detached) return;
        detached = true;
        const e = this.services.get(key);
        if (!e) return;
        e.holders = e.holders.filter((h) => h !== holder);
        const next = e.holders[0];
        if (!next) {
          e.release();
          e.svc.close();
          this.services.delete(key);
        } else if (e.svc.store === holder.store) {
          e.release();
          e.svc.close();
          Object.assign(e, this.createService(key, next));
        }
      },
    };
  }

  private createService(
    key: string,
    { store, backups, ref }: Holder,
  ): { svc: SyncService; release: () => void } {
    const svc = new SyncService({
      store,
      backups,
      ref,
      baselinesDir: this.paths.baselinesDir,
      accounts: this.accounts,
      targets: this.targets,
      now: () => this.clock.now(),
      hooks: this.hooks,
    });
    svc.watchLocalWrites(() => this.coordinator.localWrite(key));
    const release = this.coordinator.add(svc);
    return { svc, release };
  }

  attachUser(user: UserMemory): { service: SyncService; detach: () => void } | null {
    if (!user.store) return null;
    return this.attach(user.store, user.backups, { scope: 'user' });
  }

  /** The project's directory syncs only once the project is registered (it has an id). */
  attachProject(core: MemoryCore): { service: SyncService; detach: () => void } | null {
    const store = core.store('project');
    if (!store || !core.project?.id) return null;
    return this.attach(store, core.user.backups, {
      scope: 'project',
      projectId: core.project.id,
      projectRoot: core.project.root,
    });
  }

  /** The services of a core: its project directory (if registered) and the user directory. */
  servicesOf(core: MemoryCore | UserMemory): SyncService[] {
    const out: SyncService[] = [];
    const stores: Array<NoteStore | null> =
      'store' in core && typeof core.store === 'function'
        ? [(core as MemoryCore).store('project'), (core as MemoryCore).user.store]
        : [(core as UserMemory).store];
    for (const store of stores) {
      if (!store) continue;
      const svc = this.services.get(path.resolve(store.dir))?.svc;
      if (svc) out.push(svc);
    }
    return out;
  }

  all(): SyncService[] {
    return [...this.services.values()].map((e) => e.svc);
  }

  /** The project is in use (a message sent in it, the Memory page open): check it for 30 more minutes. */
  markInUse(core: MemoryCore): void {
    for (const svc of this.servicesOf(core)) if (svc.scope === 'project') this.coordinator.markInUse(svc.key);
  }

  /** Starts scheduling rounds on the clock (the app and the web bridge; the CLI never does). */
  start(): void {
    this.coordinator.start();
  }

  /** 立即同步: one round now for the given services (all by default). */
  async syncNow(services: SyncService[] = this.all()): Promise<Map<SyncService, RoundResult>> {
    const results = await this.coordinator.syncNow(services.map((s) => s.key));
    const out = new Map<SyncService, RoundResult>();
    for (const svc of services) out.set(svc, results.get(svc.key) ?? { outcome: 'blocked' });
    return out;
  }

  /**
   * 关闭云同步 / turning it on again, for the given scopes (the page passes both). Off is persisted
   * first, then every request in flight is aborted; nothing in the cloud is deleted.
   */
  async setEnabled(services: SyncService[], enabled: boolean): Promise<void> {
    await this.targets.setEnabled(
      services.map((s) => s.keyHash),
      enabled,
    );
    if (!enabled) {
      for (const svc of services) svc.clearForOff();
      this.coordinator.abortAll();
    } else {
      for (const svc of services) this.coordinator.localWrite(svc.key);
    }
    for (const svc of services) this.emit({ type: 'sync.status', scope: svc.scope });
  }

  async login(url: string, token: string): Promise<{ origin: string }> {
    const result = await this.accounts.login(url, token);
    for (const svc of this.all()) svc.clearError();
    for (const svc of this.all()) this.coordinator.localWrite(svc.key);
    return result;
  }

  async logout(): Promise<void> {
    this.coordinator.abortAll();
    await this.accounts.logout();
  }

  async status(svc: SyncService): Promise<ScopeSyncStatus> {
    const target = await this.targets.get(svc.keyHash).catch(reportedOr(null, 'sync status: target'));
    const state = await statusState(svc);
    const conflicts = await svc.conflicts();
    const signedIn = (await this.accounts.current().catch(reportedOr(null, 'sync status: account'))) !== null;
    const limits = svc.limits;
    const now = this.clock.now();
    const pausedUntil =
      this.coordinator.pausedUntil !== null && this.coordinator.pausedUntil > now
        ? this.coordinator.pausedUntil
        : null;
    const report = svc.reportOf(state);
    const notices = report.notices;
    const enabled = await svc.enabled().catch(reportedOr(target?.enabled ?? true, 'sync status: enabled'));
    // Switched off: no question waits (the next round, once on again, asks afresh).
    const pending = enabled ? report.pendingDeletes : null;
    let error = svc.error;
    if (pausedUntil !== null && (!error || error.code !== 'rate_limited')) {
      error = {
        code: 'rate_limited',
        message: `${scopeLabel(svc.scope)}: sync ran too often and will retry`,
        scope: svc.scope,
      };
    }
    return {
      scope: svc.scope,
      label: scopeLabel(svc.scope),
      dir: svc.store.dir,
      enabled,
      signedIn,
      boundTo: target?.userId && target.origin ? { userId: target.userId, origin: target.origin } : null,
      lastSyncedAt: state.lastSyncedAt,
      lastPull: state.lastPull,
      error,
      pausedUntil,
      plan: limits
        ? {
            name: limits.plan,
            notesPerScope: limits.planLimits.notesPerScope,
            noteBytes: limits.planLimits.noteBytes,
          }
        : null,
      notices,
      localOnly: report.localOnly,
      // Live: fixing the file shows at once (and the next round syncs it).
      held: svc.store.held(),
      conflicts: conflicts.map((c) => ({
        id: c.id,
        kind: c.kind,
        message: c.message,
        detectedAt: c.detectedAt,
      })),
      pendingDeletes: pending
        ? {
            count: pending.ids.length + pending.localIds.length,
            total: pending.total,
            here: pending.localIds.length,
          }
        : null,
      pendingUploads: statusPendingUploads(svc, state, [
        ...conflicts.map((c) => c.id),
        ...report.localOnly.map((n) => n.id),
      ]),
      roundTotals: svc.roundTotals,
    };
  }

  /** The strict "commit first" path for cleanup merges (issue 7). */
  commitFirst(svc: SyncService, batch: CommitFirstBatch): Promise<CommitFirstResult> {
    return commitFirst(this, svc, batch);
  }

  serviceForScope(core: MemoryCore, scope: Scope): SyncService {
    const svc = this.servicesOf(core).find((s) => s.scope === scope);
    if (!svc) {
      throw new AppError(
        'unavailable',
        scope === 'project'
          ? 'project notes do not sync until the project is registered (memdesk project init)'
          : 'your own notes are unavailable (the home directory cannot be used)',
      );
    }
    return svc;
  }

  stop(): void {
    this.coordinator.stop();
    for (const { svc } of this.services.values()) svc.close();
  }
}
