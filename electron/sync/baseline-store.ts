import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  ConflictSummarySchema,
  LocalOnlyNoteSchema,
  type ConflictKindSchema,
} from '../../shared/api/sync.js';
import { SyncEntrySchema } from '../../shared/sync-protocol.js';
import { readFileOrNull, writeFileAtomic } from './atomic-file.js';
import { syncDir, writeFileAtomic as coreWriteFileAtomic } from '../memory/atomic-write.js';
import { BaselineLocationSchema } from './baseline-location.js';
import { reportedOr, unlessMissing } from '../memory/unexpected-error.js';
import { mapLimit } from '../../shared/map-limit.js';
import { BaselinePacks, isPackName, type PackIndex } from './baseline-packs.js';

const HASH = /^[0-9a-f]{64}$/;
/** From this many new copies on, a round's copies go into one pack rather than a file each. */
const PACK_AT = 8;
/** Past this many packs, collecting garbage merges all but the largest. */
const MAX_PACKS = 8;

/**
 * One scope's baseline in `$OHARNESS_HOME/memory-sync/<sha256(stableScopeKey)>/`:
 *
 *   state.json       the manifest state last seen (version + entries) and, per note, the hash both
 *                    sides agreed on at the last sync (`base`), plus what the last pull brought
 *   objects/<hash>   a copy of each note file as last synced, content-addressed (also the pushed
 *                    versions a journal names, and the three versions a conflict shows)
 *   objects/pack-<id>  many such copies in one file, when a round stores many (baseline-packs.ts)
 *   conflicts.json   conflicts waiting for the person, persisted across restarts
 *   journal.json     the pushes and pulls of a round in progress (see round/commit.ts and
 *                    round/recover.ts: a crash between the cloud commit or the pulls' writes and
 *                    the saved state is finished by the next round)
 *   journal-written.log  one line per pull written here since journal.json was saved (appended
 *                    after each write, so a kill partway through the writes leaves which were done)
 *
 * Every file is replaced atomically; objects are written before the state that names them, so a
 * crash at any point leaves a state whose objects all exist (unreferenced objects are collected).
 */

export type ConflictKind = z.infer<typeof ConflictKindSchema>;

/** A conflict as the page lists it (shared/api/sync.ts), with the three versions' hashes. */
export const ConflictRecordSchema = ConflictSummarySchema.extend({
  /** Hash of the last synced version (its copy is in objects/), null when there is none. */
  baseHash: z.string().nullable(),
  /** This computer's version when detected; null = deleted here. */
  localHash: z.string().nullable(),
  /** The cloud's version when detected; null = deleted (or gone) in the cloud. */
  cloudHash: z.string().nullable(),
});
export type ConflictRecord = z.infer<typeof ConflictRecordSchema>;

export const PullCountsSchema = z.object({
  added: z.number().int().nonnegative(),
  changed: z.number().int().nonnegative(),
  deleted: z.number().int().nonnegative(),
});
export type PullCounts = z.infer<typeof PullCountsSchema>;

/** The fail-safe's open question (see round/plan.ts failSafe). */
export const PendingDeletesSchema = z.object({
  /** Deleted in the cloud, still here. */
  ids: z.array(z.string()),
  /** Deleted here, still in the cloud. */
  localIds: z.array(z.string()).default([]),
  total: z.number().int(),
});

