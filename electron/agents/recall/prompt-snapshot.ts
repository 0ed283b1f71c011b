import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../memory/atomic-write.js';
import { loadMemoryConfig } from '../../memory/config.js';
import type { MemoryCore } from '../../memory/types.js';
import { missingOr, onUnexpectedError, unlessMissing } from '../../memory/unexpected-error.js';

/**
 * The last memory prompt built for a project, kept per machine under `$OHARNESS_HOME/memory-cache/`
 * so `memdesk mcp` can put it in `instructions` before loading a single note (issue 14: initialize
 * answered at once; issue 13: the index in `instructions`).
 *
 * Valid only while nothing it was built from changed: the notes directories' mtimes (every write
 * through Memory Desk, or an editor that saves by renaming, creates, renames or deletes a file in
 * the directory, which moves its mtime) and the effective config (files and environment). A
 * snapshot whose directory changed within RACY_MS of being taken is not saved: a later change in
 * the same clock tick could not be told apart. Anything unreadable → no snapshot, never a wrong one.
 */
export const RACY_MS = 2000;

const SnapshotSchema = z.object({
  version: z.literal(1),
  config: z.string(),
  /** Each notes directory the prompt was built from, with its mtime (null: it did not exist). */
  dirs: z.array(z.tuple([z.string(), z.number().nullable()])),
  prompt: z.string(),
});
type Snapshot = z.infer<typeof SnapshotSchema>;

export interface SnapshotPlace {
  home: string;
  projectRoot: string | null;
  env: Record<string, string | undefined>;
}

function snapshotFile(home: string, projectRoot: string | null): string {
  const key = createHash('sha256')
    .update(projectRoot === null ? '' : path.resolve(projectRoot))
    .digest('hex')
    .slice(0, 24);
  // Beside the index cache (memory/index-cache.ts), which this module does not load: mcp starts light.
  return path.join(home, 'memory-cache', `prompt-${key}.json`);
}

const configHash = (config: unknown) => createHash('sha256').update(JSON.stringify(config)).digest('hex');

async function mtimeOf(dir: string): Promise<number | null> {
  try {
    return (await fs.stat(dir)).mtimeMs;
  } catch (err) {
    unlessMissing(err, 'prompt snapshot: stat');
    return null;
  }
}

/** The prompt saved for this project when nothing it was built from changed since; else null. */
export async function readPromptSnapshot(place: SnapshotPlace): Promise<string | null> {
  try {
    const text = await fs.readFile(snapshotFile(place.home, place.projectRoot), 'utf8');
    const snap = SnapshotSchema.parse(JSON.parse(text));
    const { config } = await loadMemoryConfig({
      home: place.home,
      env: place.env,
      ...(place.projectRoot !== null ? { projectRoot: place.projectRoot } : {}),
    });
    if (configHash(config) !== snap.config) return null;
    for (const [dir, mtime] of snap.dirs) if ((await mtimeOf(dir)) !== mtime) return null;
    return snap.prompt;
  } catch {
    return null; // no snapshot yet, or one that cannot be trusted
  }
}

/**
 * Saves the prompt just built from `core`'s notes. The directories are stat'ed by the caller before
 * the prompt was built (`takeDirStamps`), so a change made meanwhile leaves a stamp that no longer
 * matches. Best effort: a home that cannot be written just has no snapshot.
 */
export async function savePromptSnapshot(
  core: MemoryCore,
  dirs: Snapshot['dirs'],
  prompt: string,
): Promise<void> {
  try {
    if (!core.user.homeUsable) return;
    // Compared with file mtimes, which are the real clock's (core.now may be a test's clock).
    const now = Date.now();
    if (dirs.some(([, mtime]) => mtime !== null && Math.abs(now - mtime) < RACY_MS)) return;
    const file = snapshotFile(core.home, core.project?.root ?? null);
    const snap: Snapshot = { version: 1, config: configHash(core.config), dirs, prompt };
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
