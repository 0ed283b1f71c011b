import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Finding, FindingKind, MergeResult } from '../../../shared/api/cleanup.js';
import { FINDING_KINDS } from '../../../shared/api/cleanup.js';
import type { Scope } from '../../../shared/note.js';
import { useApiClient } from '../../api/context.js';
import { useApiQuery, useDeferredApiQuery } from '../../api/queries.js';
import { LabelledSelect } from '../../components/LabelledSelect.js';
import { PageHeader } from '../../components/PageHeader.js';
import { showToast } from '../../state/toast-store.js';
import { uiStore } from '../../state/ui-store.js';
import { FindingsList } from './FindingsList.js';
import { MergeEditor } from './MergeEditor.js';
import { useCleanupStrings } from './strings.js';
import { useDismiss } from './useDismiss.js';
import { invalidateCleanup, useFindings } from './useFindings.js';
import './cleanup.css';

/**
 * 待整理: findings grouped by kind with counts, filtered by kind and scope, each naming its notes by
 * summary, with its actions (merge, open, dismiss, dismiss the group; a dismissal is undone from the
 * toast or with Ctrl/Cmd+Z). A merge asks first, reports what it did, and can be undone from the
 * backups it wrote.
 */
export function CleanupPage() {
  const { s } = useCleanupStrings();
  const findings = useFindings();
  const notes = useApiQuery('notes.list', { scope: 'both' });
  const client = useApiClient();
  const qc = useQueryClient();
  const [merging, setMerging] = useState<Finding | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [kindFilter, setKindFilter] = useState<FindingKind | 'all'>('all');
  const [scopeFilter, setScopeFilter] = useState<Scope | 'both'>('both');
  const dismiss = useDismiss({ onError: setError, blocked: merging !== null });

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
      showToast({ tone: 'info', message: { key: 'cleanupUi.undone' } });
    } catch (err) {
      showToast({ tone: 'error', message: { error: err } });
    } finally {
      invalidateCleanup(qc);
    }
  }
  const label = (scope: Scope, id: string) => summaries.get(`${scope}:${id}`) || id;
  const noteLabel = (x: Finding) => x.noteIds.map((id) => label(x.scope, id)).join(' + ');

  return (
    <div className="page cleanup-page" data-testid="cleanup-page">
      <PageHeader title={s.title} intro={s.intro} error={error ?? findings.error?.message} />
      {!findings.isPending && total === 0 ? (
        <p className="empty" data-testid="cleanup-empty">
          {s.empty}
        </p>
      ) : null}
      {total > 0 ? (
        <div className="cleanup-filters">
          <LabelledSelect<FindingKind | 'all'>
            label={s.filterKind}
            value={kindFilter}
            onChange={setKindFilter}
            options={[['all', s.allKinds], ...FINDING_KINDS.map((k) => [k, s.kinds[k]] as const)]}
            testId="cleanup-kind-filter"
          />
          <LabelledSelect<Scope | 'both'>
            label={s.filterScope}
            value={scopeFilter}
            onChange={setScopeFilter}
            options={[
              ['both', s.allScopes],
              ['project', s.scope.project],
              ['user', s.scope.user],
            ]}
            testId="cleanup-scope-filter"
          />
        </div>
      ) : null}
      {byKind.size > 0 ? (
        <>
          <p className="muted cleanup-undo-hint">{s.undoHint}</p>
          <FindingsList
            byKind={byKind}
            filterKey={`${kindFilter}:${scopeFilter}`}
            label={label}
            onMerge={setMerging}
            onOpen={open}
            onDismiss={(list) => void dismiss(list, list.length === 1 ? noteLabel(list[0]!) : undefined)}
          />
        </>
      ) : null}
      {merging ? (
        <MergeEditor
          finding={merging}
          onClose={() => setMerging(null)}
          onApplied={(result, summary) => {
            setMerging(null);
            invalidateCleanup(qc);
            showToast({
              tone: 'info',
              message: {
                key: 'cleanupUi.applied',
                params: {
                  keep: summary,
                  deleted: result.deletedIds.length,
                  repointed: result.repointed.length,
                },
              },
              action: { label: { key: 'cleanupUi.undoMerge' }, run: () => undoMerge(result) },
            });
          }}
        />
      ) : null}
    </div>
  );
}

/** The tab's count: how many findings are waiting. */
export function useCleanupBadge(): number | null {
  // A count, not the findings: at 10,000 notes the list is over a megabyte (docs/performance.md).
  const n = useDeferredApiQuery('cleanup.count', {}).data?.count ?? 0;
  return n > 0 ? n : null;
}
