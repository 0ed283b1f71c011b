import type { SnapshotRequestSchema } from '../../shared/sync-protocol.js';
import { type SnapshotResponse, type SyncEntry } from '../../shared/sync-protocol.js';
import type { z } from 'zod';
import { type Caller, type ServerDeps, scopeLabel } from '../context.js';
import {
  activeCount,
  compareIds,
  headAt,
  headOf,
  pruneTombstones,
  type StoredManifest,
} from '../manifest.js';
import { manifestKey } from '../storage-keys.js';
import { readRevisions } from '../revisions.js';
import { SyncError } from '../sync-error.js';
import { requireProtocolForScope } from './protocol-rules.js';

type SnapshotRequest = z.output<typeof SnapshotRequestSchema>;

interface Cursor {
  /** Manifest version the paging started at. */
  v: number;
  /** Status of the first page: 'changes' or 'full'. */
  s: 'changes' | 'full';
  /** Last id sent. */
  a: string;
}

/**
 * The manifest (or what changed in it since `sinceVersion`) plus the contents the client lacks,
 * paged so no response carries more than `quota.responseBytes` of note contents.
 */
export async function snapshot(
  deps: ServerDeps,
  caller: Caller,
  request: SnapshotRequest,
  requireNotErased: () => Promise<void>,
): Promise<SnapshotResponse> {
  requireProtocolForScope(caller, request.scope);
  const loaded = await deps.manifests.load(manifestKey(caller.sub, request.scope, request.sealed));
  const since = request.sinceVersion;
  // The poll that finds nothing new: answered from the cached manifest's version alone.
  if (
    request.cursor === null &&
    since !== null &&
    since === loaded.manifest.version &&
    loaded.etag !== null &&
    !historyLost(loaded.manifest, since, request.sinceHead)
  ) {
    return { status: 'unchanged', version: since, ...headOf(loaded.manifest), limits: caller.limits };
  }
  await requireNotErased();
  const manifest = pruneTombstones(loaded.manifest, deps.now(), deps.quotas.tombstoneDays);

  let status: 'changes' | 'full';
  let after: string | null = null;
  if (request.cursor !== null) {
    const cursor = decodeCursor(request.cursor);
    if (cursor.v !== manifest.version) {
      throw new SyncError(
        'cursor_expired',
        `The ${scopeLabel(request.scope)} changed while it was being read; start the snapshot again.`,
        {
          currentVersion: manifest.version,
        },
      );
    }
    status = cursor.s;
    after = cursor.a;
  } else if (
    since !== null &&
    since === manifest.version &&
    !historyLost(manifest, since, request.sinceHead)
  ) {
    return { status: 'unchanged', version: since, ...headOf(manifest), limits: caller.limits };
  } else {
    // A version from the future or another history (storage wiped or restored from a backup) or one
    // older than dropped tombstones cannot be answered with a difference: list everything.
    status =
      since === null || since < manifest.prunedThrough || historyLost(manifest, since, request.sinceHead)
        ? 'full'
        : 'changes';
  }
  // Said on every page, so the client treats what is missing as lost by the cloud, not deleted.
  const historyReset = since !== null && historyLost(manifest, since, request.sinceHead);

  const candidates = manifest.entries
    .filter((entry) => status === 'full' || entry.seq > (since ?? 0))
    .sort((a, b) => compareIds(a.id, b.id));
  if (caller.protocol < 2 && candidates.some((entry) => entry.typed)) {
    throw new SyncError(
      'upgrade_required',
      `The ${scopeLabel(request.scope)} holds notes with a type, which this version of the app cannot check. Update the app to keep syncing.`,
      deps.protocol,
    );
  }

  const have = new Set(request.have);
  const pageEntries: SyncEntry[] = [];
  const wanted: SyncEntry[] = [];
  let bytes = 0;
  let nextCursor: string | null = null;
  for (const entry of candidates) {
    if (after !== null && compareIds(entry.id, after) <= 0) continue;
    if (entry.hash !== null && entry.rev !== null && !have.has(entry.hash)) {
      if (wanted.length > 0 && bytes + entry.size > deps.quotas.responseBytes) {
        nextCursor = encodeCursor({
          v: manifest.version,
          s: status,
          a: pageEntries[pageEntries.length - 1]!.id,
        });
        break;
      }
      bytes += entry.size;
      wanted.push(entry);
    }
    pageEntries.push(entry);
  }

  const objects = await readRevisions(
    deps.storage,
    { sub: caller.sub, scope: request.scope, sealed: request.sealed },
    wanted,
  );

  return {
    status,
    version: manifest.version,
    ...headOf(manifest),
    ...(historyReset ? { historyReset } : {}),
    activeNotes: activeCount(manifest.entries),
    entries: pageEntries,
    objects,
    nextCursor,
    limits: caller.limits,
  };
}

/**
 * The client's version is not part of this manifest's history: a version the manifest has not
 * reached (wiped, or restored from an older backup), or one it reached under another head id
 * (restored, then counted up again by new commits). Unknown heads (older than the log, or a
 * client that sends none) are not held against it.
 */
function historyLost(manifest: StoredManifest, since: number, sinceHead: string | null): boolean {
  if (since > manifest.version) return true;
  if (sinceHead === null) return false;
  const head = headAt(manifest, since);
  return head !== undefined && head !== sinceHead;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const data = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (
      typeof data.v === 'number' &&
      (data.s === 'changes' || data.s === 'full') &&
      typeof data.a === 'string'
    ) {
      return { v: data.v, s: data.s, a: data.a };
    }
  } catch {
    // not base64url JSON: refused below like any cursor this server did not give out
  }
  throw new SyncError('invalid_request', 'The snapshot cursor is not one this server gave out.');
}
