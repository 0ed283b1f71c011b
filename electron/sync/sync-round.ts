import { contentHash } from '../../shared/content-hash.js';
import { AppError } from '../../shared/errors.js';
import { serializeNote } from '../../shared/note-format.js';
import type { Note } from '../../shared/note.js';
import { noteIdKey } from '../../shared/note-id.js';
import {
  effectiveLimits,
  type CommitDelete,
  type CommitPut,
  type SyncEntry,
  type SyncObject,
} from '../../shared/sync-protocol.js';
import type { StoredNote } from '../memory/types.js';
import type { ConflictKind, ConflictRecord, Journal, PullCounts } from './baseline-store.js';
import type { RoundContext, RoundResult } from './coordinator.js';
import { SyncRequestError } from './http-client.js';
import { mergeNote } from './merge/index.js';
import { contentFields, contentOfStored, noteFromContent, utf8Bytes } from './note-content.js';
import { scoped } from './scope-labels.js';
import { SyncService } from './sync-service.js';

/**
 * One sync round of one scope (R-SYNC-MERGE), against the local baseline:
 *
 *   1. gate: the toggle, the sign-in, the account binding, the protocol
 *   2. snapshot: what changed in the cloud since the manifest version last seen (`have` = hashes
 *      changed here, so bodies this computer has never travel)
 *   3. recover: finish a previous round's journal (a crash or a lost answer after the commit)
 *   4. plan, per note: skip unchanged; copy one-sided changes; merge both-sided ones; hold
 *      conflicts back (only their own note); the fail-safe; plan limits; case collisions
 *   5. journal the pushes, commit them split by the server's change quota
 *   6. write locally what came down (backed up first), then save the baseline, drop the journal
 *
 * A crash at any step leaves files from which the next round converges without losing an edit.
 */

const MASS_DELETE_MIN = 10;

interface PushPlan {
  id: string;
  /** Local version when planned (null: deleted here). */
  localBefore: string | null;
  /** The version pushed (null: a delete). */
  hash: string | null;
  content: string | null;
  /** The cloud's hash we build on (the commit's baseHash). */
  cloudHash: string | null;
  /** After the commit this must be written here too (a merge result). */
  writeLocally: Note | null;
  create: boolean;
}

/** Pushing this computer's version (L, null: deleted here) over the cloud's C. */
function pushOfLocal(
  id: string,
  L: string | null,
  local: StoredNote | undefined,
  C: string | null,
): PushPlan {
  if (L === null)
    return {
      id,
      localBefore: null,
      hash: null,
      content: null,
      cloudHash: C,
      writeLocally: null,
      create: false,
    };
  return {
    id,
    localBefore: L,
    hash: L,
    content: contentOfStored(local!),
    cloudHash: C,
    writeLocally: null,
    create: C === null,
  };
}

interface PullPlan {
  id: string;
  localHash: string | null;
  cloudHash: string | null;
  note: Note | null;
  content: string | null;
  reason: 'pull' | 'tombstone' | 'gone';
}

