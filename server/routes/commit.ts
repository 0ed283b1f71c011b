import type { z } from 'zod';
import { contentHash, legacyContentHash } from '../../shared/content-hash.js';
import { parseNote } from '../../shared/note-format.js';
import { sealedContentLength } from '../../shared/sealed-size.js';
import { NOTE_FRONTMATTER_BYTES } from '../../shared/commit-body.js';
import { noteIdKey, noteIdProblem } from '../../shared/note-id.js';
import type { CommitRequestSchema } from '../../shared/sync-protocol.js';
import {
  type CommitApplied,
  type CommitRejected,
  type CommitRejectionCode,
  type CommitResponse,
  type SyncEntry,
} from '../../shared/sync-protocol.js';
import { type Caller, type ServerDeps, scopeLabel } from '../context.js';
import {
  activeCount,
  headOf,
  manifestJsonParts,
  nextHeads,
  pruneTombstones,
  type StoredManifest,
} from '../manifest.js';
import { eraseMarkerKey, manifestKey, scopePrefix } from '../storage-keys.js';
import { revisionIdsFor, writeRevisions } from '../revisions.js';
import { PreconditionFailedError } from '../storage/storage.js';
import { SyncError } from '../sync-error.js';
import { requireProtocolForScope } from './protocol-rules.js';

type CommitRequest = z.output<typeof CommitRequestSchema>;
type Put = CommitRequest['puts'][number];
type Delete = CommitRequest['deletes'][number];

interface CheckedPut {
  put: Put;
  /** UTF-8 bytes of the whole content (what a snapshot pages by). */
  size: number;
  /** UTF-8 bytes of the body: what the note size limits measure, here and on the client. */
  bodyBytes: number;
  typed: boolean;
  /** Given once every put is checked (`revisionIdsFor`: a pack's places, or one object id each). */
  rev: string;
  /** Sealed: sizes are of the sealed text, limited by `sealedContentLength`. */
  sealed?: true;
}
type UnnumberedPut = Omit<CheckedPut, 'rev'>;

/**
 * Applies a batch of puts and deletes to one scope. Each note is checked against its base hash
 * on its own (a stale one is rejected with its id, the rest applied); `strict` batches are all or
 * nothing and also require the manifest to be at the version the client checked. Revisions are
 * written first (immutable, never overwritten; server/revisions.ts), then the manifest is replaced
 * with ETag compare-and-swap; a lost race re-reads the manifest and re-checks every note.
 */
