import type { SyncScope } from '../shared/sync-protocol.js';

/**
 * The storage layout (docs/sync-protocol.md):
 *   users/<user>/projects/<project-id>/memory/{manifest.json, objects/<note-id>/<revision-id>.md,
 *                                              packs/<pack-id>.json}
 *   users/<user>/memory/{manifest.json, objects/<note-id>/<revision-id>.md, packs/<pack-id>.json}
 *   users/<user>/keyring.json, users/<user>/e2ee/…   end-to-end encryption (same layout, sealed)
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

/**
 * Sealed (end-to-end encrypted) scopes live under `users/<user>/e2ee/`, apart from the unencrypted
 * ones, so turning encryption on never mixes the two and can remove the unencrypted copy whole.
 */
export function scopePrefix(sub: string, scope: SyncScope, sealed = false): string {
  const root = `${userPrefix(sub)}${sealed ? 'e2ee/' : ''}`;
  return scope.kind === 'user' ? `${root}memory/` : `${root}projects/${scope.projectId}/memory/`;
}

export function manifestKey(sub: string, scope: SyncScope, sealed = false): string {
  return `${scopePrefix(sub, scope, sealed)}manifest.json`;
}

export function objectKey(
  sub: string,
  scope: SyncScope,
  noteId: string,
  rev: string,
  sealed = false,
): string {
  return `${scopePrefix(sub, scope, sealed)}objects/${noteId}/${rev}.md`;
}

/** The revisions of one commit of several notes (server/revisions.ts). */
export function packKey(sub: string, scope: SyncScope, packId: string, sealed = false): string {
  return `${scopePrefix(sub, scope, sealed)}packs/${packId}.json`;
}

/** The account's keyring (end-to-end encryption); its presence marks the account as encrypted. */
export function keyringKey(sub: string): string {
  return `${userPrefix(sub)}keyring.json`;
}

/** The unencrypted scopes of an account (removed once encryption is on and everything re-uploaded). */
export function plaintextPrefixes(sub: string): string[] {
  return [`${userPrefix(sub)}memory/`, `${userPrefix(sub)}projects/`];
}

export function eraseMarkerKey(sub: string): string {
  return `erased/${userSegment(sub)}.json`;
}
