import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { projectFilePath } from '../memory/project.js';
import { unlessMissing } from '../memory/unexpected-error.js';

/** Where a project's notes live on this machine: its root and its notes directory. */
export const BaselineLocationSchema = z.object({ root: z.string(), dir: z.string() });
export type BaselineLocation = z.infer<typeof BaselineLocationSchema>;

const Recorded = z.looseObject({ location: BaselineLocationSchema.optional() });

/**
 * The baseline directory of a scope on this machine (docs/sync-engine.md, "Where things live").
 * User notes: `<keyHash>`. A project's baselines are keyed by its id (`<keyHash>-<tag>`), each
 * recording the checkout it belongs to (`state.json` → `location`):
 *
 *   1. the baseline recorded for this project root;
 *   2. a baseline from before locations were recorded, named after this notes directory (the old
 *      path-keyed layout; the next round records its location — that is the migration);
 *   3. a baseline recorded for a root that no longer holds this project (the folder was moved or
 *      renamed): adopted, so unsynced edits and deletions made before the move keep their meaning;
 *   4. otherwise a new one. A root that still holds the project is another clone of it (same id,
 *      another path): it keeps its own baseline, and this checkout starts with a full listing —
 *      notes equal on both sides re-baseline, others are pulled or become conflicts; nothing is
 *      deleted (a baseline borrowed from another checkout would read its missing notes as deletions).
 *
 * Synchronous: it runs once when a directory is attached, and reads a few small files.
 */
export function locateBaseline(
  baselinesDir: string,
  keyHash: string,
  location: BaselineLocation | null,
  projectId: string | null,
): string {
  if (!location || !projectId) return path.join(baselinesDir, keyHash);
  const legacyName = `${keyHash}-${createHash('sha256').update(location.dir).digest('hex').slice(0, 12)}`;
  const candidates: Array<{ name: string; location: BaselineLocation | null }> = [];
  for (const name of listDir(baselinesDir)) {
    if (!name.startsWith(`${keyHash}-`)) continue;
    candidates.push({ name, location: recordedLocation(path.join(baselinesDir, name)) });
  }
  const own = candidates.find(
    (c) => c.location && path.resolve(c.location.root) === path.resolve(location.root),
  );
  if (own) return path.join(baselinesDir, own.name);
  const legacy = candidates.find((c) => c.name === legacyName && c.location === null);
  if (legacy) return path.join(baselinesDir, legacy.name);
  const moved = candidates.find((c) => c.location && projectIdAt(c.location.root) !== projectId);
  if (moved) {
    const dir = path.join(baselinesDir, moved.name);
    recordLocation(dir, location); // claimed at once: another clone opened next must not adopt it too
    return dir;
  }
  const taken = candidates.some((c) => c.name === legacyName);
  return path.join(baselinesDir, taken ? `${legacyName}-${randomBytes(4).toString('hex')}` : legacyName);
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (err) {
    unlessMissing(err, 'baselines: list');
    return [];
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if (!(err instanceof SyntaxError)) unlessMissing(err, 'baselines: read'); // damaged: treated as absent
    return null;
  }
}

export function recordedLocation(baselineDir: string): BaselineLocation | null {
  const parsed = Recorded.safeParse(readJson(path.join(baselineDir, 'state.json')));
  return parsed.success ? (parsed.data.location ?? null) : null;
}

/** The project id registered at `root` now (null: no project there any more). */
function projectIdAt(root: string): string | null {
  const data = readJson(projectFilePath(root));
  return data && typeof data === 'object' && 'id' in data && typeof data.id === 'string' ? data.id : null;
}

/** Rewrites the baseline's recorded location (atomically: a temporary file renamed over it). */
function recordLocation(baselineDir: string, location: BaselineLocation): void {
  const file = path.join(baselineDir, 'state.json');
  const data = readJson(file);
  if (!data || typeof data !== 'object') return;
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ ...data, location }));
  fs.renameSync(tmp, file);
}
