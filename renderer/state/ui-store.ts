import { createStore, useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { Scope } from '../../shared/note.js';
import type { ListSort, TypeFilter } from '../../shared/note-list-order.js';

/** UI-only state: what is selected and how the list is filtered. Server data stays in react-query. */

export type ScopeSelection = Scope | 'both';
export type SortKey = ListSort | 'relevance';
export type { TypeFilter };
export type ThemeChoice = 'system' | 'light' | 'dark';
export type NoteRef = { kind: 'note'; id: string; scope: Scope };
export type Selection = NoteRef | { kind: 'new' } | null;

const HISTORY_MAX = 50;

/**
 * One step along the history (back, or forward): the last note of `from` is opened, and the note
 * left goes on `to`, the other way's stack; null when `from` is empty.
 */
function historyStep(selection: Selection, from: NoteRef[], to: NoteRef[]) {
  const next = from[from.length - 1];
  if (!next) return null;
  return {
    selection: next,
    from: from.slice(0, -1),
    to: selection?.kind === 'note' ? [...to, selection] : to,
  };
}

function sameRef(a: Selection, b: NoteRef): boolean {
  return a?.kind === 'note' && a.id === b.id && a.scope === b.scope;
}

export interface UiState {
  activeTab: string;
  scope: ScopeSelection;
  query: string;
  typeFilter: TypeFilter;
  tagFilter: string;
  sort: SortKey;
  selection: Selection;
  /** Notes left by following links (newest last) and those gone back from, for Alt+←/→. */
  back: NoteRef[];
  forward: NoteRef[];
  /** A note opened from the quick switcher: its editor takes the focus once drawn (then null). */
  focusOnOpen: NoteRef | null;
  theme: ThemeChoice;
  /** VS Code's Ctrl+M: Tab leaves the text editor instead of indenting. */
  tabMovesFocus: boolean;
  /** The warnings the person closed the bar for (their keys); a new warning opens it again. */
  hiddenWarnings: readonly string[];
  setTabMovesFocus(on: boolean): void;
  hideWarnings(keys: readonly string[]): void;
  setActiveTab(tab: string): void;
  setScope(scope: ScopeSelection): void;
  setQuery(query: string): void;
  setTypeFilter(type: TypeFilter): void;
  setTagFilter(tag: string): void;
  setSort(sort: SortKey): void;
  select(selection: Selection): void;
  /** Opens a note by following a link (or the quick switcher): the note left goes on the back stack. */
  follow(target: NoteRef, opts?: { focus?: boolean }): void;
  /** The opened note's editor took the focus. */
  focusTaken(): void;
  goBack(): void;
  goForward(): void;
  setTheme(theme: ThemeChoice): void;
  resetFilters(): void;
}

export function createUiStore(initial: Partial<Pick<UiState, 'theme' | 'activeTab'>> = {}) {
  return createStore<UiState>()((set, get) => ({
    activeTab: initial.activeTab ?? 'memory',
    scope: 'both',
    query: '',
    typeFilter: 'all',
    tagFilter: '',
    sort: 'updated',
    selection: null,
    back: [],
    forward: [],
    theme: initial.theme ?? 'system',
    tabMovesFocus: false,
    hiddenWarnings: [],
    setTabMovesFocus: (tabMovesFocus) => set({ tabMovesFocus }),
    hideWarnings: (hiddenWarnings) => set({ hiddenWarnings }),
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
    focusOnOpen: null,
    follow: (target, opts) => {
      const { selection, back } = get();
      if (opts?.focus) set({ focusOnOpen: target });
      if (sameRef(selection, target)) return;
      set({
        selection: target,
        back: selection?.kind === 'note' ? [...back, selection].slice(-HISTORY_MAX) : back,
        forward: [],
      });
    },
    focusTaken: () => set({ focusOnOpen: null }),
    goBack: () => {
      const { selection, back, forward } = get();
      const step = historyStep(selection, back, forward);
      if (step) set({ selection: step.selection, back: step.from, forward: step.to });
    },
    goForward: () => {
      const { selection, back, forward } = get();
      const step = historyStep(selection, forward, back);
      if (step) set({ selection: step.selection, forward: step.from, back: step.to });
    },
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
    return 'system'; // storage refused (disabled, private mode): follow the system theme
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

/** What the note list shows: the scope, the search and the filters (the Memory page and its toolbar). */
export function useListView(): Pick<UiState, 'scope' | 'query' | 'typeFilter' | 'tagFilter' | 'sort'> {
  return useStore(
    uiStore,
    useShallow((s) => ({
      scope: s.scope,
      query: s.query,
      typeFilter: s.typeFilter,
      tagFilter: s.tagFilter,
      sort: s.sort,
    })),
  );
}
