import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTE_TYPES } from '../../../shared/note.js';
import { isEmptyNewNote, useDrafts } from '../../state/draft-store.js';
import { useUi, uiStore, type ScopeSelection, type SortKey, type TypeFilter } from '../../state/ui-store.js';

const SCOPES: ScopeSelection[] = ['project', 'user', 'both'];

/**
 * The list's toolbar. Memoised, and the query is read by the search field alone: a key typed in
 * the search redraws that field, not the toolbar's two dozen labels.
 */
export const Toolbar = memo(function Toolbar(props: {
  tags: Array<{ tag: string; count: number }>;
  searchRef: React.RefObject<HTMLInputElement | null>;
  onNew: () => void;
}) {
  const { t } = useTranslation();
  const scope = useUi((s) => s.scope);
  const typeFilter = useUi((s) => s.typeFilter);
  const tagFilter = useUi((s) => s.tagFilter);
  const sort = useUi((s) => s.sort);
  const searching = useUi((s) => s.query.trim() !== '');
  const canBack = useUi((s) => s.back.length > 0);
  const canForward = useUi((s) => s.forward.length > 0);
  // A half-written new note is kept when another note is opened: the button that brings it back says so.
  const newDraft = useDrafts((s) => !isEmptyNewNote(s.newNote));
  const ui = uiStore.getState();
  return (
    <div className="toolbar">
      <div className="toolbar-row">
        <div className="history-buttons">
          <button
            type="button"
            className="icon"
            onClick={() => ui.goBack()}
            disabled={!canBack}
            aria-label={t('list.back')}
            title={`${t('list.back')} (Alt+←)`}
            aria-keyshortcuts="Alt+ArrowLeft"
            data-testid="nav-back"
          >
            ←
          </button>
          <button
            type="button"
            className="icon"
            onClick={() => ui.goForward()}
            disabled={!canForward}
            aria-label={t('list.forward')}
            title={`${t('list.forward')} (Alt+→)`}
            aria-keyshortcuts="Alt+ArrowRight"
            data-testid="nav-forward"
          >
            →
          </button>
        </div>
        <div role="radiogroup" aria-label={t('scope.label')} className="segmented">
          {SCOPES.map((s) => (
            <button
              key={s}
              type="button"
              role="radio"
              aria-checked={scope === s}
              className={scope === s ? 'active' : ''}
              onClick={() => ui.setScope(s)}
              data-testid={`scope-${s}`}
            >
              {t(`scope.${s}`)}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="primary"
          onClick={props.onNew}
          aria-keyshortcuts="Control+N Meta+N"
          title={newDraft ? t('note.newNoteDraft') : undefined}
          data-testid="new-note"
        >
          + {t('note.new')}
          {newDraft ? (
            <span className="draft-mark" data-testid="new-note-draft-mark">
              {' ●'}
              <span className="sr-only">{t('note.newNoteDraft')}</span>
            </span>
          ) : null}
        </button>
      </div>
      <SearchField inputRef={props.searchRef} />
      <div className="toolbar-row filters">
        <label>
          <span className="sr-only">{t('list.type')}</span>
          <select
            aria-label={t('list.type')}
            value={typeFilter}
            onChange={(e) => ui.setTypeFilter(e.target.value as TypeFilter)}
            data-testid="type-filter"
          >
            <option value="all">{t('list.typeAll')}</option>
            {NOTE_TYPES.map((ty) => (
              <option key={ty} value={ty}>
                {t(`types.${ty}`)}
              </option>
            ))}
            <option value="none">{t('list.typeNone')}</option>
          </select>
        </label>
        <label>
          <span className="sr-only">{t('list.tag')}</span>
          <input
            list="tag-options"
            aria-label={t('list.tag')}
            placeholder={t('list.tagPlaceholder')}
            value={tagFilter}
            onChange={(e) => ui.setTagFilter(e.target.value)}
            data-testid="tag-filter"
          />
          <TagOptions tags={props.tags} />
        </label>
        <label>
          <span className="sr-only">{t('list.sort')}</span>
          <select
            aria-label={t('list.sort')}
            value={sort}
            onChange={(e) => ui.setSort(e.target.value as SortKey)}
            data-testid="sort"
          >
            {searching ? <option value="relevance">{t('list.sortRelevance')}</option> : null}
            <option value="updated">{t('list.sortUpdated')}</option>
            <option value="created">{t('list.sortCreated')}</option>
            <option value="summary">{t('list.sortSummary')}</option>
          </select>
        </label>
      </div>
    </div>
  );
});

function SearchField(props: { inputRef: React.RefObject<HTMLInputElement | null> }) {
  const { t } = useTranslation();
  const query = useUi((s) => s.query);
  return (
    <input
      ref={props.inputRef}
      type="search"
      className="search"
      aria-label={t('list.search')}
      placeholder={t('list.searchPlaceholder')}
      value={query}
      onChange={(e) => uiStore.getState().setQuery(e.target.value)}
      aria-keyshortcuts="Control+F Meta+F"
      data-testid="search"
    />
  );
}

/** The tag field's suggestions: up to 200 options, drawn again only when the tags change (not per key typed). */
const TagOptions = memo(function TagOptions(props: { tags: Array<{ tag: string; count: number }> }) {
  return (
    <datalist id="tag-options">
      {props.tags.slice(0, 200).map(({ tag, count }) => (
        <option key={tag} value={tag}>{`${tag} (${count})`}</option>
      ))}
    </datalist>
  );
});
