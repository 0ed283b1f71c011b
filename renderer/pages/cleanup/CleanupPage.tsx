import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Finding, FindingKind, MergeResult } from '../../../shared/api/cleanup.js';
import { FINDING_KINDS } from '../../../shared/api/cleanup.js';
import type { Scope } from '../../../shared/note.js';
import { useApiClient } from '../../api/context.js';
import { useApiQuery } from '../../api/queries.js';
import { showToast } from '../../state/toast-store.js';
import { uiStore } from '../../state/ui-store.js';
import { MergeEditor } from './MergeEditor.js';
import { useCleanupStrings } from './strings.js';
import { invalidateCleanup, useFindings } from './useFindings.js';
import './cleanup.css';

/** Findings drawn per group at first: 7,888 findings at 10,000 notes must not be drawn at once. */
const PAGE = 50;

/**
 * 待整理: findings grouped by kind with counts, filtered by kind and scope, each naming its notes by
 * summary, with its actions (merge, open, dismiss, dismiss the group). A merge asks first, reports
 * what it did, and can be undone from the backups it wrote.
 */
export function CleanupPage() {
  const { s, f } = useCleanupStrings();
  const findings = useFindings();
  const notes = useApiQuery('notes.list', { scope: 'both' });
  const client = useApiClient();
  const qc = useQueryClient();
  const [merging, setMerging] = useState<Finding | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [kindFilter, setKindFilter] = useState<FindingKind | 'all'>('all');
  const [scopeFilter, setScopeFilter] = useState<Scope | 'both'>('both');
  const [shown, setShown] = useState<Partial<Record<FindingKind, number>>>({});

  const summaries = useMemo(() => {
    const m = new Map<string, string>();
    for (const n of notes.data?.notes ?? []) m.set(`${n.scope}:${n.id}`, n.summary);
    return m;
  }, [notes.data]);
  const byKind = useMemo(() => {
    const m = new Map<FindingKind, Finding[]>();
    for (const x of findings.data?.findings ?? []) {
      if (kindFilter !== 'all' && x.kind !== kindFilter) continue;
      if (scopeFilter !== 'both' && x.scope !== scopeFilter) continue;
      let list = m.get(x.kind);
      if (!list) m.set(x.kind, (list = []));
      list.push(x);
    }
    return m;
  }, [findings.data, kindFilter, scopeFilter]);
  const total = findings.data?.findings.length ?? 0;

  async function dismiss(list: Finding[]) {
    setError(null);
    try {
      for (const x of list) await client.call('cleanup.dismiss', { findingId: x.id });
      if (list.length > 1) showToast({ tone: 'info', message: f(s.dismissed, { count: list.length }) });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      invalidateCleanup(qc);
    }
  }
  function open(x: Finding) {
    const id = x.noteIds[0];
    if (!id) return;
    uiStore.getState().select({ kind: 'note', id, scope: x.scope });
    uiStore.getState().setActiveTab('memory');
  }
  /** Undo of a merge: every backup it wrote, restored (the kept note's old text, the deleted notes, the repointed ones). */
  async function undoMerge(result: MergeResult) {
    try {
      for (const backupId of result.backupIds) await client.call('backups.restore', { backupId });
      showToast({ tone: 'info', message: s.undone });
    } catch (err) {
      showToast({ tone: 'error', message: (err as Error).message });
    } finally {
      invalidateCleanup(qc);
    }
  }
  const label = (scope: Scope, id: string) => summaries.get(`${scope}:${id}`) || id;

  return (
    <div className="page cleanup-page" data-testid="cleanup-page">
      <h2>{s.title}</h2>
      <p className="muted">{s.intro}</p>
      {findings.error || error ? (
        <p className="error" role="alert">
          {error ?? findings.error?.message}
        </p>
      ) : null}
      {!findings.isPending && total === 0 ? (
        <p className="empty" data-testid="cleanup-empty">
          {s.empty}
        </p>
      ) : null}
      {total > 0 ? (
        <div className="cleanup-filters">
          <label>
            <span>{s.filterKind}</span>
            <select
              value={kindFilter}
              onChange={(e) => setKindFilter(e.target.value as FindingKind | 'all')}
              data-testid="cleanup-kind-filter"
            >
              <option value="all">{s.allKinds}</option>
              {FINDING_KINDS.map((k) => (
                <option key={k} value={k}>
                  {s.kinds[k]}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>{s.filterScope}</span>
            <select
              value={scopeFilter}
              onChange={(e) => setScopeFilter(e.target.value as Scope | 'both')}
              data-testid="cleanup-scope-filter"
            >
              <option value="both">{s.allScopes}</option>
              <option value="project">{s.scope.project}</option>
              <option value="user">{s.scope.user}</option>
            </select>
          </label>
        </div>
      ) : null}
      {FINDING_KINDS.filter((k) => byKind.has(k)).map((kind) => {
        const list = byKind.get(kind)!;
        const limit = shown[kind] ?? PAGE;
        return (
          <section key={kind} className="finding-group" data-testid={`findings-${kind}`}>
            <h3>
              {s.kinds[kind]} <span className="count">{list.length}</span>
              <button
                className="finding-group-dismiss"
                onClick={() => void dismiss(list)}
                data-testid="dismiss-group"
              >
                {f(s.dismissAll, { count: list.length })}
              </button>
            </h3>
            <ul>
              {list.slice(0, limit).map((x) => (
                <li key={x.id} className="finding" data-testid="finding" data-finding-id={x.id}>
                  <div className="finding-text">
                    <span className="finding-notes">
                      {x.noteIds.map((id) => (
                        <span key={id} className="finding-note" title={id} translate="no">
                          {label(x.scope, id)}
                        </span>
                      ))}
                      <span className="scope-chip">{s.scope[x.scope]}</span>
                    </span>
                    <span className="muted">
                      {f(s.detail[kind], { detail: x.detail })}
                      {/* Named in the other languages' sentence; English's detail line already names them. */}
                      {x.targets?.length && s.detail[kind] !== '{{detail}}' ? (
                        <code translate="no"> {x.targets.join(', ')}</code>
                      ) : null}
                    </span>
                  </div>
                  <div className="finding-actions">
                    {kind === 'same_topic' ? (
                      <button className="primary" data-testid="finding-merge" onClick={() => setMerging(x)}>
                        {s.merge}
                      </button>
                    ) : (
                      <button data-testid="finding-open" onClick={() => open(x)}>
                        {s.open}
                      </button>
                    )}
                    <button data-testid="finding-dismiss" onClick={() => void dismiss([x])}>
                      {s.dismiss}
                    </button>
                  </div>
                </li>
              ))}
            </ul>
            {list.length > limit ? (
              <button
                className="link"
                onClick={() => setShown({ ...shown, [kind]: limit + PAGE })}
                data-testid="findings-more"
              >
                {f(s.showMore, { count: Math.min(PAGE, list.length - limit) })}
              </button>
            ) : null}
          </section>
        );
      })}
      {merging ? (
        <MergeEditor
          finding={merging}
          onClose={() => setMerging(null)}
          onApplied={(result, summary) => {
            setMerging(null);
            invalidateCleanup(qc);
            showToast({
              tone: 'info',
              message: f(s.applied, {
                keep: summary,
                deleted: result.deletedIds.length,
                repointed: result.repointed.length,
              }),
              action: { label: s.undoMerge, run: () => undoMerge(result) },
            });
          }}
        />
      ) : null}
    </div>
  );
}

/** The tab's count: how many findings are waiting. */
export function useCleanupBadge(): number | null {
  const findings = useFindings();
  const n = findings.data?.findings.length ?? 0;
  return n > 0 ? n : null;
}
