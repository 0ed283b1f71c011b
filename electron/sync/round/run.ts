import { AppError } from '../../../shared/errors.js';
import { noteIdKey } from '../../../shared/note-id.js';
import type { SyncLimits } from '../../../shared/sync-protocol.js';
import type { StoredNote } from '../../memory/types.js';
import type { RoundContext } from '../coordinator.js';
import { scoped } from '../scope-labels.js';
import { applyRound, LocalWriter } from './apply.js';
import { commitPushes, storeObjects, takeBackups } from './commit.js';
import { openRound } from './gate.js';
import { planRound } from './plan.js';
import {
  baseAtLoss,
  forgetLostHistory,
  rememberPushesDeletedHere,
  settleReuploads,
  stillAgreed,
} from './history-reset.js';
import { recoverJournal } from './recover.js';
import { baselineTexts, fetchSnapshot } from './snapshot.js';
import type { BaselineState, Journal } from '../baseline-store.js';
import type { DeleteWindowCount, PendingDeletes, RoundDeps, RoundReport, ScopeError } from './types.js';

/**
 * One sync round of one scope (docs/sync-engine.md, "A round"):
 *
 *   1. gate      the toggle, the sign-in, the account binding, the protocol (gate.ts)
 *   2. snapshot  what changed in the cloud since the version last seen (snapshot.ts)
 *   3. recover   finish a previous round's journal (recover.ts)
 *   4. plan      pure: pushes, pulls, conflicts, what stays here and why (plan.ts)
 *   5. commit    copies and backups, the journal, the chunked commit (commit.ts)
 *   6. apply     write here what came down, backed up first (apply.ts); then the baseline is saved
 *
 * A crash at any step leaves files from which the next round converges without losing an edit.
 * Everything the round found out comes back as one RoundReport; nothing else is written to the
 * service.
 */
