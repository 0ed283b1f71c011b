import { createStore, useStore } from 'zustand';
import { editorStore, isDirty } from '../state/editor-store.js';

/**
 * The unsaved-changes guard: anything that would drop the open draft goes through `guarded`. With
 * a clean editor the action runs at once; with a dirty one the page asks Save / Discard / Cancel.
 */
interface GuardState {
  pending: (() => void) | null;
}

export const guardStore = createStore<GuardState>()(() => ({ pending: null }));

export function guarded(action: () => void): void {
  if (!isDirty(editorStore.getState())) {
    action();
    return;
  }
  guardStore.setState({ pending: action });
}

export function usePendingGuard() {
  return useStore(guardStore, (s) => s.pending);
}

export function resolveGuard(proceed: boolean): void {
  const { pending } = guardStore.getState();
  guardStore.setState({ pending: null });
  if (proceed && pending) pending();
}