export async function commit(
  deps: ServerDeps,
  caller: Caller,
  request: CommitRequest,
): Promise<CommitResponse> {
  requireProtocolForScope(caller, request.scope);
  const changes = request.puts.length + request.deletes.length;
  if (changes > deps.quotas.changesPerCommit) {
    throw new SyncError(
      'too_many_changes',
      `A commit may carry at most ${deps.quotas.changesPerCommit} changes; this one has ${changes}. Split it.`,
      { max: deps.quotas.changesPerCommit, got: changes },
    );
  }

  // Checks that do not depend on the manifest, done once.
  const early: CommitRejected[] = [];
  const seen = new Set<string>();
  const reject = (id: string, op: 'put' | 'delete', code: CommitRejectionCode, message: string): void => {
    early.push({ id, op, code, message, current: null });
  };
  const deletes: Delete[] = [];
  const deletedIds = new Set<string>();
  for (const del of request.deletes) {
    const problem = noteIdProblem(del.id) ?? sealedMetaProblem(request.sealed, del.meta);
    if (problem) reject(del.id, 'delete', 'invalid_id', `Note id "${del.id}" is not valid: ${problem}.`);
    else if (seen.has(noteIdKey(del.id)))
      reject(del.id, 'delete', 'duplicate_id', `Note ${del.id} appears twice in this commit.`);
    else {
      seen.add(noteIdKey(del.id));
      deletedIds.add(del.id);
      deletes.push(del);
    }
  }
  // A delete and a put whose ids differ only in case renames the note's file: allowed.
  seen.clear();
  const accepted: UnnumberedPut[] = [];
  for (const put of request.puts) {
    const problem = noteIdProblem(put.id);
    if (problem) {
      reject(put.id, 'put', 'invalid_id', `Note id "${put.id}" is not valid: ${problem}.`);
      continue;
    }
    if (seen.has(noteIdKey(put.id)) || deletedIds.has(put.id)) {
      reject(
        put.id,
        'put',
        'duplicate_id',
        `Note ${put.id} appears twice in this commit (ids are compared ignoring case).`,
      );
      continue;
    }
    if (!request.sealed && put.meta !== undefined) {
      reject(put.id, 'put', 'invalid_note', `Note ${put.id}: meta is only for sealed scopes.`);
      continue;
    }
    if (request.sealed) {
      const checked = checkSealedPut(put);
      if ('code' in checked) reject(put.id, 'put', checked.code, checked.message);
      else {
        seen.add(noteIdKey(put.id));
        accepted.push(checked);
      }
      continue;
    }
    const parsed = parseNote(put.content);
    if (!parsed.ok) {
      reject(put.id, 'put', 'invalid_note', `Note ${put.id} cannot be read: ${parsed.reason}.`);
      continue;
    }
    if (parsed.note.id !== put.id) {
      reject(
        put.id,
        'put',
        'invalid_note',
        `Note ${put.id} names itself "${parsed.note.id}" in its frontmatter.`,
      );
      continue;
    }
    const actual = contentHash(parsed.note);
    // The hash from before foreign frontmatter keys were hashed is accepted too (older clients).
    if (actual !== put.hash && legacyContentHash(parsed.note) !== put.hash) {
      reject(
        put.id,
        'put',
        'hash_mismatch',
        `Note ${put.id}'s content hashes to ${actual}, not the ${put.hash} that was sent.`,
      );
      continue;
    }
    const typed = parsed.note.type !== undefined;
    if (typed && caller.protocol < 2) {
      throw new SyncError(
        'upgrade_required',
        `Note ${put.id} has a type, which this version of the app cannot sync. Update the app.`,
        deps.protocol,
      );
    }
    seen.add(noteIdKey(put.id));
    const size = Buffer.byteLength(put.content, 'utf8');
    const bodyBytes = Buffer.byteLength(parsed.note.body, 'utf8');
    if (size - bodyBytes > NOTE_FRONTMATTER_BYTES) {
      reject(
        put.id,
        'put',
        'note_too_large',
        `Note ${put.id}'s frontmatter is ${size - bodyBytes} bytes; this sync server accepts at most ${NOTE_FRONTMATTER_BYTES}.`,
      );
      continue;
    }
    accepted.push({ put, size, bodyBytes, typed });
  }
  const revisions = revisionIdsFor(accepted.map((checked) => checked.put.hash));
  const puts: CheckedPut[] = accepted.map((checked, index) => ({ ...checked, rev: revisions[index]! }));
  const toStore = puts.map((checked) => ({
    id: checked.put.id,
    content: checked.put.content,
    rev: checked.rev,
  }));
  const where = { sub: caller.sub, scope: request.scope, sealed: request.sealed };

  const key = manifestKey(caller.sub, request.scope, request.sealed);
  return deps.scopeLock.run(`${scopePrefix(caller.sub, request.scope, request.sealed)}`, async () => {
    const written = new Set<string>();
    for (let attempt = 1; ; attempt++) {
      const loaded = await deps.manifests.load(key);
      const now = deps.now();
      const base = pruneTombstones(loaded.manifest, now, deps.quotas.tombstoneDays);
      if (request.strict && base.version !== request.strict.manifestVersion) {
        throw new SyncError(
          'manifest_changed',
          `The ${scopeLabel(request.scope)} changed since version ${request.strict.manifestVersion} (now ${base.version}); nothing was applied. Sync and try again.`,
          { currentVersion: base.version, rejected: [] },
        );
      }
      const plan = planCommit(base, deletes, puts, caller, deps, now);
      const rejected = [...early, ...plan.rejected];
      if (request.strict && rejected.length > 0) {
        throw new SyncError(
          'batch_rejected',
          `${rejected.length} note(s) of this batch could not be applied, so none were. Sync and try again.`,
          { currentVersion: base.version, rejected },
        );
      }
      if (!plan.changed) {
        return {
          version: base.version,
          ...headOf(base),
          activeNotes: activeCount(base.entries),
          applied: plan.applied,
          rejected,
          limits: caller.limits,
        };
      }

      const planned = new Set(plan.writes.map((checked) => checked.rev));
      const pending = toStore.filter((revision) => planned.has(revision.rev) && !written.has(revision.rev));
      for (const rev of await writeRevisions(deps.storage, where, toStore, pending)) written.add(rev);
      // An erase that started while we were writing wins: do not publish a manifest after it.
      if (await deps.storage.get(eraseMarkerKey(caller.sub))) {
        throw new SyncError(
          'account_erased',
          'This account has been deleted; its notes can no longer be synced.',
        );
      }
      try {
        const published = await deps.storage.put(
          key,
          manifestJsonParts(plan.manifest),
          loaded.etag === null ? { ifNoneMatch: '*' } : { ifMatch: loaded.etag },
        );
        deps.manifests.remember(key, plan.manifest, published.etag);
      } catch (err) {
        if (!(err instanceof PreconditionFailedError)) throw err;
        if (attempt >= deps.maxCasAttempts) {
          throw new SyncError(
            'busy',
            `The ${scopeLabel(request.scope)} is being changed by many devices at once; try again shortly.`,
            undefined,
            {
              'retry-after': '1',
            },
          );
        }
        await sleep(Math.random() * Math.min(200, 5 * attempt));
        continue;
      }
      return {
        version: plan.manifest.version,
        ...headOf(plan.manifest),
        activeNotes: activeCount(plan.manifest.entries),
        applied: plan.applied,
        rejected,
        limits: caller.limits,
      };
    }
  });
}

