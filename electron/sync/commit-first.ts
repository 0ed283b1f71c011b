import { contentHash } from '../../shared/content-hash.js';
import { AppError } from '../../shared/errors.js';
import { serializeNote } from '../../shared/note-format.js';
import type { CommitDelete, CommitPut } from '../../shared/sync-protocol.js';
import { SyncRequestError } from './http-client.js';
import { scoped } from './scope-labels.js';
import type { RoundResult } from './coordinator.js';
import { SyncService } from './sync-service.js';
import type { CommitFirstBatch, CommitFirstResult, MergeSync } from '../cleanup/merge-sync-port.js';
import type { MemoryCore } from '../memory/types.js';
import type { Scope } from '../../shared/note.js';
import { effectiveLimits, StrictRejectionDetailsSchema } from '../../shared/sync-protocol.js';

/** What commit first needs of the process's sync engine (sync-engine.ts implements it). */
export interface CommitFirstEngine {
  servicesOf(core: MemoryCore): SyncService[];
  serviceForScope(core: MemoryCore, scope: Scope): SyncService;
  syncNow(services: SyncService[]): Promise<Map<SyncService, RoundResult>>;
  commitFirst(svc: SyncService, batch: CommitFirstBatch): Promise<CommitFirstResult>;
}

/** The cleanup merge's link to this engine: commitFirst for the core's scope. */
export function mergeSyncFor(engine: CommitFirstEngine, core: MemoryCore): MergeSync {
  return {
    enabled: async (scope) => {
      const svc = engine.servicesOf(core).find((s) => s.scope === scope);
      return svc ? (await svc.gate()).ok : false;
    },
    commitFirst: (scope, batch) => engine.commitFirst(engine.serviceForScope(core, scope), batch),
  };
}

/**
 * The strict "commit first" path for batch changes nobody reviews note by note (cleanup merges,
 * consolidation), so a batch never lands over an edit this device has not seen:
 *   1. sync the scope; every note in the batch must then be fully synced (here = baseline = cloud)
 *   2. commit the whole batch in strict mode, carrying the manifest version that was checked
 *   3. only when the server accepts it, write the batch here (each replaced note backed up)
 * An edit from another device in between makes the server reject the batch (AppError 'conflict')
 * instead of becoming a sync conflict. With sync off or signed out, it is a plain local edit.
 */
