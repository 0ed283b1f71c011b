import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from '../../shared/zod-mini.js';
import type { Scope } from '../../shared/note.js';
import { writeFileAtomic } from './atomic-write.js';
import { withDirLock } from './dir-lock.js';
import type { NoteUsage, UsageStore } from './types.js';
import { missingOr, onUnexpectedError } from './unexpected-error.js';

/**
 * Recall counts on this machine, in `$OHARNESS_HOME/memory-usage/<scope-key>.json`, readable JSON
 * keyed by note id: `{"version":1,"notes":{"<id>":{"count":3,"lastRecalledAt":1780000000000}}}`.
 * Outside the notes, so recalling never changes a note, never triggers a sync upload, and is never
 * synced. The project key is its registered id (stable across renames), else a hash of its path.
 *
 * Several agent processes (hooks, MCP servers) and the app record at once: every record re-reads
 * the file under the directory's cross-process lock, adds, and writes it atomically, so no
 * increment is lost. Readers call `refresh()` to pick up what other processes recorded.
 */
const UsageFileSchema = z.object({
  version: z.literal(1),
  notes: z.record(
    z.string(),
    z.object({ count: z.int().check(z.nonnegative()), lastRecalledAt: z.nullable(z.number()) }),
  ),
});

/**
 * Entries kept per file at most (4× the default memory.maxNotes): past it, the notes recalled least
 * recently are dropped — a deleted note's count goes first — so the file stays under ~2 MB.
 */
export const MAX_USAGE_ENTRIES = 20_000;

export function usageDir(home: string): string {
  return path.join(home, 'memory-usage');
}

export function projectUsageKey(projectId: string | null, projectRoot: string): string {
  return projectId
    ? `project-${projectId}`
    : `project-path-${createHash('sha256').update(path.resolve(projectRoot)).digest('hex').slice(0, 16)}`;
}

export interface UsageStoreOptions {
  home: string;
  /** null when there is no project. */
  projectKey: string | null;
  now: () => number;
  /** false when the home is unusable: counts are then kept in memory only. */
  persist: boolean;
}

const EMPTY: NoteUsage = { count: 0, lastRecalledAt: null };

type UsageMap = Map<string, NoteUsage>;

/** Parses a usage file's text; anything unreadable counts as empty (usage is a ranking nudge). */
function parseUsage(text: string): UsageMap {
  try {
    const parsed = UsageFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? new Map(Object.entries(parsed.data.notes)) : new Map();
  } catch {
    return new Map(); // not JSON: counted afresh
  }
}

/** Keeps the MAX_USAGE_ENTRIES most recently recalled entries. */
export function boundUsage(map: UsageMap, max = MAX_USAGE_ENTRIES): UsageMap {
  if (map.size <= max) return map;
  const kept = [...map].sort((a, b) => (b[1].lastRecalledAt ?? 0) - (a[1].lastRecalledAt ?? 0)).slice(0, max);
  return new Map(kept);
}

export async function createUsageStore(opts: UsageStoreOptions): Promise<UsageStore> {
  const dir = usageDir(opts.home);
  const fileFor = (scope: Scope): string | null =>
    scope === 'user'
      ? path.join(dir, 'user.json')
      : opts.projectKey
        ? path.join(dir, `${opts.projectKey}.json`)
        : null;
  const counts: Record<Scope, UsageMap> = { user: new Map(), project: new Map() };
  /** The stat of each file when it was last read, to re-read only what changed. */
  const seen: Record<Scope, string> = { user: '', project: '' };

  const statKey = async (file: string): Promise<string> => {
    const st = await fs.stat(file).catch(missingOr(null, 'usage: stat'));
    return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : 'none';
  };
  async function read(file: string): Promise<UsageMap> {
    return parseUsage(await fs.readFile(file, 'utf8').catch(missingOr('', 'usage: read')));
  }
  async function refreshScope(scope: Scope): Promise<void> {
    const file = fileFor(scope);
    if (!file || !opts.persist) return;
    const key = await statKey(file);
    if (key === seen[scope]) return;
    counts[scope] = await read(file);
    seen[scope] = key;
  }

  async function recordScope(scope: Scope, ids: readonly string[], at: number): Promise<void> {
    const bump = (map: UsageMap): void => {
      for (const id of ids) map.set(id, { count: (map.get(id)?.count ?? 0) + 1, lastRecalledAt: at });
    };
    const file = fileFor(scope);
    if (!file || !opts.persist) {
      bump(counts[scope]);
      return;
    }
    try {
      await fs.mkdir(dir, { recursive: true });
      // Re-read under the lock so processes recalling at once all count.
      await withDirLock(dir, async () => {
        const map = await read(file);
        bump(map);
        const bounded = boundUsage(map);
        await writeFileAtomic(
          file,
          JSON.stringify({ version: 1, notes: Object.fromEntries(bounded) }) + '\n',
        );
        counts[scope] = bounded;
        seen[scope] = await statKey(file);
      });
    } catch (err) {
      onUnexpectedError(err, 'usage: record'); // a ranking nudge: failing to record it never fails recall
      bump(counts[scope]);
    }
  }

  await refreshScope('user');
  await refreshScope('project');

  return {
    get: (scope, id) => counts[scope].get(id) ?? EMPTY,
    all: (scope) => counts[scope],
    async record(hits) {
      if (hits.length === 0) return;
      const at = opts.now();
      for (const scope of ['user', 'project'] as const) {
        const ids = hits.filter((h) => h.scope === scope).map((h) => h.id);
        if (ids.length > 0) await recordScope(scope, ids, at);
      }
    },
    async refresh() {
      await refreshScope('user');
      await refreshScope('project');
    },
  };
}
