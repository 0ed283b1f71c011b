import { z } from 'zod';
import { SyncEntrySchema, type SyncEntry } from '../shared/sync-protocol.js';

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
});
export type StoredManifest = z.infer<typeof StoredManifestSchema>;

export const EMPTY_MANIFEST: StoredManifest = { format: 1, version: 0, prunedThrough: 0, entries: [] };

export interface LoadedManifest {
  manifest: StoredManifest;
  /** null when the scope has no manifest yet (the first commit creates it with If-None-Match: *). */
  etag: string | null;
}

/**
 * A manifest read from storage: JSON and schema checked (a damaged one is an error, never empty).
 * The key is in the message for the server's log; clients only ever see `internal`.
 */
export function parseManifest(body: Buffer, key: string): StoredManifest {
  let data: unknown;
  try {
    data = JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new Error(`the manifest ${key} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = StoredManifestSchema.safeParse(data);
  if (!parsed.success)
    throw new Error(`the manifest ${key} is malformed: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}

export function serializeManifest(manifest: StoredManifest): string {
  return JSON.stringify({
    ...manifest,
    entries: [...manifest.entries].sort((a, b) => compareIds(a.id, b.id)),
  });
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
