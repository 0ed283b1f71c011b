import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { SyncEntrySchema, type SyncEntry } from '../shared/sync-protocol.js';
import { parseStoredJson } from './stored-json.js';

/**
 * One scope's manifest, stored as `manifest.json` and replaced only by ETag compare-and-swap.
 * `version` goes up by one with every commit that changes something; an entry's `seq` is the
 * version that last changed it. `prunedThrough` is the highest `seq` of a tombstone dropped after
 * the tombstone window: a client that last saw an older version gets a full listing, so it can
 * notice notes that vanished.
 */
export const StoredManifestSchema = z.object({
  format: z.literal(1),
  version: z.number().int().nonnegative(),
  prunedThrough: z.number().int().nonnegative(),
  entries: z.array(SyncEntrySchema),
  /**
   * The history's identity: a random id per version, the last `HEAD_LOG` versions, the current one
   * last (absent in manifests written before it existed). A manifest wiped or restored from a
   * backup gets new ids for the versions it counts again, so a device that saw version N under
   * another id learns that the history it built on is gone (docs/sync-protocol.md, "History").
   */
  heads: z.array(z.string()).optional(),
});
export type StoredManifest = z.infer<typeof StoredManifestSchema>;

export const EMPTY_MANIFEST: StoredManifest = { format: 1, version: 0, prunedThrough: 0, entries: [] };

/** Versions whose head id the manifest keeps (a device further behind gets a full listing anyway). */
export const HEAD_LOG = 256;

/** The head id of `version` in this manifest's history, or undefined when it is not known. */
export function headAt(manifest: StoredManifest, version: number): string | undefined {
  const heads = manifest.heads;
  if (!heads || version > manifest.version) return undefined;
  const index = heads.length - 1 - (manifest.version - version);
  return index >= 0 ? heads[index] : undefined;
}

/** The current version's head id, when the manifest has one (for a response). */
export function headOf(manifest: StoredManifest): { head?: string } {
  const head = headAt(manifest, manifest.version);
  return head === undefined ? {} : { head };
}

/** The head ids after a commit that made `version`: a new random id appended, the log bounded. */
export function nextHeads(manifest: StoredManifest, version: number): string[] {
  // A manifest from before heads existed starts its log here (earlier versions stay unknown).
  const known = manifest.heads && manifest.heads.length > 0 ? manifest.heads : [];
  const id = `${version.toString(36)}-${randomBytes(8).toString('hex')}`;
  return [...known, id].slice(-HEAD_LOG);
}

export interface LoadedManifest {
  manifest: StoredManifest;
  /** null when the scope has no manifest yet (the first commit creates it with If-None-Match: *). */
  etag: string | null;
}

/** A manifest read from storage (`parseStoredJson`: a damaged one is an error, never empty). */
export function parseManifest(body: Buffer, key: string): StoredManifest {
  return parseStoredJson(body, key, 'manifest', StoredManifestSchema);
}

/**
 * The manifest's JSON, entries sorted by id, in parts whose concatenation is the text; storage
 * encodes the parts one after another (`ScratchBuffers`). Why parts: V8's JSON.stringify returns a
 * large result as a rope, and the first thing that reads it (UTF-8 length, a Buffer) flattens it into
 * a fresh large allocation — ~0.8 ms of page faults per commit for a 140 KB manifest on the
 * bench machine, the largest cost of a commit. Parts of ENTRIES_PER_PART entries stay small strings.
 */
export function manifestJsonParts(manifest: StoredManifest): string[] {
  const sorted = [...manifest.entries].sort((a, b) => compareIds(a.id, b.id));
  // The manifest's own keys in their order, with an empty entries array to open at its place.
  const shell = JSON.stringify({ ...manifest, entries: [] });
  const open = shell.indexOf(ENTRIES_KEY) + ENTRIES_KEY.length - 1; // after `"entries":[`
  const parts = [shell.slice(0, open)];
  for (let at = 0; at < sorted.length; at += ENTRIES_PER_PART) {
    const part = JSON.stringify(sorted.slice(at, at + ENTRIES_PER_PART));
    parts.push(at === 0 ? part.slice(1, -1) : `,${part.slice(1, -1)}`);
  }
  parts.push(shell.slice(open));
  return parts;
}

const ENTRIES_KEY = '"entries":[]';
const ENTRIES_PER_PART = 100;

export function serializeManifest(manifest: StoredManifest): string {
  return manifestJsonParts(manifest).join('');
}

/** Drops tombstones older than the window (what a commit writes and a snapshot shows). */
export function pruneTombstones(
  manifest: StoredManifest,
  now: number,
  tombstoneDays: number,
): StoredManifest {
  const cutoff = now - tombstoneDays * 24 * 60 * 60 * 1000;
  let prunedThrough = manifest.prunedThrough;
  const entries: SyncEntry[] = [];
  for (const entry of manifest.entries) {
    if (entry.hash === null && entry.deletedAt !== undefined && entry.deletedAt < cutoff) {
      prunedThrough = Math.max(prunedThrough, entry.seq);
    } else {
      entries.push(entry);
    }
  }
  if (entries.length === manifest.entries.length) return manifest;
  return { ...manifest, entries, prunedThrough };
}

export function activeCount(entries: Iterable<SyncEntry>): number {
  let n = 0;
  for (const entry of entries) if (entry.hash !== null) n++;
  return n;
}

/** Code-unit order, the same everywhere (paging cursors depend on it). */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