export async function commitFirst(
  engine: CommitFirstEngine,
  svc: SyncService,
  batch: CommitFirstBatch,
): Promise<CommitFirstResult> {
  const store = svc.store;
  await store.load();
  const check = (): void => {
    for (const { note, expectedHash } of batch.puts) {
      const current = store.get(note.id)?.hash ?? null;
      if (current !== expectedHash)
        throw new AppError(
          'conflict',
          scoped(
            svc.scope,
            `"${note.id}" changed since the merge was planned; nothing was applied — plan it again`,
          ),
        );
    }
    for (const { id, expectedHash } of batch.deletes) {
      if ((store.get(id)?.hash ?? null) !== expectedHash)
        throw new AppError(
          'conflict',
          scoped(
            svc.scope,
            `"${id}" changed since the merge was planned; nothing was applied — plan it again`,
          ),
        );
    }
  };
  check();

  const gate = await svc.gate();
  if (!gate.ok) {
    return {
      cloud: 'local',
      written: batch.puts.map((p) => p.note.id),
      deleted: batch.deletes.map((d) => d.id),
      backupIds: await applyLocally(svc, batch),
    };
  }

  // 1. Sync first, until the manifest version this computer holds is the server's current one.
  let version: number | null = null;
  for (let attempt = 0; attempt < 3 && version === null; attempt++) {
    const result = (await engine.syncNow([svc])).get(svc);
    if (!result || result.outcome !== 'ok') {
      throw new AppError(
        'sync_error',
        scoped(
          svc.scope,
          `cannot sync before the merge (${svc.error?.message ?? result?.outcome ?? 'unknown'}); nothing was applied`,
        ),
      );
    }
    const state = await svc.state();
    if (state.manifest.version === null) continue;
    const probe = await gate.account.client.snapshot({
      scope: svc.protocolScope,
      sinceVersion: state.manifest.version,
      sinceHead: state.manifest.head ?? null,
      have: [],
      cursor: null,
    });
    if (probe.status === 'unchanged') version = probe.version;
  }
  if (version === null)
    throw new AppError(
      'sync_error',
      scoped(svc.scope, 'the scope keeps changing on other devices; nothing was applied — try again'),
    );
  check();
  const state = await svc.state();
  const involved = [...batch.puts.map((p) => p.note.id), ...batch.deletes.map((d) => d.id)];
  for (const id of involved) {
    const local = store.get(id);
    const synced = SyncService.isSynced(state, id, local);
    if (!synced) {
      throw new AppError(
        'conflict',
        scoped(
          svc.scope,
          `"${id}" is not fully synced (it changed here or on another device, or is in conflict); nothing was applied — sync, then plan again`,
        ),
      );
    }
  }

  // 2. The strict commit.
  const puts: CommitPut[] = batch.puts.map(({ note }) => ({
    id: note.id,
    baseHash: state.manifest.entries[note.id]?.hash ?? null,
    hash: contentHash(note),
    content: serializeNote(note),
  }));
  const deletes: CommitDelete[] = batch.deletes.map(({ id }) => ({
    id,
    baseHash: state.manifest.entries[id]!.hash!,
  }));
  const quota = svc.limits?.quota.changesPerCommit ?? 500;
  if (puts.length + deletes.length > quota) {
    throw new AppError(
      'limit_exceeded',
      scoped(
        svc.scope,
        `the merge changes ${puts.length + deletes.length} notes; the sync server accepts at most ${quota} in one commit`,
      ),
    );
  }
  // The server's per-note limit, when known from its last answer (the server checks it as well).
  const noteBytes = svc.limits ? effectiveLimits(svc.limits).noteBytes : Infinity;
  for (const put of puts) {
    const bytes = Buffer.byteLength(put.content, 'utf8');
    if (bytes > noteBytes) throw tooLarge(svc, put.id, bytes, noteBytes);
  }
  let response;
  try {
    response = await gate.account.client.commit({
      scope: svc.protocolScope,
      puts,
      deletes,
      strict: { manifestVersion: version },
    });
  } catch (err) {
    if (
      err instanceof SyncRequestError &&
      (err.failure === 'manifest_changed' || err.failure === 'batch_rejected')
    ) {
      const details = StrictRejectionDetailsSchema.safeParse(err.details);
      const rejected = details.success ? details.data.rejected : [];
      const big = rejected.find((r) => r.code === 'note_too_large' || r.code === 'plan_note_too_large');
      if (big)
        throw new AppError(
          'limit_exceeded',
          scoped(
            svc.scope,
            `"${big.id}" is too large for the sync server (${big.message}); nothing was applied — shorten the merged note`,
          ),
        );
      if (rejected.length)
        throw new AppError(
          'conflict',
          scoped(
            svc.scope,
            `the sync server refused ${rejected.map((r) => `"${r.id}" (${r.message})`).join(', ')}; nothing was applied anywhere — plan the merge again`,
          ),
        );
      throw new AppError(
        'conflict',
        scoped(
          svc.scope,
          `another device changed these notes meanwhile; the merge was not applied anywhere — plan it again (${err.message})`,
        ),
      );
    }
    throw err;
  }

  // 3. Only now, this computer.
  const backupIds = await applyLocally(svc, batch);
  await svc.withBaselineLock(async () => {
    const after = await svc.state();
    for (const a of response.applied) {
      if (a.entry) after.manifest.entries[a.id] = a.entry;
      const put = puts.find((p) => p.id === a.id);
      if (put) {
        await svc.baselines.putObject(put.hash, put.content);
        after.base[a.id] = put.hash;
      } else {
        delete after.base[a.id];
      }
    }
    if (after.manifest.version === version) {
      after.manifest.version = response.version;
      // The head goes with the version (a stale one would read as a server that lost history).
      if (response.head === undefined) delete after.manifest.head;
      else after.manifest.head = response.head;
    }
    await svc.baselines.saveState(after);
  });
  return {
    cloud: 'committed',
    written: batch.puts.map((p) => p.note.id),
    deleted: batch.deletes.map((d) => d.id),
    backupIds,
  };
}

function tooLarge(svc: SyncService, id: string, bytes: number, limit: number): AppError {
  return new AppError(
    'limit_exceeded',
    scoped(
      svc.scope,
      `"${id}" would be ${bytes} bytes, over the sync server's limit of ${limit} bytes per note; nothing was applied — shorten the merged note`,
    ),
  );
}

async function applyLocally(svc: SyncService, batch: CommitFirstBatch): Promise<string[]> {
  const backupIds: string[] = [];
  for (const { note, expectedHash } of batch.puts) {
    svc.selfWrites.set(note.id, contentHash(note));
    await svc.store.write(note, {
      expectedHash,
      ...(expectedHash !== null ? { backupReason: batch.backupReason } : {}),
      ignoreNoteLimit: true,
    });
  }
  for (const { id, expectedHash } of batch.deletes) {
    svc.selfWrites.set(id, null);
    backupIds.push((await svc.store.delete(id, { backupReason: batch.backupReason, expectedHash })).backupId);
  }
  return backupIds;
}
