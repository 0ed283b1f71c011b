import { effectiveLimits, type SyncLimits } from './sync-protocol.js';

/** UTF-8 bytes a note's frontmatter may take on top of its body limit (`quota.noteBytes`). */
export const NOTE_FRONTMATTER_BYTES = 16 * 1024;

/**
 * The largest commit body a caller may send, from its announced limits: a full commit of notes
 * whose bodies are at the size limit, with their frontmatter, and room for JSON escaping. The
 * server caps bodies at it; the end-to-end encrypted client splits its commits to stay under it.
 */
export function commitBodyLimit(limits: SyncLimits): number {
  const perNote = effectiveLimits(limits).noteBytes + NOTE_FRONTMATTER_BYTES;
  return Math.ceil(limits.quota.changesPerCommit * perNote * 1.25) + 64 * 1024;
}
