import { createStore, useStore } from 'zustand';
import type { Scope } from '../../shared/note.js';

/** Which conflict the person is looking at, and whether the hand-merge editor is open (UI state). */
export interface ConflictRef {
  id: string;
  scope: Scope;
}

export interface ConflictUiState {
  selected: ConflictRef | null;
  merging: boolean;
  select(ref: ConflictRef | null): void;
  setMerging(on: boolean): void;
}

export const conflictStore = createStore<ConflictUiState>()((set) => ({
  selected: null,
  merging: false,
  select: (selected) => set({ selected, merging: false }),
  setMerging: (merging) => set({ merging }),
}));

export function useConflictUi<T>(pick: (s: ConflictUiState) => T): T {
  return useStore(conflictStore, pick);
}

export const sameConflict = (a: ConflictRef | null, b: ConflictRef | null): boolean =>
  !!a && !!b && a.id === b.id && a.scope === b.scope;

/** "Next conflict": the one after `current` in the list, wrapping around. */
export function following(list: readonly ConflictRef[], current: ConflictRef | null): ConflictRef | null {
  if (list.length === 0) return null;
  const i = current ? list.findIndex((c) => sameConflict(c, current)) : -1;
  return list[(i + 1) % list.length]!;
}

/**
 * The conflict to show once `current` is resolved: the one that followed it (else the one before
 * it, else none) — the person keeps their place in the list.
 */
export function afterResolving(list: readonly ConflictRef[], current: ConflictRef): ConflictRef | null {
  const i = list.findIndex((c) => sameConflict(c, current));
  const rest = list.filter((c) => !sameConflict(c, current));
  if (rest.length === 0) return null;
  return rest[Math.max(0, Math.min(i < 0 ? 0 : i, rest.length - 1))]!;
}
