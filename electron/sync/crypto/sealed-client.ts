import { parseNote } from '../../../shared/note-format.js';
import { commitBodyLimit } from '../../../shared/commit-body.js';
import {
  SNAPSHOT_MAX_HAVE,
  StrictRejectionDetailsSchema,
  type CommitApplied,
  type CommitDelete,
  type CommitPut,
  type CommitRejected,
  type CommitRequest,
  type CommitResponse,
  type SnapshotResponse,
  type SyncEntry,
  type SyncLimits,
  type SyncScope,
} from '../../../shared/sync-protocol.js';
import {
  SyncHttpClient,
  SyncRequestError,
  type SnapshotCall,
  type SyncHttpClientOptions,
} from '../http-client.js';
import { keyedHash, keyedNoteId, keyedProjectId, type AccountKeys, type ScopeLabel } from './account-keys.js';
import { systemRandom, type RandomSource } from './bytes.js';
import { EncryptionError } from './errors.js';
import { openObject, openRecord, sealObject, sealRecord, type EntryRecord } from './sealed-object.js';
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
    /** Told the number of changes after each commit the server took (progress of `encryption on`). */
    private readonly onCommitted: (changes: number) => void = () => {},
  ) {
    super(opts);
  }

  /** The account's limits from the server's last answer (commits are split to fit its body cap). */
  private limits: SyncLimits | null = null;

  override async snapshot(req: SnapshotCall, signal?: AbortSignal): Promise<SnapshotResponse> {
    const label = scopeLabel(req.scope);
    const { held, ...rest } = req;
    const have = new Set((held ?? []).map((h) => keyedHash(this.keys, label, h.id, h.hash)));
    const page = await super.snapshot(
      {
        ...rest,
        scope: this.sealedScope(req.scope),
        sealed: true,
        have: [...have].slice(0, SNAPSHOT_MAX_HAVE),
      },
      signal,
    );
    this.limits = page.limits;
    if (page.status === 'unchanged') {
      await this.seen.observe(label, page.version);
      return page;
    }
    const opened = page.entries.map((e) => this.openEntry(label, e));
    await this.seen.observe(
      label,
      page.version,
      opened.map((o) => o.record),
    );
    const entries = opened.map((o) => o.entry);
    const objects = page.objects.map((o) => {
      const plain = openObject(this.keys, label, o);
      return { id: plain.id, rev: o.rev, hash: plain.hash, content: plain.content };
    });
    return { ...page, entries, objects };
  }

  override async commit(req: CommitRequest, signal?: AbortSignal): Promise<CommitResponse> {
    const label = scopeLabel(req.scope);
    const seen = await this.seen.highest(label);
    const realIds = new Map<string, string>();
    const keyed = (id: string): string => {
      const k = keyedNoteId(this.keys, label, id);
      realIds.set(k, id);
      return k;
    };
    const puts: CommitPut[] = (req.puts ?? []).map((p) => {
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
        { id: p.id, hash: p.hash, ...(typed ? { typed } : {}), seen },
        this.random,
      );
      return {
        id: keyed(p.id),
        baseHash: p.baseHash === null ? null : keyedHash(this.keys, label, p.id, p.baseHash),
        hash: object.hash,
        content: object.content,
        meta: record.meta,
      };
    });
    const deletes: CommitDelete[] = (req.deletes ?? []).map((d) => ({
      id: keyed(d.id),
      baseHash: keyedHash(this.keys, label, d.id, d.baseHash),
      meta: sealRecord(this.keys, label, { id: d.id, hash: null, seen }, this.random).meta,
    }));
    const opened = (r: CommitRejected): { rejected: CommitRejected; record: EntryRecord | null } => {
      const current = r.current ? this.openEntry(label, r.current) : null;
      return {
        rejected: { ...r, id: realIds.get(r.id) ?? r.id, current: current?.entry ?? null },
        record: current?.record ?? null,
      };
    };
    const scope = this.sealedScope(req.scope);
    // A strict commit is all or nothing, so it is never split (cleanup merges are small).
    const parts = req.strict ? [{ puts, deletes }] : splitBySize(puts, deletes, this.bodyBudget());
    const applied: CommitApplied[] = [];
    const rejected: CommitRejected[] = [];
    let last: CommitResponse | null = null;
    for (const part of parts) {
      let answer: CommitResponse;
      try {
        answer = await super.commit({ scope, ...part, strict: req.strict ?? null, sealed: true }, signal);
      } catch (err) {
        const details =
          err instanceof SyncRequestError ? StrictRejectionDetailsSchema.safeParse(err.details) : null;
        if (!(err instanceof SyncRequestError) || !details?.success) throw err;
        throw new SyncRequestError(err.failure, err.message, err.status, err.retryAfterMs, err.limits, {
          ...details.data,
          rejected: details.data.rejected.map((r) => opened(r).rejected),
        });
      }
      this.limits = answer.limits;
      const records: EntryRecord[] = [];
      for (const a of answer.applied) {
        const entry = a.entry ? this.openEntry(label, a.entry) : null;
        if (entry) records.push(entry.record);
        applied.push({ ...a, id: realIds.get(a.id) ?? a.id, entry: entry?.entry ?? null });
      }
      for (const r of answer.rejected) {
        const o = opened(r);
        if (o.record) records.push(o.record);
        rejected.push(o.rejected);
      }
      await this.seen.observe(label, answer.version, records);
      this.onCommitted(part.puts.length + part.deletes.length);
      last = answer;
    }
    // Split in several commits, the version moved more than once: the round then takes the
    // version it listed and lists its own pushes again next time (round/commit.ts).
    return { ...last!, applied, rejected };
  }

  /** The body size the server accepts from this account (shared/commit-body.ts), once known. */
  private bodyBudget(): number {
    return this.limits ? commitBodyLimit(this.limits) : Infinity;
  }

  private sealedScope(scope: SyncScope): SyncScope {
    return scope.kind === 'user'
      ? scope
      : { kind: 'project', projectId: keyedProjectId(this.keys, scope.projectId) };
  }

  /** A manifest entry with its real id and hash, after checking its sealed record. */
  private openEntry(label: ScopeLabel, entry: SyncEntry): { entry: SyncEntry; record: EntryRecord } {
    if (entry.meta === undefined)
      throw new EncryptionError('tampered', 'an entry of the encrypted manifest has no sealed record');
    const record = openRecord(this.keys, label, { id: entry.id, hash: entry.hash, meta: entry.meta });
    const { meta: _meta, typed: _typed, ...rest } = entry;
    return {
      entry: { ...rest, id: record.id, hash: record.hash, ...(record.typed ? { typed: true } : {}) },
      record,
    };
  }
}

