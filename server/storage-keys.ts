import type { SyncScope } from '../shared/sync-protocol.js';

/**
 * The storage layout (DESIGN.md §7):
 *   users/<user>/projects/<project-id>/memory/{manifest.json, objects/<note-id>/<revision-id>.md}
 *   users/<user>/memory/{manifest.json, objects/<note-id>/<revision-id>.md}
 *   erased/<user>.json                       the erase marker (outside users/ so erase keeps it)
 * <user> is the token's verified `sub`, escaped so that any `sub` is one safe path segment: letters,
 * digits, `_` and `-` stay; every other UTF-8 byte becomes `~XX` (so `.` and `/` can never appear).
 * Project ids are validated by ProjectIdSchema and note ids by noteIdProblem before they get here.
 */
export function userSegment(sub: string): string {
  let out = '';
  for (const byte of Buffer.from(sub, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9_-]/.test(ch) ? ch : `~${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function userPrefix(sub: string): string {
  return `users/${userSegment(sub)}/`;
}

export function scopePrefix(sub: string, scope: SyncScope): string {
  return scope.kind === 'user'
    ? `${userPrefix(sub)}memory/`
    : `${userPrefix(sub)}projects/${scope.projectId}/memory/`;
}

export function manifestKey(sub: string, scope: SyncScope): string {
  return `${scopePrefix(sub, scope)}manifest.json`;
}

export function objectKey(sub: string, scope: SyncScope, noteId: string, rev: string): string {
  return `${scopePrefix(sub, scope)}objects/${noteId}/${rev}.md`;
}

export function eraseMarkerKey(sub: string): string {
  return `erased/${userSegment(sub)}.json`;
}
