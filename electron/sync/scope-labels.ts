import type { Scope } from '../../shared/note.js';

/** How messages name a scope, so every error and status line says whose notes it concerns. */
export function scopeLabel(scope: Scope): string {
  return scope === 'user' ? 'Your own notes' : 'Project notes';
}

export function scoped(scope: Scope, message: string): string {
  return `${scopeLabel(scope)}: ${message}`;
}
