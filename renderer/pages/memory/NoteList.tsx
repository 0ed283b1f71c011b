import { useCallback, useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { rowKey, type ListRow } from '../../state/note-list.js';
import { uiStore, type Selection } from '../../state/ui-store.js';
import { explainHit, formatDay, formatTime } from './format.js';

const ROW_HEIGHT = 58;
const estimateSize = () => ROW_HEIGHT;

/**
 * The note list, virtualised: only the rows in view (plus a few) are in the DOM, so 10,000 notes
 * scroll as smoothly as 10. A listbox: arrow keys, Home/End move the selection; Enter opens.
 */
export function NoteList(props: {
  rows: ListRow[];
  selection: Selection;
  onSelect: (row: ListRow) => void;
  label: string;
  /** Keys (`scope:id`) of the notes with a kept, unsaved draft. */
  drafts: ReadonlySet<string>;
  /** Keys of the notes with a sync conflict waiting. */
  conflicts: ReadonlySet<string>;
  /** Called when the rows near the end are drawn: the next page of the list is fetched. */
  onNearEnd?: (() => void) | undefined;
}) {
  const { t, i18n } = useTranslation();
  const parent = useRef<HTMLDivElement>(null);
  const { rows } = props;
  // Stable callbacks: a new getItemKey would make the virtualizer re-measure all rows on every render.
  const getItemKey = useCallback((i: number) => rowKey(rows[i]!), [rows]);
  const getScrollElement = useCallback(() => parent.current, []);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement,
    estimateSize,
    overscan: 8,
    getItemKey,
  });
  const selectedKey = props.selection?.kind === 'note' ? rowKey(props.selection) : null;
  const selectedIndex = selectedKey ? props.rows.findIndex((r) => rowKey(r) === selectedKey) : -1;

  const lastDrawn = virtualizer.getVirtualItems().at(-1)?.index ?? -1;
  const { onNearEnd } = props;
  useEffect(() => {
    if (onNearEnd && lastDrawn >= rows.length - 20) onNearEnd();
  }, [lastDrawn, rows.length, onNearEnd]);

  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);

  function onKeyDown(e: React.KeyboardEvent) {
    const n = props.rows.length;
    if (n === 0) return;
    let next = -1;
    if (e.key === 'ArrowDown') next = Math.min(n - 1, selectedIndex + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, selectedIndex < 0 ? 0 : selectedIndex - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = n - 1;
    else if (e.key === 'PageDown') next = Math.min(n - 1, Math.max(0, selectedIndex) + 10);
    else if (e.key === 'PageUp') next = Math.max(0, selectedIndex - 10);
    if (next >= 0) {
      e.preventDefault();
      props.onSelect(props.rows[next]!);
    }
  }

  const activeId = selectedKey ? `row-${cssId(selectedKey)}` : undefined;
  return (
    <div
      ref={parent}
      className="note-list"
      role="listbox"
      aria-label={props.label}
      tabIndex={0}
      aria-activedescendant={selectedIndex >= 0 ? activeId : undefined}
      onKeyDown={onKeyDown}
      data-testid="note-list"
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = props.rows[item.index]!;
          const key = rowKey(row);
          const selected = key === selectedKey;
          return (
            <div
              key={item.key}
              id={`row-${cssId(key)}`}
              role="option"
              aria-selected={selected}
              aria-setsize={props.rows.length}
              aria-posinset={item.index + 1}
              className={selected ? 'note-row selected' : 'note-row'}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                height: ROW_HEIGHT,
                transform: `translateY(${item.start}px)`,
              }}
              onClick={() => props.onSelect(row)}
              title={row.why ? `${t('list.whyTitle')}: ${explainHit(row.why, t)}` : undefined}
              data-note-id={row.id}
              translate="no"
              data-scope={row.scope}
            >
              <div className="note-row-summary">
                {props.conflicts.has(key) ? (
                  <span
                    className="conflict-mark"
                    title={t('note.syncConflictMark')}
                    data-testid="conflict-mark"
                  >
                    ⚠<span className="sr-only">{t('note.syncConflictMark')}</span>
                  </span>
                ) : null}
                {props.drafts.has(key) ? (
                  <span className="draft-mark" title={t('note.draftMark')} data-testid="draft-mark">
                    ●<span className="sr-only">{t('note.draftMark')}</span>
                  </span>
                ) : null}
                {row.summary || row.id}
              </div>
              <div className="note-row-meta">
                <span
                  className={`badge scope-${row.scope}`}
                  title={row.type ? `${t('note.type')}: ${t(`types.${row.type}`)}` : undefined}
                >
                  {t(`scope.${row.scope}`)}
                </span>
                {/* A project note of type project (a user note of type user) would read "Project project". */}
                {row.type && row.type !== row.scope ? (
                  <span className={`badge type-${row.type}`}>{t(`types.${row.type}`)}</span>
                ) : null}
                {row.tags.slice(0, 3).map((tag) => (
                  // Mouse shortcut to the tag filter (keyboard: the tag field); the row's own click is not run.
                  <span
                    key={tag}
                    className="tag tag-chip"
                    title={t('list.filterByTag', { tag })}
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
                  <span className="note-row-score">{t('list.score', { score: row.score.toFixed(2) })}</span>
                ) : (
                  <span className="note-row-date" title={formatTime(row.updatedAt, i18n.language)}>
                    {formatDay(row.updatedAt, i18n.language)}
                  </span>
                )}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

function cssId(key: string): string {
  return key.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}