export async function runRound(svc: SyncService, ctx: RoundContext): Promise<RoundResult> {
  svc.lastRound = null;
  const gate = await svc.gate();
  if (!gate.ok) {
    svc.error =
      gate.reason === 'signed_out'
        ? {
            code: 'signed_out',
            message: scoped(svc.scope, 'not signed in to a sync server; notes stay on this computer'),
            scope: svc.scope,
          }
        : null;
    return { outcome: 'blocked' };
  }
  const { account } = gate;
  const { signal } = ctx;

  // 1. Identity, binding, protocol.
  const identity = await account.identity(signal, ctx.beforeRequest);
  svc.limits = identity.limits;
  const target = await svc.targets.get(svc.keyHash);
  if (!(await svc.enabled())) return { outcome: 'blocked' };
  if (
    target?.userId &&
    target.origin &&
    (target.userId !== identity.userId || target.origin !== account.origin)
  ) {
    svc.error = {
      code: 'account_mismatch',
      message: scoped(
        svc.scope,
        `these notes were synced as ${target.userId} on ${target.origin}; you are signed in as ${identity.userId} on ${account.origin}. Sync is paused so notes of two accounts never mix — sign in with the first account again.`,
      ),
      scope: svc.scope,
    };
    return { outcome: 'blocked' };
  }
  if (
    identity.protocol.min > SyncService.protocolFor(identity.protocol.current) ||
    identity.protocol.min > 2
  ) {
    svc.error = {
      code: 'client_too_old',
      message: scoped(
        svc.scope,
        `the sync server needs protocol ${identity.protocol.min} or newer; upgrade Memory Desk`,
      ),
      scope: svc.scope,
    };
    return { outcome: 'blocked' };
  }
  const protocol = SyncService.protocolFor(identity.protocol.current);
  if (protocol < 2 && svc.scope === 'user') {
    svc.error = {
      code: 'server_too_old',
      message: scoped(
        svc.scope,
        'the sync server is too old to sync your own notes; upgrade the sync server (project notes without a type still sync)',
      ),
      scope: svc.scope,
    };
    return { outcome: 'blocked' };
  }
  account.client.protocolVersion = protocol;
  if (!target?.userId)
    await svc.targets.bind(svc.keyHash, { userId: identity.userId, origin: account.origin });

  const state = await svc.baselines.loadState();
  const binding = { userId: identity.userId, origin: account.origin };
  if (state.boundTo && (state.boundTo.userId !== binding.userId || state.boundTo.origin !== binding.origin)) {
    // A baseline from another account (only after its binding was removed by hand): start over.
    state.manifest = { version: null, entries: {} };
    state.base = {};
  }
  state.boundTo = binding;
  const conflicts = await svc.baselines.loadConflicts();
  await svc.store.load();
  const locals = new Map<string, StoredNote>();
  for (const note of svc.store.list()) locals.set(note.id, note);

  // 2. Snapshot.
  const journal = await svc.baselines.loadJournal();
  const sinceVersion = state.manifest.version;
  const have = new Set<string>();
  if (sinceVersion === null) {
    for (const n of locals.values()) have.add(n.hash);
    for (const h of Object.values(state.base)) have.add(h);
  } else {
    for (const n of locals.values()) if (state.base[n.id] !== n.hash) have.add(n.hash);
    for (const p of journal?.pushes ?? []) if (p.pushed) have.add(p.pushed);
  }
  const objects = new Map<string, string>();
  let listing: 'unchanged' | 'changes' | 'full';
  let version: number;
  let activeCloud: number | null = null;
  const seen = new Map<string, SyncEntry>();
  for (let attempt = 0; ; attempt++) {
    seen.clear();
    objects.clear();
    let cursor: string | null = null;
    try {
      do {
        await ctx.beforeRequest();
        const page = await account.client.snapshot(
          { scope: svc.protocolScope, sinceVersion, have: [...have].slice(0, 20_000), cursor },
          signal,
        );
        svc.limits = page.limits;
        version = page.version;
        if (page.status === 'unchanged') {
          listing = 'unchanged';
          cursor = null;
          break;
        }
        listing = page.status;
        activeCloud = page.activeNotes;
        for (const e of page.entries) seen.set(e.id, e);
        for (const o of page.objects) rememberObject(objects, o);
        cursor = page.nextCursor;
      } while (cursor !== null);
      break;
    } catch (err) {
      if (err instanceof SyncRequestError && err.failure === 'cursor_expired' && attempt < 3) continue;
      throw err;
    }
  }
  let entries: Record<string, SyncEntry>;
  if (listing === 'full') entries = Object.fromEntries(seen);
  else entries = { ...state.manifest.entries, ...Object.fromEntries(seen) };
  if (activeCloud === null) activeCloud = Object.values(entries).filter((e) => e.hash !== null).length;

  const cloudContent = async (hash: string): Promise<string | null> => {
    const fromResponse = objects.get(hash);
    if (fromResponse !== undefined) return fromResponse;
    const stored = await svc.baselines.getObject(hash);
    if (stored !== null) return stored;
    for (const n of locals.values()) if (n.hash === hash) return contentOfStored(n);
    return null;
  };

  const t = svc.now();
  const counts: PullCounts = { added: 0, changed: 0, deleted: 0 };
  const notices: string[] = [];
  let missingBodies = false;

  // 3. Recover a previous round's journal: pushes the cloud accepted but this computer may not have
  //    written (a crash, or an answer lost after the server committed).
  if (journal) {
    for (const p of journal.pushes) {
      const cloudHash = entries[p.id]?.hash ?? null;
      if (cloudHash !== p.pushed) continue; // not committed (or changed again since): plan as usual
      const local = locals.get(p.id);
      const localHash = local?.hash ?? null;
      if (localHash === p.pushed) {
        setBase(state.base, p.id, p.pushed);
      } else if (localHash === p.localBefore && p.pushed !== null) {
        const text = await svc.baselines.getObject(p.pushed);
        const note = text === null ? null : noteFromContent(text, t);
        if (note) {
          const written = await writeLocal(svc, note, localHash, null);
          if (written) {
            locals.set(p.id, written);
            setBase(state.base, p.id, p.pushed);
          }
        }
      } else if (p.localBefore !== null && (await svc.baselines.hasObject(p.localBefore))) {
        // Edited again here since: the version this computer pushed from is a common ancestor.
        state.base[p.id] = p.localBefore;
      }
    }
  }

  // 4. Plan.
  const pushes: PushPlan[] = [];
  const pulls: PullPlan[] = [];
  const newConflicts: Record<string, ConflictRecord> = {};
  const ids = new Set<string>([...locals.keys(), ...Object.keys(state.base), ...Object.keys(entries)]);
  const localKeys = new Map<string, string>();
  for (const id of locals.keys()) localKeys.set(noteIdKey(id), id);
  const cloudKeys = new Map<string, string>();
  for (const e of Object.values(entries)) if (e.hash !== null) cloudKeys.set(noteIdKey(e.id), e.id);
  const limits = svc.limits ? effectiveLimits(svc.limits) : null;
  const typedBlocked = protocol < 2;

  const conflict = async (
    id: string,
    kind: ConflictKind,
    message: string,
    base: string | null,
    local: StoredNote | undefined,
    cloudHash: string | null,
    cloudText: string | null,
  ): Promise<void> => {
    if (local) await svc.baselines.putObject(local.hash, contentOfStored(local));
    if (cloudHash && cloudText !== null) await svc.baselines.putObject(cloudHash, cloudText);
    const previous = conflicts[id];
    const localHash = local?.hash ?? null;
    const same =
      previous &&
      previous.localHash === localHash &&
      previous.cloudHash === cloudHash &&
      previous.baseHash === base;
    newConflicts[id] = same
      ? previous
      : { id, kind, message, detectedAt: t, baseHash: base, localHash, cloudHash };
  };

  for (const id of [...ids].sort()) {
    const local = locals.get(id);
    const L = local?.hash ?? null;
    const B = state.base[id] ?? null;
    const entry = entries[id];
    const C = entry?.hash ?? null;
    const gone = B !== null && entry === undefined;

    if (L === C) {
      setBase(state.base, id, L);
      if (L !== null && !(await svc.baselines.hasObject(L)))
        await svc.baselines.putObject(L, contentOfStored(local!));
      continue;
    }
    if (typedBlocked && ((local && local.type !== undefined) || entry?.typed)) {
      notices.push(
        scoped(
          svc.scope,
          `"${id}" has a type, which this old sync server cannot hold; it stays on this computer until the server is upgraded`,
        ),
      );
      continue;
    }
    if (gone) {
      if (L === B)
        pulls.push({ id, localHash: L, cloudHash: null, note: null, content: null, reason: 'gone' });
      else
        await conflict(
          id,
          'expired_tombstone',
          scoped(
            svc.scope,
            `"${id}" was deleted on another device long ago (its record expired in the cloud), but it was edited here since`,
          ),
          B,
          local,
          null,
          null,
        );
      continue;
    }
    if (L === B) {
      // Only the cloud changed.
      if (C === null) {
        pulls.push({ id, localHash: L, cloudHash: null, note: null, content: null, reason: 'tombstone' });
      } else {
        const text = await cloudContent(C);
        if (text === null) {
          missingBodies = true;
          continue;
        }
        const note = noteFromContent(text, t);
        if (!note || note.id !== id) {
          notices.push(
            scoped(svc.scope, `the cloud's version of "${id}" cannot be read; it is left as it is here`),
          );
          continue;
        }
        const otherLocal = localKeys.get(noteIdKey(id));
        if (L === null && otherLocal !== undefined && otherLocal !== id) {
          notices.push(
            scoped(
              svc.scope,
              `"${id}" from the cloud is not written here: "${otherLocal}" differs only in case, and macOS and Windows cannot hold both — rename one`,
            ),
          );
          continue;
        }
        pulls.push({ id, localHash: L, cloudHash: C, note, content: text, reason: 'pull' });
      }
      continue;
    }
    if (C === B) {
      // Only this computer changed.
      pushes.push(pushOfLocal(id, L, local, C));
      continue;
    }
    // Both changed, differently.
    const cloudText = C === null ? null : await cloudContent(C);
    if (C !== null && cloudText === null) {
      missingBodies = true;
      continue;
    }
    const cloudNote = cloudText === null ? null : noteFromContent(cloudText, t);
    if (C !== null && !cloudNote) {
      notices.push(
        scoped(svc.scope, `the cloud's version of "${id}" cannot be read; it is left as it is here`),
      );
      continue;
    }
    const baseText = B === null ? null : await svc.baselines.getObject(B);
    const baseNote = baseText === null ? null : noteFromContent(baseText, t);
    if (B !== null && local && cloudNote && !baseNote) {
      await conflict(
        id,
        'no_base',
        scoped(
          svc.scope,
          `"${id}" changed here and in the cloud, and the copy of its last synced version is missing`,
        ),
        B,
        local,
        C,
        cloudText,
      );
      continue;
    }
    const result = mergeNote(
      baseNote && contentFields(baseNote),
      local ? contentFields(local) : null,
      cloudNote && contentFields(cloudNote),
      svc.mergeOptions(),
    );
    switch (result.kind) {
      case 'unchanged':
        setBase(state.base, id, L);
        break;
      case 'take-local':
        pushes.push(pushOfLocal(id, L, local, C));
        break;
      case 'take-cloud':
        pulls.push({
          id,
          localHash: L,
          cloudHash: C,
          note: cloudNote,
          content: cloudText,
          reason: C === null ? 'tombstone' : 'pull',
        });
        break;
      case 'merged': {
        const merged: Note = {
          id,
          ...result.content,
          createdAt: Math.min(local!.createdAt, cloudNote!.createdAt),
          updatedAt: Math.max(t, local!.updatedAt, cloudNote!.updatedAt),
          ...((local!.extra ?? cloudNote!.extra) ? { extra: local!.extra ?? cloudNote!.extra } : {}),
        };
        const stored = await svc.store.readRaw(id);
        // Both versions are backed up before a merge.
        await svc.backups.backup({
          noteId: id,
          content: stored ?? contentOfStored(local!),
          reason: 'sync: before merging with the cloud’s version (this computer’s version)',
          originDir: svc.store.dir,
          scope: svc.scope,
          summary: local!.summary,
        });
        await svc.backups.backup({
          noteId: id,
          content: cloudText!,
          reason: 'sync: before merging with this computer’s version (the cloud’s version)',
          originDir: svc.store.dir,
          scope: svc.scope,
          summary: cloudNote!.summary,
        });
        const content = serializeNote(merged);
        const hash = contentHash(merged);
        await svc.baselines.putObject(L!, contentOfStored(local!));
        if (limits && utf8Bytes(content) > limits.noteBytes) {
          await conflict(
            id,
            'too_big',
            scoped(
              svc.scope,
              `merging "${id}" would make it larger than the sync plan allows (${limits.noteBytes} bytes)`,
            ),
            B,
            local,
            C,
            cloudText,
          );
          break;
        }
        pushes.push({ id, localBefore: L, hash, content, cloudHash: C, writeLocally: merged, create: false });
        break;
      }
      case 'conflict': {
        const kind: ConflictKind = result.reasons.includes('too_large')
          ? 'too_big'
          : result.reasons.includes('no_base')
            ? 'no_base'
            : 'both_changed';
        const what = result.reasons.map((r) =>
          r === 'body'
            ? 'the same or adjacent lines of the text'
            : r === 'too_large'
              ? 'a merge too big for the plan'
              : r === 'no_base'
                ? 'no copy of the last synced version'
                : `two different ${r === 'summary' ? 'summaries' : 'types'}`,
        );
        await conflict(
          id,
          kind,
          scoped(svc.scope, `"${id}" changed here and in the cloud: ${what.join(', ')}`),
          B,
          local,
          C,
          cloudText,
        );
        break;
      }
    }
  }

  // Fail-safe: a pull that would delete more than half of the scope's notes (and more than 10) asks first.
  const deletions = pulls.filter((p) => p.note === null && p.localHash !== null);
  const decision = svc.deleteDecision;
  svc.deleteDecision = null;
  if (deletions.length > MASS_DELETE_MIN && deletions.length > locals.size / 2 && decision !== 'delete') {
    if (decision === 'keep') {
      // Keep them: they are uploaded again, as notes this computer has and the cloud does not.
      for (const p of deletions) {
        const local = locals.get(p.id)!;
        delete state.base[p.id];
        pushes.push({
          id: p.id,
          localBefore: local.hash,
          hash: local.hash,
          content: contentOfStored(local),
          cloudHash: null,
          writeLocally: null,
          create: true,
        });
      }
      svc.pendingDeletes = null;
    } else {
      svc.pendingDeletes = { ids: deletions.map((p) => p.id), total: locals.size };
    }
    const held = new Set(deletions.map((p) => p.id));
    for (let i = pulls.length - 1; i >= 0; i--) if (held.has(pulls[i]!.id)) pulls.splice(i, 1);
  } else {
    svc.pendingDeletes = null;
  }

  // Uploads held back: case collisions, sizes, the plan's note count.
  const accepted: PushPlan[] = [];
  let creates = 0;
  let overPlan = 0;
  for (const p of pushes) {
    if (p.hash !== null && p.content !== null) {
      const otherCloud = cloudKeys.get(noteIdKey(p.id));
      if (p.create && otherCloud !== undefined && otherCloud !== p.id) {
        notices.push(
          scoped(
            svc.scope,
            `"${p.id}" is not uploaded: the cloud has "${otherCloud}", which differs only in case, and macOS and Windows cannot hold both — rename one`,
          ),
        );
        continue;
      }
      if (limits && utf8Bytes(p.content) > limits.noteBytes) {
        notices.push(
          scoped(
            svc.scope,
            `"${p.id}" is larger than the sync ${svc.limits?.plan === 'free' ? 'plan' : 'server'} allows (${limits.noteBytes} bytes); it stays on this computer only`,
          ),
        );
        continue;
      }
      if (p.create && limits) {
        if (activeCloud + creates >= limits.notesPerScope) {
          overPlan++;
          continue;
        }
        creates++;
      }
    }
    accepted.push(p);
  }
  if (overPlan > 0 && limits) {
    notices.push(
      scoped(
        svc.scope,
        svc.limits?.plan === 'free'
          ? `your free plan syncs up to ${limits.notesPerScope} notes here; ${overPlan} new note(s) stay on this computer only (every note is kept here; deleting always works)`
          : `the sync server holds up to ${limits.notesPerScope} notes here; ${overPlan} new note(s) stay on this computer only`,
      ),
    );
  }

  // 5. Journal, then commit in chunks of the server's change quota.
  let pushed = 0;
  const localWrites: Array<{ id: string; note: Note; localBefore: string | null; hash: string }> = [];
  // When nobody else committed between our commits, the manifest version after them is known.
  let versionTracked: number | null = version;
  let rerun = false;
  if (accepted.length > 0) {
    await svc.baselines.putObjects(
      accepted.flatMap((p) =>
        p.hash !== null && p.content !== null ? [{ hash: p.hash, content: p.content }] : [],
      ),
    );
    const j: Journal = {
      startedAt: t,
      version,
      pushes: [
        ...accepted.map((p) => ({ id: p.id, localBefore: p.localBefore, pushed: p.hash })),
        // A previous journal's entries stay until this round's state is saved (recovery is idempotent).
        ...(journal?.pushes.filter((old) => !accepted.some((p) => p.id === old.id)) ?? []),
      ],
    };
    await svc.baselines.saveJournal(j);
    let chunkSize = svc.limits?.quota.changesPerCommit ?? 500;
    let queue = [...accepted];
    while (queue.length > 0) {
      const chunk = queue.slice(0, chunkSize);
      const puts: CommitPut[] = [];
      const deletes: CommitDelete[] = [];
      for (const p of chunk) {
        if (p.hash !== null)
          puts.push({ id: p.id, baseHash: p.cloudHash, hash: p.hash, content: p.content! });
        else if (p.cloudHash !== null) deletes.push({ id: p.id, baseHash: p.cloudHash });
      }
      let response;
      try {
        await ctx.beforeRequest();
        response = await account.client.commit({ scope: svc.protocolScope, puts, deletes }, signal);
      } catch (err) {
        if (err instanceof SyncRequestError && err.failure === 'too_many_changes' && chunkSize > 1) {
          chunkSize = Math.max(
            1,
            Math.min(
              err.limits?.quota.changesPerCommit ?? Math.floor(chunkSize / 2),
              Math.floor(chunkSize / 2),
            ),
          );
          continue;
        }
        throw err;
      }
      queue = queue.slice(chunk.length);
      svc.limits = response.limits;
      chunkSize = response.limits.quota.changesPerCommit;
      const anyChanged = response.applied.some((a) => !a.unchanged);
      if (versionTracked !== null)
        versionTracked = response.version === versionTracked + (anyChanged ? 1 : 0) ? response.version : null;
      const byId = new Map(chunk.map((p) => [p.id, p]));
      for (const a of response.applied) {
        const p = byId.get(a.id);
        if (!p) continue;
        if (a.entry) entries[a.id] = a.entry;
        else delete entries[a.id];
        setBase(state.base, a.id, p.hash);
        if (!a.unchanged) pushed++;
        if (p.writeLocally && p.hash)
          localWrites.push({ id: p.id, note: p.writeLocally, localBefore: p.localBefore, hash: p.hash });
      }
      for (const r of response.rejected) {
        if (r.current) entries[r.id] = r.current;
        switch (r.code) {
          case 'stale_base':
            rerun = true; // changed in the cloud meanwhile: the next round merges
            break;
          case 'scope_full':
          case 'plan_scope_full':
          case 'plan_note_too_large':
          case 'note_too_large':
            notices.push(scoped(svc.scope, `"${r.id}" stays on this computer only: ${r.message}`));
            break;
          default:
            notices.push(scoped(svc.scope, `"${r.id}" was not uploaded: ${r.message}`));
        }
      }
    }
    await svc.hooks.afterCommit?.(svc);
  }

  // 6. Local writes: merge results, then what came down from the cloud (backed up first).
  for (const w of localWrites) {
    const written = await writeLocal(svc, w.note, w.localBefore, null);
    // Changed here meanwhile: the version the merge started from is the common ancestor now.
    if (!written) state.base[w.id] = w.localBefore!;
  }
  const pulledObjects: Array<{ hash: string; content: string }> = [];
  for (const p of pulls) {
    if (p.note && p.content !== null && p.cloudHash !== null) {
      const written = await writeLocal(
        svc,
        p.note,
        p.localHash,
        p.localHash === null ? null : 'sync: an automatic pull replaced it with the cloud’s version',
      );
      if (!written) continue;
      pulledObjects.push({ hash: p.cloudHash, content: p.content });
      setBase(state.base, p.id, p.cloudHash);
      if (p.localHash === null) counts.added++;
      else counts.changed++;
    } else if (p.localHash !== null) {
      const reason =
        p.reason === 'gone'
          ? 'sync: gone from the cloud after the tombstone window (unchanged here)'
          : 'sync: deleted on another device';
      const deleted = await deleteLocal(svc, p.id, p.localHash, reason);
      if (!deleted) continue;
      setBase(state.base, p.id, null);
      counts.deleted++;
    } else {
      setBase(state.base, p.id, null);
    }
  }

  // Baseline copies first, then the state that names them.
  await svc.baselines.putObjects(pulledObjects);

  // Save: the baseline, conflicts, then drop the journal and unreferenced objects.
  const anything = counts.added + counts.changed + counts.deleted > 0;
  const complete = !missingBodies;
  // Bodies we need were not sent (a baseline copy went missing): list in full next time.
  state.manifest = { version: complete ? (versionTracked ?? version) : null, entries };
  state.lastSyncedAt = svc.now();
  if (anything) state.lastPull = { ...counts, at: state.lastSyncedAt };
  await svc.baselines.saveState(state);
  const changedConflicts = JSON.stringify(conflicts) !== JSON.stringify(newConflicts);
  if (changedConflicts) await svc.baselines.saveConflicts(newConflicts);
  if (journal || accepted.length > 0) await svc.baselines.clearJournal();
  if (accepted.length > 0 || anything || changedConflicts || journal) {
    const keep = new Set<string>(Object.values(state.base));
    for (const c of Object.values(newConflicts))
      for (const h of [c.baseHash, c.localHash, c.cloudHash]) if (h) keep.add(h);
    await svc.baselines.collectGarbage(keep);
  }

  svc.notices = notices;
  svc.error = svc.pendingDeletes
    ? {
        code: 'confirm_deletes',
        message: scoped(
          svc.scope,
          `the cloud says ${svc.pendingDeletes.ids.length} of ${svc.pendingDeletes.total} notes were deleted on another device. Nothing was deleted here: confirm to delete them, or keep them (they are uploaded again).`,
        ),
        scope: svc.scope,
      }
    : null;
  svc.lastRound = { pulled: counts, pushed, conflicts: Object.keys(newConflicts).sort(), error: svc.error };
  const changed = anything || pushed > 0 || listing !== 'unchanged';
  if (rerun || missingBodies) return { outcome: 'ok', changed: true };
  return { outcome: 'ok', changed };
}

