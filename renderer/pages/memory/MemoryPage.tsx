import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/describe-error.js';
import { useApiQuery, useDeferredApiQuery } from '../../api/queries.js';
import { registerCommand } from '../../app/commands.js';
import { useDrafts } from '../../state/draft-store.js';
import { firstListStore } from '../../state/first-list.js';
import { editorStore } from '../../state/editor-store.js';
import { exactIdFirst, filterAndSort, hitRow, rowKey, type ListRow } from '../../state/note-list.js';
import { useConflictList } from '../../sync/hooks.js';
import { uiStore, useListView, useUi } from '../../state/ui-store.js';
import { NewNoteForm } from './NewNoteForm.js';
import { NoteList } from './NoteList.js';
import { Toolbar } from './Toolbar.js';
import { Welcome } from './Welcome.js';
import { useNotePages } from './useNotePages.js';

/**
 * Search hits asked for at first: a few screens of rows (each hit costs the bridge, the wire and
 * the page); scrolling near the end or "show more" asks for as many again.
 */
const SEARCH_PAGE = 50;
const NO_ROWS: readonly ListRow[] = [];
const NO_TAGS: Array<{ tag: string; count: number }> = [];
const selectRow = (row: ListRow) => uiStore.getState().select({ kind: 'note', id: row.id, scope: row.scope });

// The editor brings CodeMirror: loaded on first use so the list shows before it is parsed.
const NoteEditor = lazy(() => import('./NoteEditor.js').then((m) => ({ default: m.NoteEditor })));

