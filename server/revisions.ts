import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { SyncEntry, SyncObject, SyncScope } from '../shared/sync-protocol.js';
import { mapLimit } from '../shared/map-limit.js';
import { objectKey, packKey } from './storage-keys.js';
import type { StorageAdapter } from './storage/storage.js';
import { parseStoredJson } from './stored-json.js';
import { SyncError } from './sync-error.js';

/**
 * Where a revision's content lives (docs/sync-protocol.md, "Storage layout"). A commit of one note
 * writes it as its own object, `objects/<note-id>/<rev>.md`; a commit of several writes them all
 * as one pack, `packs/<pack-id>.json`, and each revision's id names its pack and its place in it
 * (`pack-<pack-id>-<n>`). Why packs: every object is a file (or a PUT) of its own, and on a
 * filesystem a file costs a directory entry, a create, an fsync and a directory fsync — a first
 * sync of 5,000 notes was 5,000 of each, ~0.7 ms of kernel time apiece on the bench machine. Both
 * are immutable, written before the manifest that names them (create-only), and read by the
 * same snapshot; revision ids are opaque to clients.
 */

/** Where one revision is to be written: the note's id, its content, and the rev the manifest gets. */
export interface RevisionToWrite {
  id: string;
  content: string;
  rev: string;
}

/** Commits with at least this many puts write a pack. */
const PACK_MIN_PUTS = 2;
/** Pack entries stringified together (small strings, not one large rope: see manifestJsonParts). */
const PACK_ENTRIES_PER_PART = 50;
const PACKED_REV = /^pack-([0-9a-f]{16})-(\d{1,6})$/;

const PackSchema = z.object({
  format: z.literal(1),
  revisions: z.array(z.object({ id: z.string(), content: z.string() })),
});
type Pack = z.infer<typeof PackSchema>;

/**
 * The revision ids for a commit's puts, in order: a pack's places when there are several (the pack
 * holds every put of the request, so a retry after a lost compare-and-swap finds them all written),
 * otherwise one new object id each (content hash prefix + random, never reused).
 */
export function revisionIdsFor(hashes: readonly string[]): string[] {
  if (hashes.length >= PACK_MIN_PUTS) {
    const packId = randomBytes(8).toString('hex');
    return hashes.map((_, index) => `pack-${packId}-${index}`);
  }
  return hashes.map((hash) => `${hash.slice(0, 12)}-${randomBytes(5).toString('hex')}`);
}

/**
 * Writes revisions before the manifest names any of them: `pending` are the ones the plan applies
 * and no earlier attempt of this commit wrote; `all` are the request's puts, in the order
 * `revisionIdsFor` numbered them (a pack holds them all). Returns the revision ids now stored.
 */
export async function writeRevisions(
  storage: StorageAdapter,
  where: { sub: string; scope: SyncScope; sealed: boolean },
  all: readonly RevisionToWrite[],
  pending: readonly RevisionToWrite[],
): Promise<string[]> {
  if (pending.length === 0) return [];
  const packed = packedPlace(pending[0]!.rev);
  if (packed) {
    await storage.put(packKey(where.sub, where.scope, packed.packId, where.sealed), packJsonParts(all), {
      ifNoneMatch: '*',
    });
    return all.map((revision) => revision.rev);
  }
  await mapLimit(pending, 16, (revision) =>
    storage.put(
      objectKey(where.sub, where.scope, revision.id, revision.rev, where.sealed),
      revision.content,
      {
        ifNoneMatch: '*',
      },
    ),
  );
  return pending.map((revision) => revision.rev);
}

/** The contents of `entries` (active, with a rev), each pack read once; a missing one is damage. */
export function readRevisions(
  storage: StorageAdapter,
  where: { sub: string; scope: SyncScope; sealed: boolean },
  entries: readonly SyncEntry[],
): Promise<SyncObject[]> {
  const packs = new Map<string, Promise<Pack | null>>();
  const packNamed = (packId: string): Promise<Pack | null> => {
    let pack = packs.get(packId);
    if (!pack) {
      const key = packKey(where.sub, where.scope, packId, where.sealed);
      pack = storage
        .get(key)
        .then((stored) => stored && parseStoredJson(stored.body, key, 'pack', PackSchema));
      packs.set(packId, pack);
    }
    return pack;
  };
  return mapLimit(entries, 16, async (entry): Promise<SyncObject> => {
    const rev = entry.rev!;
    const packed = packedPlace(rev);
    let content: string | undefined;
    if (packed) {
      const revision = (await packNamed(packed.packId))?.revisions[packed.index];
      // The place must hold this very note: a pack that says otherwise is as damaged as a missing one.
      if (revision?.id === entry.id) content = revision.content;
    } else {
      content = (
        await storage.get(objectKey(where.sub, where.scope, entry.id, rev, where.sealed))
      )?.body.toString('utf8');
    }
    if (content === undefined) {
      throw new SyncError(
        'storage_unavailable',
        `The stored revision of note ${entry.id} is missing; the storage is damaged.`,
      );
    }
    return { id: entry.id, rev, hash: entry.hash!, content };
  });
}

function packedPlace(rev: string): { packId: string; index: number } | null {
  const match = PACKED_REV.exec(rev);
  return match ? { packId: match[1]!, index: Number(match[2]) } : null;
}

/** The pack's JSON in parts (a pack of 500 notes is ~0.5 MB). */
function packJsonParts(revisions: readonly RevisionToWrite[]): string[] {
  const parts = ['{"format":1,"revisions":['];
  for (let at = 0; at < revisions.length; at += PACK_ENTRIES_PER_PART) {
    const part = JSON.stringify(
      revisions.slice(at, at + PACK_ENTRIES_PER_PART).map(({ id, content }) => ({ id, content })),
    );
    parts.push(at === 0 ? part.slice(1, -1) : `,${part.slice(1, -1)}`);
  }
  parts.push(']}');
  return parts;
}
