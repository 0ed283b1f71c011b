import { lazy, Suspense, useEffect, useMemo, useRef } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/describe-error.js';
import { useApiQuery } from '../../api/queries.js';
import { registerCommand } from '../../app/commands.js';
import { useDrafts } from '../../state/draft-store.js';
import { editorStore } from '../../state/editor-store.js';
import { filterAndSort, joinHits, tagCounts, type ListRow } from '../../state/note-list.js';
import { uiStore, useUi } from '../../state/ui-store.js';
import { explainHit } from './format.js';
import { NewNoteForm } from './NewNoteForm.js';
import { NoteList } from './NoteList.js';
import { Toolbar } from './Toolbar.js';
import { useDebounced } from './useDebounced.js';

// The editor brings CodeMirror: loaded on first use so the list shows before it is parsed.
const NoteEditor = lazy(() => import('./NoteEditor.js').then((m) => ({ default: m.NoteEditor })));

export function MemoryPage() {
  const { t } = useTranslation();
  const scope = useUi((s) => s.scope);
  const query = useUi((s) => s.query);
  const typeFilter = useUi((s) => s.typeFilter);
  const tagFilter = useUi((s) => s.tagFilter);
  const sort = useUi((s) => s.sort);
  const selection = useUi((s) => s.selection);
  const searchRef = useRef<HTMLInputElement>(null);

  const list = useApiQuery('notes.list', { scope }, { placeholderData: keepPreviousData });
  const q = useDebounced(query.trim(), 180);
  const search = useApiQuery(
    'notes.search',
    { query: q, limit: 500, scope },
    { enabled: q.length > 0, placeholderData: keepPreviousData },
  );

  const notes = useMemo(() => list.data?.notes ?? [], [list.data]);
  const rows: ListRow[] = useMemo(() => {
    if (!q || !search.data) return notes;
    return joinHits(
      search.data.notes.map((h) => ({ ...h, why: explainHit(h.why, t) })),
      notes,
    );
  }, [q, search.data, notes, t]);
  const shown = useMemo(
    () =>
      filterAndSort(rows, {
        typeFilter,
        tagFilter,
        sort: q ? sort : sort === 'relevance' ? 'updated' : sort,
      }),
    [rows, typeFilter, tagFilter, sort, q],
  );
  const tags = useMemo(() => tagCounts(notes), [notes]);
  const keptDrafts = useDrafts((s) => s.notes);
  const draftKeys = useMemo(() => new Set(Object.keys(keptDrafts)), [keptDrafts]);

  // The open note's draft (if any) stays kept; the new-note form brings back its own draft.
  const newNote = () => {
    editorStore.getState().close();
    uiStore.getState().select({ kind: 'new' });
  };

  useEffect(() => {
    const offs = [
      registerCommand('note.new', newNote),
      registerCommand('find', () => {
        searchRef.current?.focus();
        searchRef.current?.select();
      }),
    ];
    function onKey(e: KeyboardEvent) {
      const mod = e.ctrlKey || e.metaKey;
      if (!mod || e.shiftKey || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key === 'f') {
        e.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
      } else if (key === 'n') {
        // The desktop menu has this accelerator; the browser demo needs it from the page.
        e.preventDefault();
        newNote();
      }
    }
    window.addEventListener('keydown', onKey);
    return () => {
      offs.forEach((off) => off());
      window.removeEventListener('keydown', onKey);
    };
  }, []);

  const filtering = q.length > 0 || typeFilter !== 'all' || tagFilter.trim() !== '';
  return (
    <div className="memory-page">
      <section className="list-pane" aria-label={t('list.notes')}>
        <Toolbar tags={tags} searchRef={searchRef} onNew={newNote} />
        <div className="list-count" aria-live="polite" data-testid="list-count">
          {list.isPending ? t('list.loading') : t('list.count', { count: shown.length })}
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
            onSelect={(row) => uiStore.getState().select({ kind: 'note', id: row.id, scope: row.scope })}
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
          <div className="empty editor-empty">
            <p>{t('note.nothingSelected')}</p>
          </div>
        )}
      </section>
    </div>
  );
}
