import { createHash } from 'node:crypto';
import type { Scope } from '../../shared/note.js';

/**
 * The logical scope a note directory belongs to, independent of where it lives on this machine
 * and of the account that syncs it:
 *   user notes     → `memory:user`
 *   project notes  → `memory:project:<projectId>` (the id of `.oharness/project.json`: a git repo's
 *                     root commit hash, else a random id — stable across renames and clones)
 * Its sha256 (lower-case hex) keys the scope's entry in plugins.json and its baseline directory.
 */
export interface ScopeRef {
  scope: Scope;
  /** Required for the project scope. */
  projectId?: string | null;
  /** The project's root on this machine (which checkout a baseline belongs to: baseline-location.ts). */
  projectRoot?: string;
}

export function stableScopeKey(ref: ScopeRef): string {
  if (ref.scope === 'user') return 'memory:user';
  if (!ref.projectId) throw new Error('a project scope needs a registered project id');
  return `memory:project:${ref.projectId}`;
}

export function scopeKeyHash(ref: ScopeRef): string {
  return createHash('sha256').update(stableScopeKey(ref), 'utf8').digest('hex');
}
