import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { writeFileAtomic } from '../../memory/atomic-write.js';
import { loadMemoryConfig } from '../../memory/config.js';
import type { MemoryCore } from '../../memory/types.js';
import {
  configStamp,
  mtimeOf,
  RACY_MS,
  snapshotFile,
  snapshotRoot,
  type Snapshot,
  type SnapshotPlace,
} from './prompt-snapshot.js';
import { missingOr, onUnexpectedError } from '../../memory/unexpected-error.js';

/**
 * Saves the prompt just built from `core`'s notes as the project's prompt snapshot
 * (prompt-snapshot.ts). The directories are stat'ed by the caller before the prompt was built
 * (`takeDirStamps`), so a change made meanwhile leaves a stamp that no longer matches. The config's
 * sources are stamped first, then the config they give now must be the one the core loaded: a
 * config changed since the core opened (or changed while this runs) saves nothing, and one changed
 * afterwards no longer matches the stamp. `env` is what the reader (`memdesk mcp`) will see: the
 * process environment. Best effort: a home that cannot be written just has no snapshot.
 */
export async function savePromptSnapshot(
  core: MemoryCore,
  dirs: Snapshot['dirs'],
  prompt: string,
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  try {
    if (!core.user.homeUsable) return;
    // Compared with file mtimes, which are the real clock's (core.now may be a test's clock).
    const now = Date.now();
    if (dirs.some(([, mtime]) => mtime !== null && Math.abs(now - mtime) < RACY_MS)) return;
    const place: SnapshotPlace = { home: core.home, projectRoot: core.project?.root ?? null, env };
    const config = await configStamp(place);
    const loaded = await loadMemoryConfig({
      home: place.home,
      env,
      ...(place.projectRoot !== null ? { projectRoot: place.projectRoot } : {}),
    });
    if (!isDeepStrictEqual(loaded.config, core.config)) return;
    const file = snapshotFile(place.home, place.projectRoot);
    const snap: Snapshot = { version: 3, projectRoot: snapshotRoot(place.projectRoot), config, dirs, prompt };
    const text = JSON.stringify(snap);
    if ((await fs.readFile(file, 'utf8').catch(missingOr(null, 'prompt snapshot: read'))) === text) return;
    await fs.mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, text);
  } catch (err) {
    onUnexpectedError(err, 'prompt snapshot: save'); // an optimisation: without it `memdesk mcp` loads the notes first
  }
}

/** The notes directories of `core` with their mtimes now: stat'ed before the prompt is built from them. */
export async function takeDirStamps(core: MemoryCore): Promise<Snapshot['dirs']> {
  const dirs = [core.project?.memoryDir ?? null, core.store('user')?.dir ?? null].filter(
    (d): d is string => d !== null,
  );
  return Promise.all(dirs.map(async (d): Promise<[string, number | null]> => [d, await mtimeOf(d)]));
}