export async function runRound(
  deps: RoundDeps,
  ctx: RoundContext,
  deleteDecision: 'delete' | 'keep' | null,
): Promise<RoundReport> {
  let limits: SyncLimits | null = null;
  try {
    const gate = await openRound(deps, ctx);
    limits = gate.limits;
    if (!gate.open) return { result: { outcome: 'blocked' }, error: gate.error, limits, transfer: null };
    const { account } = gate;

    const state = await deps.baselines.loadState();
    // An encrypted account binds baselines to its key too: unlocking or turning encryption on starts over.
    const binding = { userId: gate.userId, origin: account.baselineOrigin ?? account.origin };
    if (
      state.boundTo &&
      (state.boundTo.userId !== binding.userId || state.boundTo.origin !== binding.origin)
    ) {
      // A baseline from another account (only after its binding was removed by hand): start over.
      state.manifest = { version: null, entries: {} };
      state.base = {};
    }
    state.boundTo = binding;
    if (deps.location) state.location = deps.location;
    const previousConflicts = await deps.baselines.loadConflicts();
    await deps.store.load();
    const unreadableDir = deps.store.warnings().find((w) => w.code === 'dir_unreadable');
    // A folder that cannot be listed says nothing about its notes: no round (it would read as deletions).
    if (unreadableDir) throw new AppError('io_error', unreadableDir.message);
    const locals = new Map<string, StoredNote>();
    for (const note of deps.store.list()) locals.set(note.id, note);
    const heldFiles = deps.store.held();
    const held = new Map(heldFiles.map((h) => [noteIdKey(h.id), h]));

    const journal = await deps.baselines.loadJournal();
    const snapshot = await fetchSnapshot(deps, account, ctx, state, locals, journal);
    limits = snapshot.limits;
    const { entries } = snapshot;

    const t = deps.now();
    // The cloud lost history: the baseline is trusted only where the cloud still agrees with it.
    // The history lost may be newer than the state saved (a process killed after its commit or
    // pulls, before saving; the cloud restored to the saved version, perhaps counted up since): the
    // journal then names a version above the cloud's, or pulled a note the cloud has no record of.
    const journalLost =
      journal !== null &&
      ((journal.version !== null && snapshot.version < journal.version) ||
        journal.pulls.some((p) => p.pulled !== null && entries[p.id] === undefined));
    const reset =
      snapshot.historyReset || journalLost
        ? forgetLostHistory(deps.scope, baseAtLoss(state.base, journal), entries, locals, held)
        : null;
    if (reset) state.base = reset.base;
    // Files held at a loss of history and loaded again now: planned as that loss would have.
    const heldWhileLost = { ...state.heldWhileLost, ...reset?.heldHere };
    const loadedAgain = Object.fromEntries(
      Object.entries(heldWhileLost).filter(([id]) => !held.has(noteIdKey(id)) && !(id in state.base)),
    );
    for (const id of Object.keys(heldWhileLost)) if (!held.has(noteIdKey(id))) delete heldWhileLost[id];
    const late =
      Object.keys(loadedAgain).length > 0
        ? forgetLostHistory(deps.scope, loadedAgain, entries, locals, held)
        : null;
    if (late) Object.assign(state.base, late.base);
    const reuploads = settleReuploads(
      { ...state.reuploadWhileLost, ...reset?.reuploaded, ...late?.reuploaded },
      state.base,
      entries,
      locals,
      held,
    );
    Object.assign(state.base, reuploads.base);
    const deletedWhileLost = {
      ...state.deletedWhileLost,
      ...reset?.deletedHere,
      ...late?.deletedHere,
      ...reuploads.deletedHere,
    };
    // A new loss of history may bring back versions older than what the person decided on: ask again.
    const decidedWhileLost = reset ? {} : (state.decidedWhileLost ?? {});
    const writer = new LocalWriter(deps);
    if (journal) {
      // After a loss of history the journal's pulls count only where the cloud still holds them,
      // or where its new history deleted exactly the version pulled — as trustworthy as an agreed
      // version (forgetLostHistory): without it, that copy has no base here, and a round uploads
      // it as new over the person's delete (seed 86142: a pull killed before the state was saved).
      const recoverable = reset
        ? { ...journal, pulls: journal.pulls.filter((p) => stillAgreed(entries[p.id], p.pulled)) }
        : journal;
      await recoverJournal(recoverable, entries, locals, held, state.base, deps.baselines, writer, t);
      rememberPushesDeletedHere(journal, entries, locals, held, state.base, deletedWhileLost);
    }

    const plan = planRound({
      scope: deps.scope,
      now: t,
      locals,
      held,
      baseline: {
        base: state.base,
        conflicts: previousConflicts,
        stored: await deps.baselines.listObjects(),
      },
      cloud: { entries, activeNotes: snapshot.activeNotes },
      texts: {
        snapshot: snapshot.objects,
        baseline: await baselineTexts(deps.baselines, state.base, locals, snapshot),
      },
      limits,
      typedBlocked: gate.protocol < 2,
      sealed: account.baselineOrigin !== undefined,
      deleteDecision,
      deleteWindow:
        state.deleteWindow && t - state.deleteWindow.since < DELETE_WINDOW_MS ? state.deleteWindow : null,
      deletedWhileLost,
      decidedWhileLost,
      deletedInLostCloud: new Set([...(reset?.deletedThere ?? []), ...(late?.deletedThere ?? [])]),
    });
    const { base } = plan;

    if (deps.hooks.point) await deps.hooks.point('plan:objects');
    await storeObjects(deps, plan.objects);
    await takeBackups(deps, plan.backups);
    const committed = await commitPushes(
      deps,
      account,
      ctx,
      plan.pushes,
      journal,
      {
        at: t,
        version: snapshot.version,
        ...(snapshot.head === undefined ? {} : { head: snapshot.head }),
        limits,
      },
      entries,
      base,
    );
    limits = committed.limits ?? limits;

    // The pulls' copies, then the journal that names them, then each write and its mark in the
    // journal's log: a process killed before the state is saved, even partway through the writes,
    // leaves a journal from which the next round knows what it pulled (recover.ts).
    if (plan.pulls.length > 0) {
      if (deps.hooks.point) await deps.hooks.point('apply:objects');
      await storeObjects(
        deps,
        plan.pulls.flatMap((p) =>
          p.note && p.content !== null && p.cloudHash !== null
            ? [{ hash: p.cloudHash, content: p.content }]
            : [],
        ),
      );
      const onDisk = committed.journal ?? {
        startedAt: t,
        version: snapshot.version,
        ...(snapshot.head === undefined ? {} : { head: snapshot.head }),
        pushes: [],
        pulls: [],
      };
      const pullJournal: Journal = {
        ...onDisk,
        pulls: [
          ...onDisk.pulls,
          ...plan.pulls.map((p) => ({
            id: p.id,
            pulled: p.note && p.content !== null ? p.cloudHash : null,
            written: false,
          })),
        ],
      };
      await deps.baselines.saveJournal(pullJournal);
    }
    const { counts, heldObjects } = await applyRound(
      writer,
      base,
      committed.localWrites,
      plan.pulls,
      (id, pulled) => deps.baselines.markPullWritten(id, pulled),
    );

    // Save: the baseline, conflicts, then drop the journal and unreferenced objects.
    const anything = counts.added + counts.changed + counts.deleted > 0;
    // Bodies we need were not sent (a baseline copy went missing): list in full next time, asking
    // with the version and head seen so that a history lost meanwhile is still noticed.
    const head = committed.versionTracked !== null ? committed.headTracked : snapshot.head;
    const seen = {
      version: committed.versionTracked ?? snapshot.version,
      ...(head === undefined ? {} : { head }),
    };
    state.manifest = {
      ...(plan.missingBodies ? { version: null, lastSeen: seen } : seen),
      entries,
    };
    const notices = [
      ...(reset ? [reset.notice] : []),
      ...plan.notices,
      ...committed.notices,
      ...writer.notices,
    ];
    state.base = base;
    if (Object.keys(plan.deletedWhileLost).length > 0) state.deletedWhileLost = plan.deletedWhileLost;
    else delete state.deletedWhileLost;
    if (Object.keys(plan.decidedWhileLost).length > 0) state.decidedWhileLost = plan.decidedWhileLost;
    else delete state.decidedWhileLost;
    if (Object.keys(heldWhileLost).length > 0) state.heldWhileLost = heldWhileLost;
    else delete state.heldWhileLost;
    // Kept until the upload lands (the baseline then holds the note).
    const reuploadWhileLost = Object.fromEntries(
      Object.entries(reuploads.waiting).filter(([id]) => !(id in base)),
    );
    if (Object.keys(reuploadWhileLost).length > 0) state.reuploadWhileLost = reuploadWhileLost;
    else delete state.reuploadWhileLost;
    const localOnly = [...plan.localOnly, ...committed.localOnly];
    state.report = { notices, localOnly, pendingDeletes: plan.pendingDeletes };
    state.deleteWindow = nextDeleteWindow(state.deleteWindow, plan.deleteWindow, {
      at: t,
      deleted: counts.deleted + committed.deleted,
      answered: deleteDecision !== null,
    });
    state.lastSyncedAt = deps.now();
    if (anything) state.lastPull = { ...counts, at: state.lastSyncedAt };
    const point = deps.hooks.point;
    if (point) await point('save:state');
    await deps.baselines.saveState(state);
    const changedConflicts = JSON.stringify(previousConflicts) !== JSON.stringify(plan.conflicts);
    if (point) await point('save:conflicts');
    if (changedConflicts) await deps.baselines.saveConflicts(plan.conflicts);
    if (point) await point('save:journal');
    const journaled = journal !== null || plan.pushes.length > 0 || plan.pulls.length > 0;
    if (journaled) await deps.baselines.clearJournal();
    if (point) await point('save:garbage');
    if (journaled || anything || changedConflicts) {
      const keep = new Set<string>([
        ...Object.values(state.base),
        ...heldObjects.map((o) => o.hash),
        ...plan.retain,
      ]);
      for (const c of Object.values(plan.conflicts))
        for (const h of [c.baseHash, c.localHash, c.cloudHash]) if (h) keep.add(h);
      await deps.baselines.collectGarbage(keep);
    }

    if (point) await point('round:end');
    const error = plan.pendingDeletes ? confirmDeletesError(deps, plan.pendingDeletes) : null;
    // Notes that could not be written here are not in sync: the round is not clean.
    const changed =
      anything ||
      committed.pushed > 0 ||
      snapshot.listing !== 'unchanged' ||
      committed.rerun ||
      plan.missingBodies;
    return {
      result: { outcome: 'ok', changed },
      error,
      limits,
      report: state.report,
      transfer: {
        pulled: counts,
        pushed: committed.pushed,
        conflicts: Object.keys(plan.conflicts).sort(),
        held: heldFiles,
        historyReset: reset !== null,
      },
    };
  } catch (failure) {
    return { result: { outcome: 'transient' }, error: null, limits, transfer: null, failure };
  }
}

