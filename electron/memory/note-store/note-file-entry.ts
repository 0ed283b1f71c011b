import type { Dirent } from 'node:fs';

/**
 * A directory entry that is a note file as the store counts them: `*.md`, not hidden, a file or a
 * symbolic link (held, never followed). scan.ts loads these; scope-full.ts counts them.
 */
export const isNoteFileEntry = (e: Dirent): boolean =>
  (e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.md') && !e.name.startsWith('.');
