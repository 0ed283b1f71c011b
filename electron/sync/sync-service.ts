import { AppError } from '../../shared/errors.js';
import type { Note, NoteContent, Scope } from '../../shared/note.js';
import { noteIdKey } from '../../shared/note-id.js';
import { type SyncEntry, type SyncLimits, type SyncScope } from '../../shared/sync-protocol.js';
import { syncStatusCode, type SyncStatusCode } from '../../shared/sync-status.js';
import type { RoundTotals } from '../../shared/api/sync.js';
import type { BackupStore, NoteStore, StoredNote } from '../memory/types.js';
import type { AccountSource, SyncAccount } from './account.js';
import {
  BaselineStore,
  type BaselineState,
  type ConflictRecord,
  type ScopeReport,
} from './baseline-store.js';
import type { RoundContext, RoundResult, ScheduledDirectory } from './coordinator.js';
import { SyncRequestError, type SyncFailure } from './http-client.js';
import { plainNote } from '../../shared/note-format.js';
import { contentFields, contentOfStored, noteOfId } from './note-content.js';
import { locateBaseline, type BaselineLocation } from './baseline-location.js';
import { runRound } from './round/run.js';
import type {
  PendingDeletes,
  RoundDeps,
  RoundReport,
  RoundTransfer,
  ScopeError,
  SyncHooks,
} from './round/types.js';
import { scopeKeyHash, stableScopeKey, type ScopeRef } from './scope-key.js';
import { scoped } from './scope-labels.js';
import type { SyncTargetsStore } from './sync-targets.js';
import { mergeNote } from './merge/index.js';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { withDirLock } from '../memory/dir-lock.js';

export interface SyncServiceOptions {
  store: NoteStore;
  backups: BackupStore;
  ref: ScopeRef;
  baselinesDir: string;
  accounts: AccountSource;
  targets: SyncTargetsStore;
  now: () => number;
  hooks?: SyncHooks;
}

export type Resolution = { keep: 'local' } | { keep: 'cloud' } | { keep: 'both' } | { merged: NoteContent };

/**
 * The sync service of one note directory (one scope): runs rounds for the coordinator, keeps the
 * scope's status for the page, and resolves conflicts. See docs/sync-engine.md.
 */
export type { ScopeError, SyncHooks } from './round/types.js';

const NO_REPORT: ScopeReport = { notices: [], localOnly: [], pendingDeletes: null };

/** What the page shows of the last rounds; lastSynced / lastPull / conflicts are on disk. */
interface RoundStatus {
  error: ScopeError | null;
  limits: SyncLimits | null;
  /** Notes held back and why, notes that stay here, the fail-safe's question (also saved on disk). */
  report: ScopeReport;
  /** The last round's transfer, for `sync --json` (null unless the last round ran to its end). */
  lastRound: (RoundTransfer & { error: ScopeError | null }) | null;
  lastResult: RoundResult | null;
  /** Every round's transfer added up since this process started (the page's round toast). */
  totals: RoundTotals;
}

/**
 * Failures the page explains in a sentence of ours around the server's reason, with what the
 * scheduler does next: blocked until the person acts, or transient (retried on its own).
 */
const EXPLAINED_FAILURES: Partial<
  Record<
    SyncFailure,
    { outcome: 'blocked' | 'transient'; code: SyncStatusCode; say: (reason: string) => string }
  >
> = {
  account_erased: {
    outcome: 'blocked',
    code: 'account_erased',
    say: () => 'this account was deleted on the sync server; notes on this computer are untouched',
  },
  upgrade_required: {
    outcome: 'blocked',
    code: 'client_too_old',
    say: (reason) => `the sync server needs a newer Memory Desk (${reason}); upgrade this app`,
  },
  protocol_unsupported: {
    outcome: 'blocked',
    code: 'server_too_old',
    say: (reason) => `the sync server is older than this app (${reason}); upgrade the server`,
  },
  storage_unavailable: {
    outcome: 'transient',
    code: 'storage_unavailable',
    say: (reason) =>
      `the sync server's storage is unavailable or not configured (${reason}); notes keep working on this computer`,
  },
};