/** The fail-safe's window forgets deletions older than this (a week of ordinary tidying never asks). */
export const DELETE_WINDOW_MS = 7 * 24 * 3600 * 1000;

/**
 * The window after a round: the person's answer confirms the state (a new window starts, empty);
 * otherwise the deletions this round made, in both directions, are added.
 */
function nextDeleteWindow(
  saved: BaselineState['deleteWindow'],
  planned: DeleteWindowCount,
  round: { at: number; deleted: number; answered: boolean },
): NonNullable<BaselineState['deleteWindow']> {
  const current = saved && round.at - saved.since < DELETE_WINDOW_MS ? saved : null;
  if (round.answered)
    return { since: round.at, total: Math.max(0, planned.total - round.deleted), deleted: 0 };
  return {
    since: current?.since ?? round.at,
    total: planned.total,
    deleted: planned.deleted + round.deleted,
  };
}

function confirmDeletesError(deps: RoundDeps, pending: PendingDeletes): ScopeError {
  const parts: string[] = [];
  if (pending.ids.length > 0) parts.push(`${pending.ids.length} deleted on another device`);
  if (pending.localIds.length > 0)
    parts.push(`${pending.localIds.length} deleted or missing on this computer`);
  const count = pending.ids.length + pending.localIds.length;
  return {
    code: 'confirm_deletes',
    message: scoped(
      deps.scope,
      `${count} of ${pending.total} notes would be deleted (${parts.join(', ')}; counted since the last confirmed state). Nothing was deleted: confirm to delete them, or keep them (kept notes are uploaded again or written back here).`,
    ),
    scope: deps.scope,
  };
}