export function scopeLabel(scope: SyncScope): ScopeLabel {
  return scope.kind === 'user' ? 'user' : `project:${scope.projectId}`;
}

/**
 * Puts and deletes in order, cut into commits whose JSON body stays under `budget` bytes (sealed
 * bodies are ASCII): sealing pads each note up to twice its size and base64 adds a third, so a
 * commit the round sized for plain notes may not fit in one request.
 */
export function splitBySize(
  puts: CommitPut[],
  deletes: CommitDelete[],
  budget: number,
): Array<{ puts: CommitPut[]; deletes: CommitDelete[] }> {
  const room = budget - ENVELOPE_BYTES;
  const parts: Array<{ puts: CommitPut[]; deletes: CommitDelete[] }> = [];
  let part: { puts: CommitPut[]; deletes: CommitDelete[] } = { puts: [], deletes: [] };
  let used = 0;
  const add = (size: number, into: (p: typeof part) => void): void => {
    if (used > 0 && used + size > room) {
      parts.push(part);
      part = { puts: [], deletes: [] };
      used = 0;
    }
    into(part);
    used += size;
  };
  for (const p of puts) add(JSON.stringify(p).length + 1, (x) => x.puts.push(p));
  for (const d of deletes) add(JSON.stringify(d).length + 1, (x) => x.deletes.push(d));
  if (used > 0 || parts.length === 0) parts.push(part);
  return parts;
}

/** The request's own JSON around its puts and deletes (scope, flags), with room to spare. */
const ENVELOPE_BYTES = 1024;
