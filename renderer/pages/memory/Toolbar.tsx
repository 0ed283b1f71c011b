import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTE_TYPES } from '../../../shared/note.js';
import { LabelledSelect } from '../../components/LabelledSelect.js';
import { isEmptyNewNote, useDrafts } from '../../state/draft-store.js';
import { useUi, uiStore, type ScopeSelection, type SortKey, type TypeFilter } from '../../state/ui-store.js';

const SCOPES: ScopeSelection[] = ['project', 'user', 'both'];

/**
 * The list's toolbar. Memoised, and the query is read by the search field and the sort alone: a
 * key typed in the search redraws those, not the toolbar's two dozen labels.
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
  const canBack = useUi((s) => s.back.length > 0);
  const canForward = useUi((s) => s.forward.length > 0);
  // A half-written new note is kept when another note is opened: the button that brings it back says so.
  const newDraft = useDrafts((s) => !isEmptyNewNote(s.newNote));
  const ui = uiStore.getState();
  return (
    <div className="toolbar">
      <div className="toolbar-row">
        <div className="history-buttons">
          <HistoryButton way="back" enabled={canBack} onClick={() => ui.goBack()} />
          <HistoryButton way="forward" enabled={canForward} onClick={() => ui.goForward()} />
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
        <LabelledSelect<TypeFilter>
          label={t('list.type')}
          labelHidden
          value={typeFilter}
          onChange={ui.setTypeFilter}
          options={[
            ['all', t('list.typeAll')],
            ...NOTE_TYPES.map((ty) => [ty, t(`types.${ty}`)] as const),
            ['none', t('list.typeNone')],
          ]}
          testId="type-filter"
        />
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
        <SortSelect />
      </div>
    </div>
  );
});

/** The back and forward buttons of the note history: their words, arrow and shortcut. */
const HISTORY_WAYS = {
  back: { label: 'list.back', arrow: '←', shortcut: 'ArrowLeft' },
  forward: { label: 'list.forward', arrow: '→', shortcut: 'ArrowRight' },
} as const;

function HistoryButton(props: { way: keyof typeof HISTORY_WAYS; enabled: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  const { label, arrow, shortcut } = HISTORY_WAYS[props.way];
  return (
    <button
      type="button"
      className="icon"
      onClick={props.onClick}
      disabled={!props.enabled}
      aria-label={t(label)}
      title={`${t(label)} (Alt+${arrow})`}
      aria-keyshortcuts={`Alt+${shortcut}`}
      data-testid={`nav-${props.way}`}
    >
      {arrow}
    </button>
  );
}

/** The list's order; "relevance" is offered only while searching, so this reads the query itself. */
function SortSelect() {
  const { t } = useTranslation();
  const sort = useUi((s) => s.sort);
  const searching = useUi((s) => s.query.trim() !== '');
  return (
    <LabelledSelect<SortKey>
      label={t('list.sort')}
      labelHidden
      value={sort}
      onChange={uiStore.getState().setSort}
      options={[
        ...(searching ? [['relevance', t('list.sortRelevance')] as const] : []),
        ['updated', t('list.sortUpdated')],
        ['created', t('list.sortCreated')],
        ['summary', t('list.sortSummary')],
      ]}
      testId="sort"
    />
  );
}

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
