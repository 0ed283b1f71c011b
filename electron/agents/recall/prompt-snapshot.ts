import { promises as fs } from 'node:fs';
import path from 'node:path';
import { nameHash } from '../../../shared/name-hash.js';

/**
 * The last memory prompt built for a project, kept per machine under `$OHARNESS_HOME/memory-cache/`
 * so `memdesk mcp` can put it in `instructions` before loading a single note (issue 14: initialize
 * answered at once; issue 13: the index in `instructions`).
 *
 * Valid only while nothing it was built from changed: the notes directories' mtimes (every write
 * through Memory Desk, or an editor that saves by renaming, creates, renames or deletes a file in
 * the directory, which moves its mtime) and the config's sources (the user and project config
 * files, byte for byte, and the `OHARNESS_MEMORY_*` environment). A snapshot whose directory
 * changed within RACY_MS of being taken is not saved: a later change in the same clock tick could
 * not be told apart. Anything unreadable → no snapshot, never a wrong one.
 *
 * This module is what `memdesk mcp` reads before it answers initialize, so it loads nothing but
 * Node's fs and path (no zod, no config schema, and no node:crypto either: loading it cost ~5 ms
 * of CPU on every start, a tenth of Node's own start); the saver is prompt-snapshot-save.ts.
 */
export const RACY_MS = 2000;

export interface Snapshot {
  version: 3;
  /** The project it was built for (null: none): a file name shared by two projects is a miss, never a wrong prompt. */
  projectRoot: string | null;
  /** configStamp() of the config's sources the prompt was built under. */
  config: string;
  /** Each notes directory the prompt was built from, with its mtime (null: it did not exist). */
  dirs: Array<[string, number | null]>;
  prompt: string;
}

export interface SnapshotPlace {
  home: string;
  projectRoot: string | null;
  env: Record<string, string | undefined>;
}

/** The project root as a snapshot records it (absolute), or null. */
export const snapshotRoot = (projectRoot: string | null) =>
  projectRoot === null ? null : path.resolve(projectRoot);

export function snapshotFile(home: string, projectRoot: string | null): string {
  // Beside the index cache (memory/index-cache.ts), which this module does not load: mcp starts light.
  return path.join(home, 'memory-cache', `prompt-${nameHash(snapshotRoot(projectRoot) ?? '')}.json`);
}

/** A file's text; null when it (or a folder on its path) does not exist. */
export async function textOrNull(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

/**
 * Everything the layered config is read from (memory/config.ts), as one string: the user config
 * file, the project's, and the `OHARNESS_MEMORY_*` variables. Equal stamps mean an equal config (the
 * texts themselves are compared: a few hundred bytes, no hash to load); an unreadable file throws
 * (no snapshot then).
 */
export async function configStamp(place: SnapshotPlace): Promise<string> {
  // The same paths as memory/config.ts's userConfigPath / projectConfigPath (test/mcp/prompt-snapshot.test.ts).
  const user = await textOrNull(path.join(place.home, 'config.json'));
  const project =
    place.projectRoot === null
      ? null
      : await textOrNull(path.join(place.projectRoot, '.oharness', 'config.json'));
  const env = Object.entries(place.env)
    .filter(([name, value]) => name.startsWith('OHARNESS_MEMORY_') && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([user, project, env]);
}

export async function mtimeOf(dir: string): Promise<number | null> {
  try {
    return (await fs.stat(dir)).mtimeMs;
  } catch {
    return null; // gone or unreadable: the stamp differs, so the snapshot is not trusted
  }
}

function isSnapshot(x: unknown): x is Snapshot {
  if (!x || typeof x !== 'object') return false;
  const s = x as Record<string, unknown>;
  return (
    s.version === 3 &&
    (s.projectRoot === null || typeof s.projectRoot === 'string') &&
    typeof s.config === 'string' &&
    typeof s.prompt === 'string' &&
    Array.isArray(s.dirs) &&
    s.dirs.every(
      (d) =>
        Array.isArray(d) &&
        d.length === 2 &&
        typeof d[0] === 'string' &&
        (d[1] === null || typeof d[1] === 'number'),
    )
  );
}

/** The prompt saved for this project when nothing it was built from changed since; else null. */
export async function readPromptSnapshot(place: SnapshotPlace): Promise<string | null> {
  try {
    const snap: unknown = JSON.parse(await fs.readFile(snapshotFile(place.home, place.projectRoot), 'utf8'));
    if (!isSnapshot(snap) || snap.projectRoot !== snapshotRoot(place.projectRoot)) return null;
    if ((await configStamp(place)) !== snap.config) return null;
    for (const [dir, mtime] of snap.dirs) if ((await mtimeOf(dir)) !== mtime) return null;
    return snap.prompt;
  } catch {
    return null; // no snapshot yet, or one that cannot be trusted
  }
}
