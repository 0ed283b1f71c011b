import { createStore, useStore } from 'zustand';

/**
 * Whether the page's first screen has what it was opened for: the Memory list's first page drawn
 * (or failed), or another tab opened. Until then the requests that only fill the status bar, the
 * tab badges and the sync state wait (useDeferredApiQuery), so the first page of notes.list is not
 * queued behind them on the bridge (issue 17; bench/ui/first-render.ts).
 */
export const firstListStore = createStore<{ shown: boolean; markShown(): void }>()((set) => ({
  shown: false,
  markShown: () => set({ shown: true }),
}));

export function useFirstListShown(): boolean {
  return useStore(firstListStore, (s) => s.shown);
}
