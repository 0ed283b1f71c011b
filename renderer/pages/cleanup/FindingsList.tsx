import { useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import type { Finding, FindingKind } from '../../../shared/api/cleanup.js';
import { FINDING_KINDS } from '../../../shared/api/cleanup.js';
import type { Scope } from '../../../shared/note.js';
import { useCleanupStrings } from './strings.js';

/** One line of the virtual list: a kind's heading (with its count) or one finding. */
type Row = { type: 'group'; kind: FindingKind; list: Finding[] } | { type: 'finding'; finding: Finding };

/** How a finding is named and what its buttons do (the page's). */
interface FindingHandlers {
  label: (scope: Scope, id: string) => string;
  onMerge: (x: Finding) => void;
  onOpen: (x: Finding) => void;
  onDismiss: (list: Finding[]) => void;
}

const GROUP_HEIGHT = 44;
const FINDING_HEIGHT = 62;

/**
 * The findings, grouped by kind, virtualised: 7,888 findings at 10,000 notes put only the rows in
 * view (plus a few) in the DOM. Rows are measured once drawn, since a long detail line wraps.
 */
export function FindingsList(
  props: FindingHandlers & {
    byKind: ReadonlyMap<FindingKind, Finding[]>;
    /** Changes when the filters do: the list goes back to its top (a refetch keeps the position). */
    filterKey: string;
  },
) {
  const { s, f } = useCleanupStrings();
  const parent = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => {
    const out: Row[] = [];
    for (const kind of FINDING_KINDS) {
      const list = props.byKind.get(kind);
      if (!list) continue;
      out.push({ type: 'group', kind, list });
      for (const finding of list) out.push({ type: 'finding', finding });
    }
    return out;
  }, [props.byKind]);
  const getItemKey = useCallback(
    (i: number) => {
      const row = rows[i]!;
      return row.type === 'group' ? `group:${row.kind}` : row.finding.id;
    },
    [rows],
  );
  const estimateSize = useCallback(
    (i: number) => (rows[i]!.type === 'group' ? GROUP_HEIGHT : FINDING_HEIGHT),
    [rows],
  );
  const getScrollElement = useCallback(() => parent.current, []);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement,
    estimateSize,
    getItemKey,
    overscan: 6,
  });
  useEffect(() => {
    if (parent.current) parent.current.scrollTop = 0;
  }, [props.filterKey]);

  return (
    <div ref={parent} className="findings-scroll" data-testid="findings-scroll">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }} role="list">
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <VirtualRow key={item.key} item={item} row={row} measure={virtualizer.measureElement}>
              {row.type === 'group' ? (
                <h3>
                  {s.kinds[row.kind]} <span className="count">{row.list.length}</span>
                  <button
                    className="finding-group-dismiss"
                    onClick={() => props.onDismiss(row.list)}
                    data-testid="dismiss-group"
                  >
                    {f(s.dismissAll, { count: row.list.length })}
                  </button>
                </h3>
              ) : (
                <FindingContent
                  x={row.finding}
                  label={props.label}
                  onMerge={props.onMerge}
                  onOpen={props.onOpen}
                  onDismiss={props.onDismiss}
                />
              )}
            </VirtualRow>
          );
        })}
      </div>
    </div>
  );
}

/** A finding's row: the notes it names with their scope, what was found, and what can be done. */
function FindingContent(props: FindingHandlers & { x: Finding }) {
  const { s, f } = useCleanupStrings();
  const { x } = props;
  return (
    <>
      <div className="finding-text">
        <span className="finding-notes">
          {/* Two summaries side by side read as one title without a mark between them. */}
          {x.noteIds.map((id, i) => (
            <span key={id} className="finding-note" title={id} translate="no">
              {i > 0 ? <span className="finding-sep">·</span> : null}
              {props.label(x.scope, id)}
            </span>
          ))}
          <span className="scope-chip">{s.scope[x.scope]}</span>
        </span>
        <span className="muted">
          {f(s.detail[x.kind], { detail: x.detail })}
          {/* Named in the other languages' sentence; English's detail line already names them. */}
          {x.targets?.length && s.detail[x.kind] !== '{{detail}}' ? (
            <code translate="no"> {x.targets.join(', ')}</code>
          ) : null}
        </span>
      </div>
      <div className="finding-actions">
        {x.kind === 'same_topic' ? (
          <button className="primary" data-testid="finding-merge" onClick={() => props.onMerge(x)}>
            {s.merge}
          </button>
        ) : (
          <button data-testid="finding-open" onClick={() => props.onOpen(x)}>
            {s.open}
          </button>
        )}
        <button data-testid="finding-dismiss" onClick={() => props.onDismiss([x])}>
          {s.dismiss}
        </button>
      </div>
    </>
  );
}

/** One row of the virtual list — a kind's heading or a finding — placed at its offset and measured once drawn. */
function VirtualRow(props: {
  item: VirtualItem;
  row: Row;
  measure: (element: Element | null) => void;
  children: ReactNode;
}) {
  const { row } = props;
  const named =
    row.type === 'group'
      ? { className: 'finding-group', 'data-testid': `findings-${row.kind}` }
      : { className: 'finding', 'data-testid': 'finding', 'data-finding-id': row.finding.id };
  return (
    <div
      ref={props.measure}
      data-index={props.item.index}
      style={{
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        transform: `translateY(${props.item.start}px)`,
      }}
      role="listitem"
      {...named}
    >
      {props.children}
    </div>
  );
}
