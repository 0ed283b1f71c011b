import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/errors.js';
import type { Scope } from '../../shared/note.js';
import { loadMemoryConfig } from './config.js';
import { isNoteFileEntry } from './note-store/note-file-entry.js';
import { resolveProjectNotesDir } from './project.js';

/** The refusal of a new note into a scope at memory.maxNotes (notes-service.ts and refuseIfScopeFull). */
export function scopeFullError(scope: Scope, count: number, maxNotes: number): AppError {
  return new AppError(
    'limit_exceeded',
    `the ${scope} scope already holds ${count} notes (memory.maxNotes is ${maxNotes}); remove some before adding new ones`,
  );
}

export const userNotesDir = (home: string): string => path.join(home, 'memory', 'user');

/**
 * Refuses a new note into a scope already at memory.maxNotes from a listing of its directory alone,
 * so `memdesk remember` into a full scope answers without loading a single note (issue 14). It counts
 * as the store does (every `*.md` file, loaded or held: note-file-entry.ts) under the same layered
 * config. What it cannot tell (no such directory yet, a project folder refused) is left to the
 * store, which refuses or writes as always.
 */
export async function refuseIfScopeFull(
  place: { home: string; projectRoot: string; env: Record<string, string | undefined> },
  scope: Scope,
): Promise<void> {
  const home = path.resolve(place.home);
  // The user store's limit is the user config's (core.ts createUserMemory): a project's config
  // never limits the person's own notes.
  const { config } = await loadMemoryConfig({
    home,
    env: place.env,
    ...(scope === 'project' ? { projectRoot: place.projectRoot } : {}),
  });
  let dir = userNotesDir(home);
  if (scope === 'project') {
    const resolved = await resolveProjectNotesDir(path.resolve(place.projectRoot), config.dir);
    if (!resolved.ok) return;
    dir = resolved.dir;
  }
  let count: number;
  try {
    count = (await fs.readdir(dir, { withFileTypes: true })).filter(isNoteFileEntry).length;
  } catch {
    return; // not listable here: the store says why, or creates it
  }
  if (count >= config.maxNotes) throw scopeFullError(scope, count, config.maxNotes);
}
