import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { normalizeNewlines } from './note-format.js';
import type { NoteContent } from './note.js';

/**
 * The canonical content hash (documented in docs/note-format.md): sha256, lower-case hex, over the
 * UTF-8 bytes of JSON.stringify of an object with the keys, in this order,
 *   summary, tags (sorted by UTF-16 code units), type (only when the note has one), body (LF newlines).
 * Timestamps, the id and unknown frontmatter keys are excluded. `type` is omitted when absent so
 * notes written before types existed keep the hashes their sync baselines hold.
 */
export function canonicalContent(note: NoteContent): string {
  const canonical: Record<string, unknown> = {
    summary: note.summary,
    tags: [...note.tags].sort(),
  };
  if (note.type !== undefined) canonical.type = note.type;
  canonical.body = normalizeNewlines(note.body);
  return JSON.stringify(canonical);
}

export function contentHash(note: NoteContent): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalContent(note))));
}
