import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Finding, FindingKind } from '../../shared/api/cleanup.js';
import { FINDING_KINDS } from '../../shared/api/cleanup.js';
import { useApiClient } from '../api/context.js';
import { uiStore } from '../state/ui-store.js';
import { MergeEditor } from './MergeEditor.js';
import { useCleanupStrings } from './strings.js';
import { invalidateCleanup, useFindings } from './useFindings.js';
import './cleanup.css';

/** 待整理: findings grouped by kind, each with its actions (merge, open, dismiss). */
export function CleanupPage() {
  const { s } = useCleanupStrings();
  const findings = useFindings();
  const client = useApiClient();
  const qc = useQueryClient();
  const [merging, setMerging] = useState<Finding | null>(null);
  const [error, setError] = useState<string | null>(null);
  const list = findings.data?.findings ?? [];
  const byKind = new Map<FindingKind, Finding[]>();
  for (const f of list) byKind.set(f.kind, [...(byKind.get(f.kind) ?? []), f]);

  async function dismiss(f: Finding) {
    setError(null);
    try {
      await client.call('cleanup.dismiss', { findingId: f.id });
      invalidateCleanup(qc);
    } catch (err) {
      setError((err as Error).message);
    }
  }
  function open(f: Finding) {
    const id = f.noteIds[0];
    if (!id) return;
    uiStore.getState().select({ kind: 'note', id, scope: f.scope });
    uiStore.getState().setActiveTab('memory');
  }

  return (
    <div className="page cleanup-page" data-testid="cleanup-page">
      <h2>{s.title}</h2>
      <p className="muted">{s.intro}</p>
      {findings.error || error ? (
        <p className="error" role="alert">
          {error ?? findings.error?.message}
        </p>
      ) : null}
      {!findings.isPending && list.length === 0 ? (
        <p className="empty" data-testid="cleanup-empty">
          {s.empty}
        </p>
      ) : null}
      {FINDING_KINDS.filter((k) => byKind.has(k)).map((kind) => (
        <section key={kind} className="finding-group" data-testid={`findings-${kind}`}>
          <h3>
            {s.kinds[kind]} <span className="count">{byKind.get(kind)!.length}</span>
          </h3>
          <ul>
            {byKind.get(kind)!.map((f) => (
              <li key={f.id} className="finding" data-testid="finding" data-finding-id={f.id}>
                <div className="finding-text">
                  <span className="finding-notes">
                    {f.noteIds.map((id) => (
                      <code key={id}>{id}</code>
                    ))}
                    <span className="scope-chip">{s.scope[f.scope]}</span>
                  </span>
                  <span className="muted">{f.detail}</span>
                </div>
                <div className="finding-actions">
                  {kind === 'same_topic' ? (
                    <button className="primary" data-testid="finding-merge" onClick={() => setMerging(f)}>
                      {s.merge}
                    </button>
                  ) : (
                    <button data-testid="finding-open" onClick={() => open(f)}>
                      {s.open}
                    </button>
                  )}
                  <button data-testid="finding-dismiss" onClick={() => void dismiss(f)}>
                    {s.dismiss}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {merging ? (
        <MergeEditor
          finding={merging}
          onClose={() => setMerging(null)}
          onApplied={() => {
            setMerging(null);
            invalidateCleanup(qc);
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
