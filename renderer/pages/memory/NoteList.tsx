import { memo, useCallback, useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { rowKey, type ListRow } from '../../state/note-list.js';
import type { Selection } from '../../state/ui-store.js';
import { NoteRow, ROW_HEIGHT } from './NoteRow.js';
import { useRowWords } from './row-words.js';

const estimateSize = () => ROW_HEIGHT;

/**
 * The note list, virtualised: only the rows in view (plus a few) are in the DOM, so 10,000 notes
 * scroll as smoothly as 10. A listbox: arrow keys, Home/End move the selection; Enter opens.
 * Memoised: typing a search redraws the list only when the rows or what marks them change.
 */
export const NoteList = memo(function NoteList(props: {
  rows: readonly ListRow[];
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
  const words = useRowWords();
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
          return (
            // Keyed by position: new hits reuse the rows already drawn (their text changes) instead
            // of removing two dozen elements and creating as many.
            <NoteRow
              key={item.index}
              row={row}
              domId={`row-${cssId(key)}`}
              selected={key === selectedKey}
              conflict={props.conflicts.has(key)}
              draft={props.drafts.has(key)}
              setSize={props.rows.length}
              position={item.index + 1}
              top={item.start}
              words={words}
              onSelect={props.onSelect}
            />
          );
        })}
      </div>
    </div>
  );
});

function cssId(key: string): string {
  return key.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}
