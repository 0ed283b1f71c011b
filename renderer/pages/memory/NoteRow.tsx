import { memo } from 'react';
import type { ListRow } from '../../state/note-list.js';
import { uiStore } from '../../state/ui-store.js';
import { explainHit, formatDay, formatTime } from './format.js';
import type { RowWords } from './row-words.js';

export const ROW_HEIGHT = 58;

/**
 * One drawn row of the note list. Memoised: while a search is typed the rows on screen stay the
 * same objects until its hits arrive, so a keystroke redraws none of them.
 */
export const NoteRow = memo(function NoteRow(props: {
  row: ListRow;
  domId: string;
  selected: boolean;
  conflict: boolean;
  draft: boolean;
  setSize: number;
  position: number;
  top: number;
  words: RowWords;
  onSelect: (row: ListRow) => void;
}) {
  const { row, words } = props;
  return (
    <div
      id={props.domId}
      role="option"
      aria-selected={props.selected}
      aria-setsize={props.setSize}
      aria-posinset={props.position}
      className={props.selected ? 'note-row selected' : 'note-row'}
      style={{
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        height: ROW_HEIGHT,
        transform: `translateY(${props.top}px)`,
      }}
      onClick={() => props.onSelect(row)}
      title={row.why ? `${words.whyTitle}: ${explainHit(row.why, words.why)}` : undefined}
      data-note-id={row.id}
      translate="no"
      data-scope={row.scope}
    >
      <div className="note-row-summary">
        {props.conflict ? (
          <span className="conflict-mark" title={words.conflict} data-testid="conflict-mark">
            ⚠<span className="sr-only">{words.conflict}</span>
          </span>
        ) : null}
        {props.draft ? (
          <span className="draft-mark" title={words.draft} data-testid="draft-mark">
            ●<span className="sr-only">{words.draft}</span>
          </span>
        ) : null}
        {row.summary || row.id}
      </div>
      <div className="note-row-meta">
        <span className={`badge scope-${row.scope}`} title={row.type ? words.typeTitle[row.type] : undefined}>
          {words.scope[row.scope]}
        </span>
        {/* A project note of type project (a user note of type user) would read "Project project". */}
        {row.type && row.type !== row.scope ? (
          <span className={`badge type-${row.type}`}>{words.type[row.type]}</span>
        ) : null}
        {row.tags.slice(0, 3).map((tag) => (
          // Mouse shortcut to the tag filter (keyboard: the tag field); the row's own click is not run.
          <span
            key={tag}
            className="tag tag-chip"
            title={words.filterByTag(tag)}
            onClick={(e) => {
              e.stopPropagation();
              uiStore.getState().setTagFilter(tag);
            }}
            data-testid="tag-chip"
          >
            #{tag}
          </span>
        ))}
        <span className="note-row-id">{row.id}</span>
        {row.score !== undefined ? (
          <span className="note-row-score">{words.score(row.score.toFixed(2))}</span>
        ) : (
          <span className="note-row-date" title={formatTime(row.updatedAt, words.language)}>
            {formatDay(row.updatedAt, words.language)}
          </span>
        )}
      </div>
    </div>
  );
});