export const BaselineStateSchema = z.object({
  format: z.literal(1),
  scopeKey: z.string(),
  /** The cloud manifest as last seen: null version = never synced. */
  manifest: z.object({
    version: z.number().int().nonnegative().nullable(),
    /** The server's head id of that version (docs/sync-protocol.md, "History"), when it sent one. */
    head: z.string().optional(),
    /**
     * With a null version kept for a full listing (a baseline copy went missing), the version and
     * head last seen: the full listing still asks with them, so a cloud that lost its history
     * meanwhile is noticed rather than its missing notes read as deleted (round/snapshot.ts).
     */
    lastSeen: z.object({ version: z.number().int().nonnegative(), head: z.string().optional() }).optional(),
    entries: z.record(z.string(), SyncEntrySchema),
  }),
  /** Per note id: the content hash both sides had at the last sync. */
  base: z.record(z.string(), z.string()),
  lastSyncedAt: z.number().nullable(),
  lastPull: PullCountsSchema.extend({ at: z.number() }).nullable(),
  /** The project checkout (root, notes directory) this baseline belongs to: baseline-location.ts. */
  location: BaselineLocationSchema.optional(),
  /** The account and origin this baseline was built with (a different one starts from scratch). */
  boundTo: z.object({ userId: z.string(), origin: z.string() }).nullable(),
  /**
   * What the last round that planned could not do, so every process (a later `memdesk status`,
   * the app after a CLI sync) shows it: notes held here and why, the fail-safe's open question.
   */
  report: z
    .object({
      notices: z.array(z.string()),
      localOnly: z.array(LocalOnlyNoteSchema).default([]),
      pendingDeletes: PendingDeletesSchema.nullable(),
    })
    .optional(),
  /**
   * The fail-safe's window: deletions (both directions) since the last confirmed state — the
   * person's answer, or `since` older than a week — against the scope's note count then.
   */
  deleteWindow: z
    .object({
      since: z.number(),
      total: z.number().int().nonnegative(),
      deleted: z.number().int().nonnegative(),
    })
    .optional(),
  /**
   * Notes deleted here that the cloud lost with its history (wiped or restored from an older
   * backup, round/history-reset.ts): id → the version deleted. The baseline keeps that version
   * while the cloud has no record of the note or holds another version, so the delete is pushed
   * when a device uploads that version again and is a conflict when the cloud shows another —
   * never a silent return of the note.
   */
  deletedWhileLost: z.record(z.string(), z.string()).optional(),
  /**
   * Notes the cloud lost that this computer has not uploaded again yet (refused: a case twin in the
   * cloud, a limit): id → the version agreed on before the loss. Deleted here before the upload
   * lands, such a note is deleted while lost like one deleted before the loss: a device still
   * holding that version may upload it again (seed 128228).
   */
  reuploadWhileLost: z.record(z.string(), z.string()).optional(),
  /**
   * The person's decisions on the conflicts of those notes (another version in the cloud): id →
   * the cloud's versions they set aside (took this computer's side, or kept both). Those versions
   * are deleted again like the one deleted here; any other version is a note written anew since
   * and planned as usual, not the same question again. Forgotten when the cloud loses history again.
   */
  decidedWhileLost: z.record(z.string(), z.array(z.string())).optional(),
  /**
   * Notes whose file was held (not loaded) when the cloud lost history: id → the version last
   * agreed on before the loss. When the file loads again it is planned as the loss would have
   * planned it then (round/history-reset.ts) — a copy unchanged here meeting the cloud's delete of
   * a version this computer never had is a conflict, not an upload.
   */
  heldWhileLost: z.record(z.string(), z.string()).optional(),
});

/** What a round could not do, kept for the status of every process (`state.json` → `report`). */
export type ScopeReport = NonNullable<BaselineState['report']>;
export type BaselineState = z.infer<typeof BaselineStateSchema>;

export const JournalSchema = z.object({
  startedAt: z.number(),
  /** Manifest version the round's snapshot saw. */
  version: z.number().int().nonnegative().nullable(),
  /** The server's head id of `version` (absent from older servers and older journals). */
  head: z.string().optional(),
  pushes: z.array(
    z.object({
      id: z.string(),
      /** This computer's version when the round planned the push (null = deleted here). */
      localBefore: z.string().nullable(),
      /** What the push sends (null = a delete). Its copy is in objects/. */
      pushed: z.string().nullable(),
      /**
       * Manifest version the round that planned the push had seen (absent in journals from before
       * it was kept: the journal's `version`). A cloud change made on top of this push is later.
       */
      version: z.number().int().nonnegative().nullable().optional(),
    }),
  ),
  /**
   * The cloud's versions this round writes here, listed before the first write (a journal from
   * before pulls were journaled has none). A file that still holds one is in sync with it.
   */
  pulls: z
    .array(
      z.object({
        id: z.string(),
        /** The version to write (its copy is in objects/); null = delete here. */
        pulled: z.string().nullable(),
        /** Set once the write is done: what the file holds now is the person's (or that version). */
        written: z.boolean().default(false),
      }),
    )
    .default([]),
});
export type Journal = z.infer<typeof JournalSchema>;