const NO_ROUNDS: RoundTotals = { rounds: 0, added: 0, changed: 0, deleted: 0, pushed: 0, conflicts: 0 };

export class SyncService implements ScheduledDirectory, RoundDeps {
  readonly key: string;
  readonly kind: Scope;
  readonly scope: Scope;
  readonly ref: ScopeRef;
  readonly keyHash: string;
  readonly stableKey: string;
  readonly store: NoteStore;
  readonly backups: BackupStore;
  readonly baselines: BaselineStore;
  readonly accounts: AccountSource;
  readonly targets: SyncTargetsStore;
  readonly now: () => number;
  /** Which checkout of the project this is (null: user notes); recorded with the baseline. */
  readonly location: BaselineLocation | null;
  hooks: SyncHooks;

  /** Set by the engine: the 429 pause that applies to every directory. */
  pausedUntil: number | null = null;
  /** One-shot answer to the fail-safe question for the next round that gets to plan. */
  private deleteDecision: 'delete' | 'keep' | null = null;
  /** Written in one place only: record(). */
  private status: RoundStatus = {
    error: null,
    limits: null,
    report: NO_REPORT,
    lastRound: null,
    lastResult: null,
    totals: NO_ROUNDS,
  };
  /** Hashes this process wrote, so the store's change events of our own writes are not "local edits". */
  readonly selfWrites = new Map<string, string | null>();
  private unsubscribe: (() => void) | null = null;

  constructor(opts: SyncServiceOptions) {
    this.store = opts.store;
    this.key = path.resolve(opts.store.dir);
    this.kind = opts.store.scope;
    this.scope = opts.store.scope;
    this.ref = opts.ref;
    this.stableKey = stableScopeKey(opts.ref);
    this.keyHash = scopeKeyHash(opts.ref);
    this.backups = opts.backups;
    // Keyed by the project id, following the folder when it moves; two clones of one repository
    // share the id (one cloud scope) but each keeps its own baseline (baseline-location.ts).
    this.location =
      this.scope === 'project' && opts.ref.projectRoot
        ? { root: path.resolve(opts.ref.projectRoot), dir: this.key }
        : null;
    this.baselines = new BaselineStore(
      locateBaseline(opts.baselinesDir, this.keyHash, this.location, opts.ref.projectId ?? null),
      this.stableKey,
    );
    this.accounts = opts.accounts;
    this.targets = opts.targets;
    this.now = opts.now;
    this.hooks = opts.hooks ?? {};
  }

  get protocolScope(): SyncScope {
    return this.ref.scope === 'user' ? { kind: 'user' } : { kind: 'project', projectId: this.ref.projectId! };
  }

