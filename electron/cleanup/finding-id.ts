import type { FindingKind } from '../../shared/api/cleanup.js';
import type { Scope } from '../../shared/note.js';

/**
 * A finding's stable id: kind + scope + the sorted note ids. Note ids cannot contain ":" or ","
 * (shared/note-id.ts), so the id can be split back into its parts.
 */
export function findingId(kind: FindingKind, scope: Scope, noteIds: readonly string[]): string {
  return `${kind}:${scope}:${sortIds(noteIds).join(',')}`;
}

export function sortIds(ids: readonly string[]): string[] {
  return [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