const WRITTEN_LOG = 'journal-written.log';
/** A pull in journal-written.log: its id and the version written (null: deleted here). */
const writtenKey = (id: string, pulled: string | null): string => `${pulled ?? 'deleted'} ${id}`;

export function emptyBaseline(scopeKey: string): BaselineState {
  return {
    format: 1,
    scopeKey,
    manifest: { version: null, entries: {} },
    base: {},
    lastSyncedAt: null,
    lastPull: null,
    boundTo: null,
  };
}

export class BaselineStore {
  readonly objectsDir: string;
  private readonly packs: BaselinePacks;
  constructor(
    readonly dir: string,
    readonly scopeKey: string,
  ) {
    this.objectsDir = path.join(dir, 'objects');
    this.packs = new BaselinePacks(this.objectsDir);
  }

  private file(name: string): string {
    return path.join(this.dir, name);
  }

  async loadState(): Promise<BaselineState> {
    const text = await readFileOrNull(this.file('state.json'));
    if (text === null) return emptyBaseline(this.scopeKey);
    const parsed = BaselineStateSchema.safeParse(parseJson(text));
    if (!parsed.success) {
      // A damaged baseline is set aside, never silently trusted: the next round is a full
      // listing, and every note changed on both sides since becomes a conflict instead of a guess.
      await fs
        .rename(this.file('state.json'), this.file(`state.damaged-${Date.now()}.json`))
        .catch(reportedOr(undefined, 'baseline: set aside'));
      return emptyBaseline(this.scopeKey);
    }
    return parsed.data;
  }

  async saveState(state: BaselineState): Promise<void> {
    await writeFileAtomic(this.file('state.json'), JSON.stringify(state));
  }

  async loadConflicts(): Promise<Record<string, ConflictRecord>> {
    const text = await readFileOrNull(this.file('conflicts.json'));
    if (text === null) return {};
    const parsed = z.record(z.string(), ConflictRecordSchema).safeParse(parseJson(text));
    return parsed.success ? parsed.data : {};
  }

  async saveConflicts(conflicts: Record<string, ConflictRecord>): Promise<void> {
    await writeFileAtomic(this.file('conflicts.json'), JSON.stringify(conflicts, null, 1));
  }

  /** The journal, its pulls marked written where journal-written.log says so. */
  async loadJournal(): Promise<Journal | null> {
    const text = await readFileOrNull(this.file('journal.json'));
    if (text === null) return null;
    const parsed = JournalSchema.safeParse(parseJson(text));
    if (!parsed.success) return null;
    const written = await this.loadWrittenPulls();
    if (written.size === 0) return parsed.data;
    return {
      ...parsed.data,
      pulls: parsed.data.pulls.map((p) =>
        written.has(writtenKey(p.id, p.pulled)) ? { ...p, written: true } : p,
      ),
    };
  }

  /** Saves the journal; the marks of the log were read into it (loadJournal), so the log goes. */
  async saveJournal(journal: Journal): Promise<void> {
    await writeFileAtomic(this.file('journal.json'), JSON.stringify(journal));
    await fs.rm(this.file(WRITTEN_LOG), { force: true });
  }

  /**
   * Marks one pull of the journal written here: one appended line, not a rewrite of the journal
   * (a pull of thousands of notes stays linear). A line cut short by a kill is ignored.
   */
  async markPullWritten(id: string, pulled: string | null): Promise<void> {
    await fs.appendFile(this.file(WRITTEN_LOG), `${JSON.stringify(writtenKey(id, pulled))}\n`);
  }

  async clearJournal(): Promise<void> {
    await fs.rm(this.file('journal.json'), { force: true });
    await fs.rm(this.file(WRITTEN_LOG), { force: true });
  }

  private async loadWrittenPulls(): Promise<Set<string>> {
    const text = await readFileOrNull(this.file(WRITTEN_LOG));
    const out = new Set<string>();
    for (const line of (text ?? '').split('\n')) {
      const key = parseJson(line);
      if (typeof key === 'string') out.add(key);
    }
    return out;
  }

  /** Stores a note file under its content hash (idempotent). */
  async putObject(hash: string, content: string): Promise<void> {
    if (!(await this.hasObject(hash))) await writeFileAtomic(path.join(this.objectsDir, hash), content);
  }

