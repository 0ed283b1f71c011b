import { promises as fs, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { recordedLocation, type BaselineLocation } from '../baseline-location.js';
import { missingOr, unlessMissing } from '../../memory/unexpected-error.js';

/** A project this home has synced before: where it is, and when its last round saved its baseline. */
export interface KnownProject extends BaselineLocation {
  /** mtime of the baseline's state.json: every round that changed anything saved it. */
  savedAt: number;
}

/** More than this many projects synced from one home are covered newest first, the rest when used. */
export const KNOWN_PROJECTS_LIMIT = 256;

/**
 * The projects of this home that sync has seen: each project's baseline records the checkout it
 * belongs to (baseline-location.ts), so the baselines directory is the home's registry of them.
 * Newest baseline first, at most `limit`. `locations` caches what each baseline records (it
 * changes only when a moved project is adopted), so a sweep reads each state.json once.
 */
export function knownProjects(
  baselinesDir: string,
  locations: Map<string, BaselineLocation | null>,
  limit = KNOWN_PROJECTS_LIMIT,
): KnownProject[] {
  const found: Array<{ name: string; savedAt: number }> = [];
  for (const name of list(baselinesDir)) {
    // Project baselines are `<keyHash>-<tag>`; user notes' is `<keyHash>` alone.
    if (!/^[0-9a-f]{64}-/.test(name)) continue;
    const saved = statSync(path.join(baselinesDir, name, 'state.json'), { throwIfNoEntry: false });
    if (saved) found.push({ name, savedAt: saved.mtimeMs });
  }
  found.sort((x, y) => y.savedAt - x.savedAt);
  const out: KnownProject[] = [];
  for (const { name, savedAt } of found.slice(0, limit)) {
    if (!locations.has(name)) locations.set(name, recordedLocation(path.join(baselinesDir, name)));
    const location = locations.get(name);
    if (location) out.push({ ...location, savedAt });
  }
  return out;
}

/**
 * Whether the notes directory changed after `since`: a note written, edited by hand, added or
 * removed (the directory's own mtime). One stat per note, no reading: cheap enough to sweep every
 * known project now and then; asynchronous, so a large sweep does not hold the owner's other work.
 * Dot-files (locks, caches) are not notes.
 */
export async function changedSince(dir: string, since: number): Promise<boolean> {
  const own = await fs.stat(dir).catch(missingOr(null, 'known projects: stat'));
  if (!own) return false; // gone (moved, deleted): nothing to sync from here
  if (own.mtimeMs > since) return true;
  const names = await fs.readdir(dir).catch(missingOr([] as string[], 'known projects: list notes'));
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const stat = await fs.stat(path.join(dir, name)).catch(missingOr(null, 'known projects: stat note'));
    if (stat && stat.mtimeMs > since) return true;
  }
  return false;
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    unlessMissing(err, 'known projects: list');
    return [];
  }
}