function setBase(base: Record<string, string>, id: string, hash: string | null): void {
  if (hash === null) delete base[id];
  else base[id] = hash;
}

function rememberObject(objects: Map<string, string>, o: SyncObject): void {
  objects.set(o.hash, o.content);
}

/** Writes a note unless this computer's version changed since it was read (then: false). */
async function writeLocal(
  svc: SyncService,
  note: Note,
  expected: string | null,
  backupReason: string | null,
): Promise<StoredNote | null> {
  // Recorded before the write: the store announces the change before write() returns.
  svc.selfWrites.set(note.id, contentHash(note));
  try {
    return await svc.store.write(note, {
      expectedHash: expected,
      ...(backupReason ? { backupReason } : {}),
      ignoreNoteLimit: true,
    });
  } catch (err) {
    svc.selfWrites.delete(note.id);
    if (
      err instanceof AppError &&
      (err.code === 'conflict' || err.code === 'limit_exceeded' || err.code === 'invalid_input')
    ) {
      if (err.code !== 'conflict')
        svc.notices.push(
          scoped(svc.scope, `"${note.id}" from the cloud is not written here: ${err.message}`),
        );
      return null;
    }
    throw err;
  }
}

async function deleteLocal(svc: SyncService, id: string, expected: string, reason: string): Promise<boolean> {
  svc.selfWrites.set(id, null);
  try {
    await svc.store.delete(id, { backupReason: reason, expectedHash: expected });
    return true;
  } catch (err) {
    svc.selfWrites.delete(id);
    if (err instanceof AppError && (err.code === 'conflict' || err.code === 'not_found')) return false;
    throw err;
  }
}