  /**
   * Stores many copies, each hash once, before the caller saves the state that names them. Many
   * new copies go into one pack (baseline-packs.ts: one write and one fsync for a first sync's
   * 5,000 notes); a few are files of their own, written several at a time and their directory
   * fsynced once.
   */
  async putObjects(items: ReadonlyArray<{ hash: string; content: string }>, concurrency = 16): Promise<void> {
    if (items.length === 0) return;
    await fs.mkdir(this.objectsDir, { recursive: true });
    const stored = await this.listObjects();
    const missing = new Map<string, string>();
    for (const item of items) if (!stored.has(item.hash)) missing.set(item.hash, item.content);
    if (missing.size === 0) return;
    const copies = [...missing].map(([hash, content]) => ({ hash, content }));
    if (copies.length >= PACK_AT) {
      await this.packs.write(copies);
      return;
    }
    await mapLimit(copies, concurrency, (c) =>
      coreWriteFileAtomic(path.join(this.objectsDir, c.hash), c.content, { syncDir: false }),
    );
    await syncDir(this.objectsDir);
  }

  async getObject(hash: string): Promise<string | null> {
    if (!HASH.test(hash)) return null;
    if (this.packs.has(hash)) {
      const packed = await this.packs.read(hash);
      if (packed !== null) return packed;
    }
    const own = await readFileOrNull(path.join(this.objectsDir, hash));
    if (own !== null) return own;
    await this.packs.refresh(await this.listing());
    return this.packs.read(hash);
  }

  async hasObject(hash: string): Promise<boolean> {
    try {
      await fs.access(path.join(this.objectsDir, hash));
      return true;
    } catch (err) {
      unlessMissing(err, 'baseline: object');
    }
    await this.packs.refresh(await this.listing());
    return this.packs.has(hash);
  }

  /** The hashes that have a copy (one directory listing instead of a check per note). */
  async listObjects(): Promise<Set<string>> {
    const names = await this.listing();
    const stored = new Set(names.filter((name) => HASH.test(name)));
    for (const index of (await this.packs.refresh(names)).values())
      for (const hash of index.keys()) stored.add(hash);
    return stored;
  }

  /**
   * Removes copies nothing refers to any more (after the state that dropped them was saved). A pack
   * with none left (or none readable) is removed; one with fewer than half, or any but the largest
   * when there are more than MAX_PACKS, has the copies still needed written into a new pack first.
   */
  async collectGarbage(keep: ReadonlySet<string>): Promise<number> {
    const names = await this.listing();
    let removed = 0;
    for (const name of names) {
      if (keep.has(name) || isPackName(name)) continue;
      if (name.startsWith('.') && !name.endsWith('.tmp')) continue;
      await fs.rm(path.join(this.objectsDir, name), { force: true });
      removed++;
    }
    const packs = [...(await this.packs.refresh(names))].sort((a, b) => b[1].size - a[1].size);
    const live = (index: PackIndex): string[] => [...index.keys()].filter((hash) => keep.has(hash));
    const rewrite = packs.filter(
      ([, index], rank) =>
        index.size === 0 || live(index).length * 2 < index.size || (packs.length > MAX_PACKS && rank > 0),
    );
    if (rewrite.length === 0) return removed;
    const staying = new Set(names.filter((name) => HASH.test(name) && keep.has(name)));
    for (const [name, index] of packs)
      if (!rewrite.some(([r]) => r === name)) for (const h of index.keys()) staying.add(h);
    const carried: Array<{ hash: string; content: string }> = [];
    for (const [, index] of rewrite)
      for (const hash of live(index)) {
        if (staying.has(hash)) continue;
        const content = await this.packs.read(hash);
        if (content === null) continue; // its pack went meanwhile: missing, as the next round will find
        staying.add(hash);
        carried.push({ hash, content });
      }
    if (carried.length > 0) await this.packs.write(carried);
    for (const [name, index] of rewrite) {
      removed += index.size - live(index).length;
      await this.packs.remove(name);
    }
    return removed;
  }

  /** The objects directory's names (none when it does not exist yet). */
  private async listing(): Promise<string[]> {
    try {
      return await fs.readdir(this.objectsDir);
    } catch (err) {
      unlessMissing(err, 'baseline: list objects');
      return [];
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null; // not JSON: the schema check then refuses it
  }
}