  /** Calls `onLocalWrite` for every change in the directory that this service did not write itself. */
  watchLocalWrites(onLocalWrite: () => void): void {
    this.unsubscribe?.();
    this.unsubscribe = this.store.onChange((change) => {
      const ids = [...change.changed, ...change.removed];
      const foreign = ids.some((id) => {
        if (!this.selfWrites.has(id)) return true;
        const expected = this.selfWrites.get(id);
        const current = this.store.get(id)?.hash ?? null;
        if (current === expected) {
          this.selfWrites.delete(id);
          return false;
        }
        return true;
      });
      if (foreign) onLocalWrite();
    });
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  get error(): ScopeError | null {
    return this.status.error;
  }
  get limits(): SyncLimits | null {
    return this.status.limits;
  }
  get notices(): string[] {
    return this.status.report.notices;
  }
  get pendingDeletes(): PendingDeletes | null {
    return this.status.report.pendingDeletes;
  }
  get lastRound(): RoundStatus['lastRound'] {
    return this.status.lastRound;
  }
  get roundTotals(): RoundTotals {
    return this.status.totals;
  }
  get lastResult(): RoundResult | null {
    return this.status.lastResult;
  }

  /**
   * Notes held here and the fail-safe's open question: this process's last round, or what the
   * last round of any process saved with the baseline (`state`: the scope's loaded state).
   */
  reportOf(state: BaselineState): ScopeReport {
    if (this.status.lastResult !== null) return this.status.report;
    return state.report ?? NO_REPORT;
  }

  /** Signed in again, or switched: the last error no longer applies. */
  clearError(): void {
    this.status = { ...this.status, error: null };
  }

  /** Switched off: no error, no question waiting. */
  clearForOff(): void {
    this.status = { ...this.status, error: null, report: { ...this.status.report, pendingDeletes: null } };
  }

  async round(ctx: RoundContext): Promise<RoundResult> {
    const decision = this.deleteDecision;
    this.deleteDecision = null;
    let report: RoundReport;
    try {
      // One round per scope at a time, across processes too (the app and a CLI on one home).
      report = await this.withBaselineLock(() => runRound(this, ctx, decision));
    } catch (failure) {
      report = { result: { outcome: 'transient' }, error: null, limits: null, transfer: null, failure };
    }
    // The answer is for a round that plans; one that stopped before keeps it for the next.
    if (report.report === undefined) this.deleteDecision ??= decision;
    return this.record(report, ctx.signal.aborted);
  }

  /** A failure outside a round (the coordinator's): mapped and shown like a round's. */
  failed(err: unknown): RoundResult {
    return this.record(
      { result: { outcome: 'transient' }, error: null, limits: null, transfer: null, failure: err },
      false,
    );
  }

  /** The one place a round's report becomes the scope's status. */
  private record(report: RoundReport, aborted: boolean): RoundResult {
    let { result, error, limits } = report;
    if (report.failure !== undefined) {
      // Switched off mid-round: the request was cancelled on purpose, not an error.
      const mapped = aborted
        ? { result: { outcome: 'blocked' as const }, error: null }
        : this.describe(report.failure);
      result = mapped.result;
      error = mapped.error;
      if (report.failure instanceof SyncRequestError && report.failure.limits) limits = report.failure.limits;
    }
    const previous = this.status;
    this.status = {
      error,
      limits: limits ?? previous.limits,
      report: report.report ?? previous.report,
      lastRound: report.transfer ? { ...report.transfer, error } : null,
      lastResult: result,
      totals: report.transfer ? addRound(previous.totals, report.transfer) : previous.totals,
    };
    return result;
  }

  /** Maps a failure to the status the page shows and the scheduler's next step. */
  private describe(err: unknown): { result: RoundResult; error: ScopeError | null } {
    const scope = this.scope;
    const shown = (code: SyncStatusCode, message: string): ScopeError => ({
      code,
      message: scoped(scope, message),
      scope,
    });
    if (err instanceof SyncRequestError) {
      const explained = EXPLAINED_FAILURES[err.failure];
      if (explained)
        return {
          result: { outcome: explained.outcome },
          error: shown(explained.code, explained.say(err.message)),
        };
      switch (err.failure) {
        case 'aborted':
          return { result: { outcome: 'blocked' }, error: null };
        case 'rate_limited':
          return {
            result: { outcome: 'rate_limited', retryAfterMs: err.retryAfterMs ?? 60_000 },
            error: shown('rate_limited', 'sync ran too often and will retry shortly'),
          };
        case 'unauthorized':
        case 'token_expired':
          this.accounts.reset();
          return {
            result: { outcome: 'blocked' },
            error: shown(
              syncStatusCode(err.failure),
              `the sync server did not accept the sign-in (${err.message}); sign in again`,
            ),
          };
        case 'offline':
          return { result: { outcome: 'transient' }, error: shown('offline', err.message) };
        default:
          return {
            result: err.transient ? { outcome: 'transient' } : { outcome: 'blocked' },
            error: shown(syncStatusCode(err.failure), err.message),
          };
      }
    }
    if (err instanceof AppError)
      return { result: { outcome: 'transient' }, error: shown(err.code, err.message) };
    return {
      result: { outcome: 'transient' },
      error: shown('internal', err instanceof Error ? err.message : String(err)),
    };
  }

  /**
   * Whether cloud sync is on for this scope. A project scope without its own entry follows the
   * user scope's: after 关闭云同步, a project opened for the first time does not start syncing.
   */
  async enabled(): Promise<boolean> {
    const target = await this.targets.get(this.keyHash);
    if (target) return target.enabled;
    if (this.scope === 'project') {
      const user = await this.targets.get(scopeKeyHash({ scope: 'user' }));
      if (user) return user.enabled;
    }
    return true;
  }

  /** Runs fn holding the baseline directory's lock (in-process queue + cross-process lock file). */
  async withBaselineLock<T>(fn: () => Promise<T>): Promise<T> {
    await fs.mkdir(this.baselines.dir, { recursive: true });
    return withDirLock(this.baselines.dir, fn, { timeoutMs: 120_000, staleMs: 15 * 60_000 });
  }

  /** The scope's toggle, binding and whether this process can sync it right now. */
  async gate(): Promise<{ ok: true; account: SyncAccount } | { ok: false; reason: 'off' | 'signed_out' }> {
    if (!(await this.enabled())) return { ok: false, reason: 'off' };
    const account = await this.accounts.current();
    if (!account) return { ok: false, reason: 'signed_out' };
    return { ok: true, account };
  }

  // ---------------------------------------------------------------- conflicts

  async conflicts(): Promise<ConflictRecord[]> {
    return Object.values(await this.baselines.loadConflicts()).sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** One conflict with its three versions (last synced, this computer's now, the cloud's) and the automatic draft. */
  async conflict(id: string): Promise<{
    record: ConflictRecord;
    base: Note | null;
    local: Note | null;
    cloud: Note | null;
    draft: NoteContent;
    reasons: string[];
  }> {
    const record = (await this.baselines.loadConflicts())[id];
    if (!record) throw new AppError('not_found', scoped(this.scope, `there is no sync conflict for "${id}"`));
    const t = this.now();
    const load = async (hash: string | null): Promise<Note | null> => {
      if (hash === null) return null;
      const text = await this.baselines.getObject(hash);
      return text === null ? null : noteOfId(text, id, t);
    };
    const base = await load(record.baseHash);
    const stored = this.noteHere(id);
    const local = stored ? plainNote(stored) : null;
    const cloud = await load(record.cloudHash);
    const merged = mergeNote(
      base && contentFields(base),
      local && contentFields(local),
      cloud && contentFields(cloud),
      this.mergeOptions(),
    );
    const draft =
      merged.kind === 'conflict'
        ? merged.draft
        : (merged.content ??
          (local
            ? contentFields(local)
            : cloud
              ? contentFields(cloud)
              : { summary: '', tags: [], body: '' }));
    return { record, base, local, cloud, draft, reasons: merged.kind === 'conflict' ? merged.reasons : [] };
  }

  /**
   * This computer's note `id`, by its exact id. The store finds ids ignoring case (macOS and
   * Windows cannot hold both), so a note one case apart is another note, never this conflict's
   * side (seed 33700: "n-2-2" was shown and kept as this computer's "N-2-2", deleted here).
   */
  private noteHere(id: string): StoredNote | null {
    const note = this.store.get(id);
    return note?.id === id ? note : null;
  }

  mergeOptions(): { maxBodyBytes?: number } {
    if (!this.limits) return {};
    const { quota, planLimits } = this.limits;
    return { maxBodyBytes: Math.min(quota.noteBytes, planLimits.noteBytes ?? Infinity) };
  }

  /**
   * Resolves a conflict. Whatever is set aside is backed up first, whichever side it came from.
   * The outcome reaches the cloud with the next round (which the caller should ask for).
   */
  async resolve(id: string, resolution: Resolution): Promise<{ id: string; newId?: string }> {
    return this.withBaselineLock(() => this.resolveLocked(id, resolution));
  }

  private async resolveLocked(id: string, resolution: Resolution): Promise<{ id: string; newId?: string }> {
    const conflicts = await this.baselines.loadConflicts();
    const record = conflicts[id];
    if (!record) throw new AppError('not_found', scoped(this.scope, `there is no sync conflict for "${id}"`));
    await this.store.load();
    const t = this.now();
    const cloudText = record.cloudHash ? await this.baselines.getObject(record.cloudHash) : null;
    const cloudNote = cloudText ? noteOfId(cloudText, id, t) : null;
    const local = this.noteHere(id);
    const backupCloud = async (reason: string): Promise<void> => {
      if (!cloudText) return;
      await this.backups.backup({
        noteId: id,
        content: cloudText,
        reason,
        originDir: this.store.dir,
        scope: this.scope,
        summary: cloudNote?.summary ?? null,
      });
    };
    const backupLocal = async (reason: string): Promise<void> => {
      if (!local) return;
      const raw = (await this.store.readRaw(id)) ?? contentOfStored(local);
      await this.backups.backup({
        noteId: id,
        content: raw,
        reason,
        originDir: this.store.dir,
        scope: this.scope,
        summary: local.summary,
      });
    };
    let newId: string | undefined;
    if ('merged' in resolution) {
      await backupLocal('sync conflict: merged by hand (this computer’s version)');
      await backupCloud('sync conflict: merged by hand (the cloud’s version)');
      const base = local ?? cloudNote;
      const note: Note = {
        id,
        ...resolution.merged,
        tags: resolution.merged.tags,
        createdAt: base?.createdAt ?? t,
        updatedAt: t,
        ...(base?.extra ? { extra: base.extra } : {}),
      };
      await this.store.write(note, { ignoreNoteLimit: true });
    } else if (resolution.keep === 'local') {
      await backupCloud('sync conflict: kept this computer’s version (the cloud’s set aside)');
    } else if (resolution.keep === 'cloud') {
      if (cloudNote) {
        await this.store.write(cloudNote, {
          backupReason: 'sync conflict: took the cloud’s version',
          ignoreNoteLimit: true,
        });
      } else if (local) {
        await this.store.delete(id, { backupReason: 'sync conflict: took the cloud’s side (deleted there)' });
      }
    } else {
      // Keep both: the cloud's version becomes a new note beside this one, with a new id.
      if (cloudNote) {
        newId = await this.freeId(`${id}-cloud`);
        await this.store.write(
          { ...cloudNote, id: newId, updatedAt: t },
          { expectedHash: null, ignoreNoteLimit: true },
        );
      }
    }
    // The resolution is now a local change on top of the cloud's version: the next round uploads it.
    const state = await this.baselines.loadState();
    if (record.cloudHash) {
      if (cloudText) await this.baselines.putObject(record.cloudHash, cloudText);
      state.base[id] = record.cloudHash;
    } else {
      delete state.base[id];
    }
    // A note deleted here around a loss of history: what the person decided against stays decided
    // (round/plan.ts), and a later version from another device is not the same question again.
    if (state.deletedWhileLost?.[id] !== undefined) {
      const against = state.decidedWhileLost?.[id] ?? [];
      state.decidedWhileLost = {
        ...state.decidedWhileLost,
        [id]:
          record.cloudHash && !against.includes(record.cloudHash) ? [...against, record.cloudHash] : against,
      };
    }
    await this.baselines.saveState(state);
    delete conflicts[id];
    await this.baselines.saveConflicts(conflicts);
    return newId ? { id, newId } : { id };
  }

  private async freeId(stem: string): Promise<string> {
    const taken = new Set(this.store.list().map((n) => noteIdKey(n.id)));
    for (let i = 0; ; i++) {
      const candidate = i === 0 ? stem : `${stem}-${i + 1}`;
      if (!taken.has(noteIdKey(candidate))) return candidate;
    }
  }

  /** Fail-safe answer: delete the notes the cloud deleted, or keep them (they are uploaded again). */
  async decidePendingDeletes(decision: 'delete' | 'keep'): Promise<void> {
    this.deleteDecision = decision;
  }

  async state(): Promise<BaselineState> {
    return this.baselines.loadState();
  }

  /** Is the note fully synced: this computer, the baseline and the cloud manifest agree. */
  static isSynced(state: BaselineState, id: string, local: StoredNote | undefined): boolean {
    const base = state.base[id] ?? null;
    const cloud: SyncEntry | undefined = state.manifest.entries[id];
    return (local?.hash ?? null) === base && (cloud?.hash ?? null) === base;
  }
}

function addRound(t: RoundTotals, r: RoundTransfer): RoundTotals {
  return {
    rounds: t.rounds + 1,
    added: t.added + r.pulled.added,
    changed: t.changed + r.pulled.changed,
    deleted: t.deleted + r.pulled.deleted,
    pushed: t.pushed + r.pushed,
    conflicts: t.conflicts + r.conflicts.length,
  };
}
