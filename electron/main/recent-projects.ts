import { z } from 'zod';
import { readJsonSync, writeJson } from './json-file.js';

const MAX_RECENT = 10;
const RecentSchema = z.object({ projects: z.array(z.string()) });

/** Most recent first, no duplicates, at most ten. */
export function pushRecent(list: readonly string[], root: string): string[] {
  return [root, ...list.filter((p) => p !== root)].slice(0, MAX_RECENT);
}

export function loadRecentProjects(file: string): string[] {
  const parsed = RecentSchema.safeParse(readJsonSync(file));
  return parsed.success ? parsed.data.projects : [];
}

export function saveRecentProjects(file: string, projects: readonly string[]): Promise<void> {
  return writeJson(file, { projects });
}
