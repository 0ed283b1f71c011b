import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { normalizeNewlines } from './note-format.js';
import type { NoteContent } from './note.js';

/**
 * The canonical content hash (documented in docs/note-format.md and docs/sync-protocol.md): sha256,
 * lower-case hex, over the UTF-8 bytes of JSON.stringify of an object with the keys, in this order,
 *   summary, tags (sorted by UTF-16 code units), type (only when the note has one), body (LF
 *   newlines), extra (only when the note has foreign frontmatter keys: canonicalJson of them).
 * Timestamps and the id are excluded. `type` and `extra` are omitted when absent so notes written
 * before they were hashed keep the hashes their sync baselines hold.
 */
export function canonicalContent(note: NoteContent): string {
  const extra = note.extra && Object.keys(note.extra).length > 0 ? canonicalJson(note.extra) : null;
  const fields = legacyCanonicalContent(note);
  return extra === null ? fields : `${fields.slice(0, -1)},"extra":${extra}}`;
}

export function contentHash(note: NoteContent): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalContent(note))));
}

function legacyCanonicalContent(note: NoteContent): string {
  const canonical: Record<string, unknown> = {
    summary: note.summary,
    tags: [...note.tags].sort(),
  };
  if (note.type !== undefined) canonical.type = note.type;
  canonical.body = normalizeNewlines(note.body);
  return JSON.stringify(canonical);
}

/**
 * The hash without foreign keys: the content hash before they were hashed (still accepted from
 * older clients; equal to contentHash when a note has none), and "the same content whatever the
 * frontmatter" for an import's duplicate check.
 */
export function legacyContentHash(note: NoteContent): string {
  return bytesToHex(sha256(utf8ToBytes(legacyCanonicalContent(note))));
}

/** JSON with object keys sorted (recursively), so equal values always hash alike. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
