/**
 * Which conflicts are new since the last list (pure; electron/main/sync-notify.ts shows them).
 * The first list — what was already waiting when the app started — is the baseline: nothing new.
 */
export class ConflictTracker {
  private seen: Set<string> | null = null;

  update<C extends { id: string; scope: string }>(conflicts: readonly C[]): C[] {
    const key = (c: C) => `${c.scope}:${c.id}`;
    const fresh = this.seen ? conflicts.filter((c) => !this.seen!.has(key(c))) : [];
    this.seen = new Set(conflicts.map(key));
    return fresh;
  }
}
