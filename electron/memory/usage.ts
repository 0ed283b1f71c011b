import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Scope } from '../../shared/note.js';
import { writeFileAtomic } from './atomic-write.js';
import { withDirLock } from './dir-lock.js';
import type { NoteUsage, UsageStore } from './types.js';

/**
 * Recall counts on this machine, in `$OHARNESS_HOME/memory-usage/<scope-key>.json` — outside the
 * notes, so recalling never changes a note and never triggers a sync upload, and never synced.
 * The project key is its registered id (stable across renames), else a hash of its path.
 */
const UsageFileSchema = z.object({
  version: z.literal(1),
  notes: z.record(
    z.string(),
    z.object({ count: z.number().int().nonnegative(), lastRecalledAt: z.number().nullable() }),
  ),
});

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

export async function createUsageStore(opts: UsageStoreOptions): Promise<UsageStore> {
  const dir = usageDir(opts.home);
  const fileFor = (scope: Scope): string | null =>
    scope === 'user'
      ? path.join(dir, 'user.json')
      : opts.projectKey
        ? path.join(dir, `${opts.projectKey}.json`)
        : null;
  const counts: Record<Scope, Map<string, NoteUsage>> = { user: new Map(), project: new Map() };

  async function read(file: string | null): Promise<Map<string, NoteUsage>> {
    if (!file || !opts.persist) return new Map();
    try {
      const parsed = UsageFileSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
      return parsed.success ? new Map(Object.entries(parsed.data.notes)) : new Map();
    } catch {
      return new Map();
    }
  }
  counts.user = await read(fileFor('user'));
  counts.project = await read(fileFor('project'));

  async function record(hits: ReadonlyArray<{ scope: Scope; id: string }>): Promise<void> {
    if (hits.length === 0) return;
    const at = opts.now();
    for (const scope of ['user', 'project'] as const) {
      const ids = hits.filter((h) => h.scope === scope).map((h) => h.id);
      if (ids.length === 0) continue;
      const file = fileFor(scope);
      const bump = (map: Map<string, NoteUsage>): void => {
        for (const id of ids) map.set(id, { count: (map.get(id)?.count ?? 0) + 1, lastRecalledAt: at });
      };
      if (!file || !opts.persist) {
        bump(counts[scope]);
        continue;
      }
      try {
        await fs.mkdir(dir, { recursive: true });
        // Re-read under the lock so two processes recalling at once both count.
        await withDirLock(dir, async () => {
          const map = await read(file);
          bump(map);
          await writeFileAtomic(file, JSON.stringify({ version: 1, notes: Object.fromEntries(map) }) + '\n');
          counts[scope] = map;
        });
      } catch {
        // Usage is a ranking nudge: failing to record it never fails recall.
        bump(counts[scope]);
      }
    }
  }

  return {
    get: (scope, id) => counts[scope].get(id) ?? EMPTY,
    all: (scope) => counts[scope],
    record,
  };
}