export function MemoryPage() {
  const { t } = useTranslation();
  const { scope, query, typeFilter, tagFilter, sort } = useListView();
  const selection = useUi((s) => s.selection);
  const searchRef = useRef<HTMLInputElement>(null);

  // The list a page at a time, filtered and sorted by the core; search hits carry the same fields.
  const list = useNotePages({
    scope,
    sort: sort === 'relevance' ? 'updated' : sort,
    type: typeFilter,
    tag: tagFilter,
  });
  // The raw query (trailing space included: it tells the core the last word is finished). Asked
  // at every key, not after a pause: the previous key's search, if still running, is cancelled
  // (the query's AbortSignal), so the answer shown is always the last key's
  // (bench/ui/search-as-you-type.ts, docs/performance.md).
  const q = query.trim() ? query : '';
  // Hits asked for: a page, more after "show more" — for that query and scope only (a new key asks
  // for one page again, in the same render: no second request).
  const [widened, setWidened] = useState({ q: '', scope, limit: SEARCH_PAGE });
  const limit = widened.q === q && widened.scope === scope ? widened.limit : SEARCH_PAGE;
  // One more than shown: whether more notes match is known without counting them all.
  const search = useApiQuery(
    'notes.search',
    { query: q, limit: limit + 1, scope, listing: true },
    { enabled: q.length > 0, placeholderData: keepPreviousData },
  );
  const more = !!q && (search.data?.notes.length ?? 0) > limit;
  // The first page drawn (or failed): the status bar, badges and sync state may be asked for now.
  useEffect(() => {
    if (!list.isPending) firstListStore.getState().markShown();
  }, [list.isPending]);

  // Each step keeps its array while its inputs stay: a key whose answer has not come yet (the
  // previous hits stay as placeholder) leaves the rows as they are, and the list is not redrawn.
  const hits = useMemo(() => search.data?.notes.slice(0, limit).map(hitRow), [search.data, limit]);
  const sortedHits = useMemo(
    () => hits && filterAndSort(hits, { typeFilter, tagFilter, sort }),
    [hits, typeFilter, tagFilter, sort],
  );
  const shown = useMemo(
    () => (!q ? list.notes : sortedHits ? exactIdFirst(sortedHits, q) : NO_ROWS),
    [q, list.notes, sortedHits],
  );
  const searchingMore = search.isFetching;
  const showMore = useCallback(() => setWidened({ q, scope, limit: limit + SEARCH_PAGE }), [q, scope, limit]);
  const loadMoreHits = useCallback(() => {
    if (more && !searchingMore) showMore();
  }, [more, searchingMore, showMore]);
  // One function for the list's whole life, calling the current one: a new function at every key
  // (showMore changes with the query) would redraw the memoised list before its hits arrive.
  const nearEnd = useRef(loadMoreHits);
  nearEnd.current = q ? loadMoreHits : list.loadMore;
  const onNearEnd = useCallback(() => nearEnd.current(), []);
  const tags =
    useDeferredApiQuery('notes.tags', { scope }, { placeholderData: keepPreviousData }).data?.tags ?? NO_TAGS;
  const keptDrafts = useDrafts((s) => s.notes);
  const draftKeys = useMemo(() => new Set(Object.keys(keptDrafts)), [keptDrafts]);
  const conflictList = useConflictList();
  const conflictKeys = useMemo(
    () => new Set((conflictList.data?.conflicts ?? []).map(rowKey)),
    [conflictList.data],
  );

  // The open note's draft (if any) stays kept; the new-note form brings back its own draft.
  const newNote = useCallback(() => {
    editorStore.getState().close();
    uiStore.getState().select({ kind: 'new' });
  }, []);

  useEffect(() => {
    const offs = [
      registerCommand('note.new', newNote),
      registerCommand('find', () => {
        searchRef.current?.focus();
        searchRef.current?.select();
      }),
    ];
    // Ctrl/Cmd+F and +N are the App's (every tab); back and forward are this page's.
    function onKey(e: KeyboardEvent) {
      const mod = e.ctrlKey || e.metaKey;
      if (e.altKey && !mod && !e.shiftKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
        e.preventDefault();
        if (e.key === 'ArrowLeft') uiStore.getState().goBack();
        else uiStore.getState().goForward();
      }
    }
    // The mouse's back and forward buttons.
    function onMouseUp(e: MouseEvent) {
      if (e.button === 3) uiStore.getState().goBack();
      if (e.button === 4) uiStore.getState().goForward();
    }
    window.addEventListener('keydown', onKey);
    window.addEventListener('mouseup', onMouseUp);
    return () => {
      offs.forEach((off) => off());
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('mouseup', onMouseUp);
    };
  }, [newNote]);

  const filtering = q.length > 0 || typeFilter !== 'all' || tagFilter.trim() !== '';
  return (
    <div className="memory-page">
      <section
        className="list-pane"
        aria-label={t('list.notes')}
        // Which query the drawn rows answer ('' for the list): tests and the bench wait on it.
        data-shown-query={q && search.data && !search.isPlaceholderData ? q : ''}
      >
        <Toolbar tags={tags} searchRef={searchRef} onNew={newNote} />
        <div className="list-count-row">
          <div className="list-count" aria-live="polite" data-testid="list-count">
            {list.isPending
              ? t('list.loading')
              : more
                ? t('list.countMore', { count: shown.length })
                : t('list.count', { count: q ? shown.length : list.total })}
          </div>
          {more ? (
            <button type="button" className="link" onClick={showMore} data-testid="show-more">
              {t('list.showMore', { count: SEARCH_PAGE })}
            </button>
          ) : null}
        </div>
        {list.error ? (
          <p className="error" role="alert">
            {describeError(list.error, t)}
          </p>
        ) : null}
        {!list.isPending && shown.length === 0 ? (
          <div className="empty">
            <p>{filtering ? t('list.emptyFiltered') : t('list.emptyAll')}</p>
            {filtering ? (
              <button type="button" onClick={() => uiStore.getState().resetFilters()}>
                {t('list.clearFilters')}
              </button>
            ) : null}
          </div>
        ) : (
          <NoteList
            rows={shown}
            selection={selection}
            label={t('list.notes')}
            drafts={draftKeys}
            conflicts={conflictKeys}
            onNearEnd={onNearEnd}
            onSelect={selectRow}
          />
        )}
      </section>
      <section className="editor-pane" aria-label={t('note.editorRegion')}>
        {selection?.kind === 'note' ? (
          <Suspense fallback={<p className="muted">{t('list.loading')}</p>}>
            <NoteEditor
              key={`${selection.scope}:${selection.id}`}
              id={selection.id}
              scope={selection.scope}
            />
          </Suspense>
        ) : selection?.kind === 'new' ? (
          <NewNoteForm />
        ) : (
          <Welcome noteCount={list.isPending ? null : list.total} onNew={newNote} />
        )}
      </section>
    </div>
  );
}
