import { parseNote } from '../../../shared/note-format.js';
import {
  StrictRejectionDetailsSchema,
  type CommitRejected,
  type CommitRequest,
  type CommitResponse,
  type SnapshotRequest,
  type SnapshotResponse,
  type SyncEntry,
  type SyncScope,
} from '../../../shared/sync-protocol.js';
import { SyncHttpClient, SyncRequestError, type SyncHttpClientOptions } from '../http-client.js';
import { keyedHash, keyedNoteId, keyedProjectId, type AccountKeys, type ScopeLabel } from './account-keys.js';
import { systemRandom, type RandomSource } from './bytes.js';
import { EncryptionError } from './errors.js';
import { openObject, openRecord, sealObject, sealRecord } from './sealed-object.js';
import type { SeenVersions } from './seen-versions.js';

/**
 * The codec at the cloud boundary: the same protocol client the sync round uses, but every request
 * is sealed on its way out and every answer opened on its way in, so the round — merges included —
 * keeps working on plaintext notes, ids and hashes, and the server sees only keyed names and
 * sealed bytes (crypto/sealed-object.ts). Anything that fails to open is an EncryptionError
 * (`tampered`, or `rollback` for a manifest older than one seen): the round fails before a note
 * is written.
 */
export class SealedSyncClient extends SyncHttpClient {
  constructor(
    opts: SyncHttpClientOptions,
    private readonly keys: AccountKeys,
    private readonly seen: SeenVersions,
    private readonly random: RandomSource = systemRandom,
  ) {
    super(opts);
  }

  override async snapshot(req: SnapshotRequest, signal?: AbortSignal): Promise<SnapshotResponse> {
    const label = scopeLabel(req.scope);
    const page = await super.snapshot(
      {
        ...req,
        scope: this.sealedScope(req.scope),
        sealed: true,
        have: (req.have ?? []).map((h) => keyedHash(this.keys, label, h)),
      },
      signal,
    );
    await this.seen.observe(label, page.version);
    if (page.status === 'unchanged') return page;
    const entries = page.entries.map((e) => this.openEntry(label, e));
    const objects = page.objects.map((o) => {
      const plain = openObject(this.keys, label, o);
      return { id: plain.id, rev: o.rev, hash: plain.hash, content: plain.content };
    });
    return { ...page, entries, objects };
  }

  override async commit(req: CommitRequest, signal?: AbortSignal): Promise<CommitResponse> {
    const label = scopeLabel(req.scope);
    const realIds = new Map<string, string>();
    const keyed = (id: string): string => {
      const k = keyedNoteId(this.keys, label, id);
      realIds.set(k, id);
      return k;
    };
    const puts = (req.puts ?? []).map((p) => {
      const parsed = parseNote(p.content);
      const typed = parsed.ok && parsed.note.type !== undefined;
      const object = sealObject(
        this.keys,
        label,
        { id: p.id, hash: p.hash, content: p.content },
        this.random,
      );
      const record = sealRecord(
        this.keys,
        label,
        { id: p.id, hash: p.hash, ...(typed ? { typed } : {}) },
        this.random,
      );
      return {
        id: keyed(p.id),
        baseHash: p.baseHash === null ? null : keyedHash(this.keys, label, p.baseHash),
        hash: object.hash,
        content: object.content,
        meta: record.meta,
      };
    });
    const deletes = (req.deletes ?? []).map((d) => ({
      id: keyed(d.id),
      baseHash: keyedHash(this.keys, label, d.baseHash),
      meta: sealRecord(this.keys, label, { id: d.id, hash: null }, this.random).meta,
    }));
    const openRejected = (r: CommitRejected): CommitRejected => ({
      ...r,
      id: realIds.get(r.id) ?? r.id,
      current: r.current && this.openEntry(label, r.current),
    });
    let answer: CommitResponse;
    try {
      answer = await super.commit(
        { scope: this.sealedScope(req.scope), puts, deletes, strict: req.strict ?? null, sealed: true },
        signal,
      );
    } catch (err) {
      const details =
        err instanceof SyncRequestError ? StrictRejectionDetailsSchema.safeParse(err.details) : null;
      if (!(err instanceof SyncRequestError) || !details?.success) throw err;
      throw new SyncRequestError(err.failure, err.message, err.status, err.retryAfterMs, err.limits, {
        ...details.data,
        rejected: details.data.rejected.map(openRejected),
      });
    }
    await this.seen.observe(label, answer.version);
    return {
      ...answer,
      applied: answer.applied.map((a) => ({
        ...a,
        id: realIds.get(a.id) ?? a.id,
        entry: a.entry && this.openEntry(label, a.entry),
      })),
      rejected: answer.rejected.map(openRejected),
    };
  }

  private sealedScope(scope: SyncScope): SyncScope {
    return scope.kind === 'user'
      ? scope
      : { kind: 'project', projectId: keyedProjectId(this.keys, scope.projectId) };
  }

  /** A manifest entry with its real id and hash, after checking its sealed record. */
  private openEntry(label: ScopeLabel, entry: SyncEntry): SyncEntry {
    if (entry.meta === undefined)
      throw new EncryptionError('tampered', 'an entry of the encrypted manifest has no sealed record');
    const record = openRecord(this.keys, label, { id: entry.id, hash: entry.hash, meta: entry.meta });
    const { meta: _meta, typed: _typed, ...rest } = entry;
    return { ...rest, id: record.id, hash: record.hash, ...(record.typed ? { typed: true } : {}) };
  }
}

export function scopeLabel(scope: SyncScope): ScopeLabel {
  return scope.kind === 'user' ? 'user' : `project:${scope.projectId}`;
}
