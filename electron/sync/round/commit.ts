import type { LocalOnlyNote } from '../../../shared/api/sync.js';
import type { CommitDelete, CommitPut, SyncEntry, SyncLimits } from '../../../shared/sync-protocol.js';
import type { SyncAccount } from '../account.js';
import type { Journal } from '../baseline-store.js';
import type { RoundContext } from '../coordinator.js';
import { SyncRequestError } from '../http-client.js';
import { scoped } from '../scope-labels.js';
import type { LocalWrite } from './apply.js';
import { setBase } from './plan.js';
import type { PlannedBackup, PushPlan, RoundDeps, StoredObject } from './types.js';

/** Stores copies in the baseline's objects/ (each hash once). */
export async function storeObjects(deps: RoundDeps, objects: readonly StoredObject[]): Promise<void> {
  const unique = new Map<string, string>();
  for (const o of objects) if (!unique.has(o.hash)) unique.set(o.hash, o.content);
  await deps.baselines.putObjects([...unique].map(([hash, content]) => ({ hash, content })));
}

/** Takes the backups a plan asks for (both sides of a clean merge), before anything is committed. */
export async function takeBackups(deps: RoundDeps, backups: readonly PlannedBackup[]): Promise<void> {
  for (const b of backups) {
    if (deps.hooks.point) await deps.hooks.point('commit:backup');
    const content = b.content ?? (await deps.store.readRaw(b.noteId)) ?? b.fallback;
    await deps.backups.backup({
      noteId: b.noteId,
      content,
      reason: b.reason,
      originDir: deps.store.dir,
      scope: deps.scope,
      summary: b.summary,
    });
  }
}

export interface CommitOutcome {
  pushed: number;
  /** Of those, deletions (the fail-safe counts them in its window). */
  deleted: number;
  /** Merge results the cloud accepted: to write here. */
  localWrites: LocalWrite[];
  /** The manifest version after our commits when nobody else committed in between, else null. */
  versionTracked: number | null;
  /** The head id of `versionTracked` (when the server sends heads). */
  headTracked?: string;
  /** A push was refused as stale (the cloud changed meanwhile): the next round merges. */
  rerun: boolean;
  notices: string[];
  /** Notes the server refused: they stay here. */
  localOnly: LocalOnlyNote[];
  limits: SyncLimits | null;
  /** The journal on disk now (this round's, or the previous round's when nothing was pushed). */
  journal: Journal | null;
}

/**
 * Step 5 of a round: the pushed versions are stored in objects/, then journal.json lists them (a
 * crash or a lost answer after the commit is finished by the next round), then the commit goes out
 * in chunks of the server's `changesPerCommit` (re-split on `too_many_changes`). Applied entries
 * update `entries` and `base` in place.
 */
export async function commitPushes(
  deps: RoundDeps,
  account: SyncAccount,
  ctx: RoundContext,
  pushes: readonly PushPlan[],
  journal: Journal | null,
  started: { at: number; version: number; head?: string; limits: SyncLimits },
  entries: Record<string, SyncEntry>,
  base: Record<string, string>,
): Promise<CommitOutcome> {
  const out: CommitOutcome = {
    pushed: 0,
    deleted: 0,
    localWrites: [],
    versionTracked: started.version,
    ...(started.head === undefined ? {} : { headTracked: started.head }),
    rerun: false,
    notices: [],
    localOnly: [],
    limits: null,
    journal,
  };
  if (pushes.length === 0) return out;
  const point = deps.hooks.point;
  if (point) await point('commit:journal');
  await storeObjects(
    deps,
    pushes.flatMap((p) =>
      p.hash !== null && p.content !== null ? [{ hash: p.hash, content: p.content }] : [],
    ),
  );
  out.journal = {
    startedAt: started.at,
    version: started.version,
    ...(started.head === undefined ? {} : { head: started.head }),
    // A previous journal's entries stay, first, until this round's state is saved (recovery is
    // idempotent), a note pushed again included: what its recovery found out (the cloud holds
    // that push: it is the base) lives only in this round's memory until then.
    pushes: [
      ...(journal?.pushes ?? []),
      ...pushes
        .map((p) => ({ id: p.id, localBefore: p.localBefore, pushed: p.hash, version: started.version }))
        .filter((p) => !journal?.pushes.some((old) => sameJournalPush(old, p))),
    ],
    pulls: journal?.pulls ?? [],
  };
  await deps.baselines.saveJournal(out.journal);
  let chunkSize = started.limits.quota.changesPerCommit;
  let queue = [...pushes];
  while (queue.length > 0) {
    const chunk = queue.slice(0, chunkSize);
    const puts: CommitPut[] = [];
    const deletes: CommitDelete[] = [];
    for (const p of chunk) {
      if (p.hash !== null) puts.push({ id: p.id, baseHash: p.cloudHash, hash: p.hash, content: p.content! });
      else if (p.cloudHash !== null) deletes.push({ id: p.id, baseHash: p.cloudHash });
    }
    let response;
    try {
      await ctx.beforeRequest();
      if (point) await point('commit:request');
      response = await account.client.commit({ scope: deps.protocolScope, puts, deletes }, ctx.signal);
    } catch (err) {
      if (err instanceof SyncRequestError && err.failure === 'too_many_changes' && chunkSize > 1) {
        const half = Math.floor(chunkSize / 2);
        chunkSize = Math.max(1, Math.min(err.limits?.quota.changesPerCommit ?? half, half));
        continue;
      }
      throw err;
    }
    // The cloud holds this chunk; nothing here knows yet but the journal.
    if (point) await point('commit:answered');
    queue = queue.slice(chunk.length);
    out.limits = response.limits;
    chunkSize = response.limits.quota.changesPerCommit;
    const anyChanged = response.applied.some((a) => !a.unchanged);
    if (out.versionTracked !== null) {
      out.versionTracked =
        response.version === out.versionTracked + (anyChanged ? 1 : 0) ? response.version : null;
      if (response.head === undefined) delete out.headTracked;
      else out.headTracked = response.head;
    }
    const byId = new Map(chunk.map((p) => [p.id, p]));
    for (const a of response.applied) {
      const p = byId.get(a.id);
      if (!p) continue;
      if (a.entry) entries[a.id] = a.entry;
      else delete entries[a.id];
      setBase(base, a.id, p.hash);
      if (!a.unchanged) {
        out.pushed++;
        if (a.op === 'delete') out.deleted++;
      }
      if (p.writeLocally && p.hash)
        out.localWrites.push({ id: p.id, note: p.writeLocally, localBefore: p.localBefore, hash: p.hash });
    }
    for (const r of response.rejected) {
      if (r.current) entries[r.id] = r.current;
      if (r.code === 'stale_base') {
        out.rerun = true; // changed in the cloud meanwhile: the next round merges
        continue;
      }
      const limit = ['scope_full', 'plan_scope_full', 'plan_note_too_large', 'note_too_large'].includes(
        r.code,
      );
      const message = scoped(
        deps.scope,
        limit
          ? `"${r.id}" stays on this computer only: ${r.message}`
          : `"${r.id}" was not uploaded: ${r.message}`,
      );
      out.notices.push(message);
      out.localOnly.push({ id: r.id, reason: 'refused', message });
    }
  }
  await deps.hooks.afterCommit?.();
  return out;
}

function sameJournalPush(a: Journal['pushes'][number], b: Journal['pushes'][number]): boolean {
  return a.id === b.id && a.localBefore === b.localBefore && a.pushed === b.pushed;
}
