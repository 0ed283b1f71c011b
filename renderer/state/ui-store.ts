import { createStore, useStore } from 'zustand';
import type { NoteType, Scope } from '../../shared/note.js';

/** UI-only state: what is selected and how the list is filtered. Server data stays in react-query. */

export type ScopeSelection = Scope | 'both';
export type SortKey = 'updated' | 'created' | 'summary' | 'relevance';
export type TypeFilter = NoteType | 'all' | 'none';
export type ThemeChoice = 'system' | 'light' | 'dark';
export type Selection = { kind: 'note'; id: string; scope: Scope } | { kind: 'new' } | null;

export interface UiState {
  activeTab: string;
  scope: ScopeSelection;
  query: string;
  typeFilter: TypeFilter;
  tagFilter: string;
  sort: SortKey;
  selection: Selection;
  theme: ThemeChoice;
  setActiveTab(tab: string): void;
  setScope(scope: ScopeSelection): void;
  setQuery(query: string): void;
  setTypeFilter(type: TypeFilter): void;
  setTagFilter(tag: string): void;
  setSort(sort: SortKey): void;
  select(selection: Selection): void;
  setTheme(theme: ThemeChoice): void;
  resetFilters(): void;
}

export function createUiStore(initial: Partial<Pick<UiState, 'theme' | 'activeTab'>> = {}) {
  return createStore<UiState>()((set) => ({
    activeTab: initial.activeTab ?? 'memory',
    scope: 'both',
    query: '',
    typeFilter: 'all',
    tagFilter: '',
    sort: 'updated',
    selection: null,
    theme: initial.theme ?? 'system',
    setActiveTab: (activeTab) => set({ activeTab }),
    // Leaving a scope deselects a note that is not in it any more.
    setScope: (scope) =>
      set((s) => ({
        scope,
        selection:
          s.selection?.kind === 'note' && scope !== 'both' && s.selection.scope !== scope
            ? null
            : s.selection,
      })),
    // A search ranks by relevance; clearing it goes back to the last explicit sort.
    setQuery: (query) =>
      set((s) => ({
        query,
        sort:
          query.trim() && s.sort === 'updated' && !s.query.trim()
            ? 'relevance'
            : !query.trim() && s.sort === 'relevance'
              ? 'updated'
              : s.sort,
      })),
    setTypeFilter: (typeFilter) => set({ typeFilter }),
    setTagFilter: (tagFilter) => set({ tagFilter }),
    setSort: (sort) => set({ sort }),
    select: (selection) => set({ selection }),
    setTheme: (theme) => set({ theme }),
    resetFilters: () => set({ query: '', typeFilter: 'all', tagFilter: '', sort: 'updated' }),
  }));
}

export type UiStore = ReturnType<typeof createUiStore>;

function readStoredTheme(): ThemeChoice {
  try {
    const t = globalThis.localStorage?.getItem('memdesk.theme');
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

export const uiStore = createUiStore({ theme: readStoredTheme() });
uiStore.subscribe((s, prev) => {
  if (s.theme !== prev.theme) {
    try {
      globalThis.localStorage?.setItem('memdesk.theme', s.theme);
    } catch {
      /* private mode: the choice lasts for this session */
    }
  }
});

export function useUi<T>(selector: (s: UiState) => T): T {
  return useStore(uiStore, selector);
}
