/**
 * Why a file could not be read: gone, not ours to read, or the disk failed. Apart from
 * read-failure.ts (which makes AppErrors, and so loads zod) because the hook log imports it from
 * the warm step of a recall (warm-first.ts), bundled on its own without zod's full API.
 */
export type ReadFailureCause = 'missing' | 'permission' | 'io';

export function readFailureCause(err: unknown): ReadFailureCause {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
  if (code === 'EACCES' || code === 'EPERM') return 'permission';
  return 'io';
}