interface CommitPlan {
  manifest: StoredManifest;
  changed: boolean;
  applied: CommitApplied[];
  rejected: CommitRejected[];
  writes: CheckedPut[];
}

/** Decides every note against one manifest; pure, so a lost race simply plans again. */
function planCommit(
  base: StoredManifest,
  deletes: Delete[],
  puts: CheckedPut[],
  caller: Caller,
  deps: ServerDeps,
  now: number,
): CommitPlan {
  const entries = new Map(base.entries.map((entry) => [entry.id, entry]));
  const byKey = new Map<string, string>();
  for (const entry of base.entries) if (entry.hash !== null) byKey.set(noteIdKey(entry.id), entry.id);
  const version = base.version + 1;
  let active = activeCount(base.entries);
  let changed = false;
  const applied: CommitApplied[] = [];
  const rejected: CommitRejected[] = [];
  const writes: CheckedPut[] = [];
  const quota = caller.limits.quota;
  const planLimits = caller.limits.planLimits;

  // Deletes first: they always pass a quota, and they make room for the puts.
  for (const del of deletes) {
    const current = entries.get(del.id) ?? null;
    if (current === null || current.hash === null) {
      applied.push({ id: del.id, op: 'delete', entry: current, unchanged: true });
    } else if (current.hash !== del.baseHash) {
      rejected.push({
        id: del.id,
        op: 'delete',
        code: 'stale_base',
        message: `Note ${del.id} changed since this device last synced it; it was not deleted.`,
        current,
      });
    } else {
      const tombstone: SyncEntry = {
        id: del.id,
        hash: null,
        rev: null,
        seq: version,
        size: 0,
        deletedAt: now,
        replaced: current.hash,
        ...(del.meta !== undefined ? { meta: del.meta } : {}),
      };
      entries.set(del.id, tombstone);
      byKey.delete(noteIdKey(del.id));
      active--;
      changed = true;
      applied.push({ id: del.id, op: 'delete', entry: tombstone, unchanged: false });
    }
  }

  for (const checked of puts) {
    const { put, size, bodyBytes } = checked;
    const current = entries.get(put.id) ?? null;
    const isActive = current !== null && current.hash !== null;
    const refuse = (code: CommitRejectionCode, message: string): void => {
      rejected.push({ id: put.id, op: 'put', code, message, current });
    };
    if (isActive && current.hash === put.hash) {
      applied.push({ id: put.id, op: 'put', entry: current, unchanged: true });
      continue;
    }
    if ((isActive ? current.hash : null) !== put.baseHash) {
      refuse(
        'stale_base',
        isActive
          ? `Note ${put.id} changed on another device since this one last synced it.`
          : put.baseHash === null
            ? `Note ${put.id} already exists.`
            : `Note ${put.id} was deleted on another device.`,
      );
      continue;
    }
    // Size is the body's; a note already over a lowered limit may still shrink (whole file).
    const grows = !isActive || size > current.size;
    const cap = (noteBytes: number): number =>
      checked.sealed ? sealedContentLength(noteBytes + NOTE_FRONTMATTER_BYTES) : noteBytes;
    if (grows && bodyBytes > cap(quota.noteBytes)) {
      refuse(
        'note_too_large',
        `Note ${put.id}'s body is ${bodyBytes} bytes; this sync server accepts at most ${quota.noteBytes} bytes of body per note.`,
      );
      continue;
    }
    if (grows && planLimits.noteBytes !== null && bodyBytes > cap(planLimits.noteBytes)) {
      refuse(
        'plan_note_too_large',
        `Note ${put.id}'s body is ${bodyBytes} bytes; the free plan syncs notes of at most ${planLimits.noteBytes} bytes of body.`,
      );
      continue;
    }
    if (!isActive) {
      const other = byKey.get(noteIdKey(put.id));
      if (other !== undefined && other !== put.id) {
        refuse(
          'id_case_collision',
          `Note id ${put.id} differs from existing note ${other} only in upper/lower case; macOS and Windows cannot keep both.`,
        );
        continue;
      }
      if (active >= quota.notesPerScope) {
        refuse(
          'scope_full',
          `This sync server keeps at most ${quota.notesPerScope} notes per scope; delete some to add more.`,
        );
        continue;
      }
      if (planLimits.notesPerScope !== null && active >= planLimits.notesPerScope) {
        refuse(
          'plan_scope_full',
          `The free plan syncs at most ${planLimits.notesPerScope} notes per scope; this note stays on this computer only.`,
        );
        continue;
      }
    }
    const entry: SyncEntry = {
      id: put.id,
      hash: put.hash,
      rev: checked.rev,
      seq: version,
      size,
      ...(current?.hash ? { replaced: current.hash } : {}),
      ...(checked.typed ? { typed: true } : {}),
      ...(put.meta !== undefined ? { meta: put.meta } : {}),
    };
    entries.set(put.id, entry);
    byKey.set(noteIdKey(put.id), put.id);
    if (!isActive) active++;
    changed = true;
    writes.push(checked);
    applied.push({ id: put.id, op: 'put', entry, unchanged: false });
  }

  const manifest: StoredManifest = changed
    ? { ...base, version, entries: [...entries.values()], heads: nextHeads(base, version) }
    : base;
  return { manifest, changed, applied, rejected, writes };
}

/**
 * A sealed put (protocol 3) is opaque: it cannot be parsed or hashed here. It must carry its sealed
 * record, be base64url, and stay within the sealed size of a note at the size limit (the client
 * checks the exact body size before sealing); its size is what quotas and paging count.
 */
function checkSealedPut(put: Put): UnnumberedPut | { code: CommitRejectionCode; message: string } {
  const problem = sealedMetaProblem(true, put.meta);
  if (problem) return { code: 'invalid_note', message: `Note ${put.id}: ${problem}.` };
  if (!/^[A-Za-z0-9_-]+$/.test(put.content))
    return { code: 'invalid_note', message: `Note ${put.id}'s sealed content is not base64url.` };
  const size = put.content.length;
  return { put, size, bodyBytes: size, typed: false, sealed: true };
}

function sealedMetaProblem(sealed: boolean, meta: string | undefined): string | null {
  if (sealed && meta === undefined) return 'a sealed change must carry its sealed record (meta)';
  if (!sealed && meta !== undefined) return 'meta is only for sealed scopes';
  return null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
