import type { SyncEntry, SyncLimits } from '../../../shared/sync-protocol.js';
import type { StoredNote } from '../../memory/types.js';
import type { SyncAccount } from '../account.js';
import type { BaselineState, BaselineStore, Journal } from '../baseline-store.js';
import type { RoundContext } from '../coordinator.js';
import { SyncRequestError } from '../http-client.js';
import { objectKey } from './object-key.js';
import type { RoundDeps } from './types.js';

export interface Snapshot {
  /** `unchanged`: nothing since the version last seen; `changes`: what changed since; `full`: everything. */
  listing: 'unchanged' | 'changes' | 'full';
  version: number;
  /** The server's head id of `version` (older servers send none). */
  head?: string;
  /**
   * The version last seen is not part of the cloud's history (the server's data was wiped or
   * restored from an older backup): the listing is full, and what it lacks was lost, not deleted.
   */
  historyReset: boolean;
  /** The cloud manifest now: the listing applied to the one last seen. */
  entries: Record<string, SyncEntry>;
  /** Note files the server sent (bodies this computer does not have), by objectKey(id, hash). */
  objects: Map<string, string>;
  activeNotes: number;
  limits: SyncLimits;
}

/**
 * Step 2 of a round: what changed in the cloud since the manifest version last seen. `have` lists
 * only the hashes changed here since the baseline (all of them on a full listing), so bodies this
 * computer has never travel. Paging and `cursor_expired` are handled here.
 */
export async function fetchSnapshot(
  deps: RoundDeps,
  account: SyncAccount,
  ctx: RoundContext,
  state: BaselineState,
  locals: ReadonlyMap<string, StoredNote>,
  journal: Journal | null,
): Promise<Snapshot> {
  const sinceVersion = state.manifest.version;
  // The versions held here, per note (the server leaves out contents this device has).
  const held: Array<{ id: string; hash: string }> = [];
  if (sinceVersion === null) {
    for (const n of locals.values()) held.push({ id: n.id, hash: n.hash });
    for (const [id, hash] of Object.entries(state.base)) held.push({ id, hash });
  } else {
    for (const n of locals.values()) if (state.base[n.id] !== n.hash) held.push({ id: n.id, hash: n.hash });
    for (const p of journal?.pushes ?? []) if (p.pushed) held.push({ id: p.id, hash: p.pushed });
  }
  for (let attempt = 0; ; attempt++) {
    try {
      return await listPages(deps, account, ctx, state, rememberedVersion(state, journal), held);
    } catch (err) {
      if (err instanceof SyncRequestError && err.failure === 'cursor_expired' && attempt < 3) continue;
      throw err;
    }
  }
}

type SeenVersion = NonNullable<BaselineState['manifest']['lastSeen']>;

/**
 * The version a full listing asks with first when no version is saved: the one seen before a
 * baseline copy went missing (`lastSeen`, seed 113273), or the one a round that never saved its
 * state started from (its journal: a process killed in its first round after committing, seed
 * 129505). A cloud that lost its history since answers in full with `historyReset`, which a
 * listing asked for without a version could not say: what the cloud lacks would read as deleted,
 * or a delete made here meanwhile be forgotten.
 */
function rememberedVersion(state: BaselineState, journal: Journal | null): SeenVersion | null {
  if (state.manifest.lastSeen) return state.manifest.lastSeen;
  if (journal === null || journal.version === null) return null;
  return { version: journal.version, ...(journal.head === undefined ? {} : { head: journal.head }) };
}

/** One listing, page by page (a cursor that expires midway starts it again). */
async function listPages(
  deps: RoundDeps,
  account: SyncAccount,
  ctx: RoundContext,
  state: BaselineState,
  remembered: SeenVersion | null,
  held: Array<{ id: string; hash: string }>,
): Promise<Snapshot> {
  let sinceVersion = state.manifest.version ?? remembered?.version ?? null;
  let sinceHead = sinceVersion === null ? null : (state.manifest.head ?? remembered?.head ?? null);
  const seen = new Map<string, SyncEntry>();
  const objects = new Map<string, string>();
  let cursor: string | null = null;
  let historyReset = false;
  for (;;) {
    await ctx.beforeRequest();
    const page = await account.client.snapshot(
      { scope: deps.protocolScope, sinceVersion, sinceHead, held, cursor },
      ctx.signal,
    );
    if (deps.hooks.point) await deps.hooks.point('snapshot:page');
    if (state.manifest.version === null && sinceVersion !== null && page.status !== 'full') {
      // The history holds: list in full as wanted.
      sinceVersion = null;
      sinceHead = null;
      continue;
    }
    const head = page.head === undefined ? {} : { head: page.head };
    if (page.status === 'unchanged') {
      const entries = { ...state.manifest.entries };
      const activeNotes = Object.values(entries).filter((e) => e.hash !== null).length;
      return {
        listing: 'unchanged',
        version: page.version,
        ...head,
        historyReset: false,
        entries,
        objects,
        activeNotes,
        limits: page.limits,
      };
    }
    // A server older than history heads says it only by answering with a version below ours.
    historyReset ||= page.historyReset === true || (sinceVersion !== null && page.version < sinceVersion);
    for (const e of page.entries) seen.set(e.id, e);
    for (const o of page.objects) objects.set(objectKey(o.id, o.hash), o.content);
    cursor = page.nextCursor;
    if (cursor === null) {
      const entries =
        page.status === 'full'
          ? Object.fromEntries(seen)
          : { ...state.manifest.entries, ...Object.fromEntries(seen) };
      return {
        listing: page.status,
        version: page.version,
        ...head,
        historyReset,
        entries,
        objects,
        activeNotes: page.activeNotes,
        limits: page.limits,
      };
    }
  }
}

/**
 * The baseline copies the planner may read: the last synced version of every note that differs
 * between this computer and the cloud, and the cloud's version when the snapshot did not carry it.
 */
export async function baselineTexts(
  baselines: BaselineStore,
  base: Readonly<Record<string, string>>,
  locals: ReadonlyMap<string, StoredNote>,
  snapshot: Snapshot,
): Promise<Map<string, string>> {
  const wanted = new Set<string>();
  const ids = new Set<string>([...locals.keys(), ...Object.keys(base), ...Object.keys(snapshot.entries)]);
  for (const id of ids) {
    const L = locals.get(id)?.hash ?? null;
    const C = snapshot.entries[id]?.hash ?? null;
    if (L === C) continue;
    const B = base[id];
    if (B) wanted.add(B);
    if (C !== null && !snapshot.objects.has(objectKey(id, C))) wanted.add(C);
  }
  const texts = new Map<string, string>();
  for (const hash of wanted) {
    const text = await baselines.getObject(hash);
    if (text !== null) texts.set(hash, text);
  }
  return texts;
}
