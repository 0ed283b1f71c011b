import { useEffect, useRef } from 'react';
import type { RoundTotals, SyncStatus } from '../../shared/api/sync.js';
import { showToast, type ToastWords } from '../state/toast-store.js';
import { uiStore } from '../state/ui-store.js';
import { useSyncStatus } from './hooks.js';

const KEYS = ['rounds', 'added', 'changed', 'deleted', 'pushed', 'conflicts'] as const;

function totalsOf(s: SyncStatus): RoundTotals {
  const out = { rounds: 0, added: 0, changed: 0, deleted: 0, pushed: 0, conflicts: 0 };
  for (const sc of s.scopes) for (const k of KEYS) out[k] += sc.roundTotals[k];
  return out;
}

/**
 * The toast after sync rounds that ran in the background (the scheduler's, not 立即同步, which
 * shows its own): what every round since the last toast brought — pulled, uploaded, conflicts
 * (with the way to them) — and what still waits: notes to upload, files held. The core adds the
 * rounds up; the page shows the difference since it last looked (a restarted core starts again).
 */
export function useRoundToast(): void {
  const status = useSyncStatus().data;
  const seen = useRef<RoundTotals | null>(null);
  useEffect(() => {
    if (!status) return;
    const now = totalsOf(status);
    const before = seen.current;
    seen.current = now;
    if (!before || now.rounds <= before.rounds) return;
    const d = Object.fromEntries(KEYS.map((k) => [k, now[k] - before[k]])) as RoundTotals;
    if (d.added + d.changed + d.deleted + d.pushed + d.conflicts === 0) return;
    const pending = status.scopes.reduce((n, sc) => n + sc.pendingUploads, 0);
    const held = status.scopes.reduce((n, sc) => n + sc.held.length, 0);
    const parts: ToastWords[] = [
      {
        key: 'syncUi.syncDone',
        params: { added: d.added, changed: d.changed, deleted: d.deleted, pushed: d.pushed },
      },
    ];
    if (d.conflicts > 0) parts.push({ key: 'syncUi.newConflicts', params: { count: d.conflicts } });
    if (pending > 0) parts.push({ key: 'syncUi.waitingUploads', params: { count: pending } });
    if (held > 0) parts.push({ key: 'syncUi.heldFiles', params: { count: held } });
    showToast({
      tone: 'info',
      key: 'sync.done',
      message: parts,
      ...(d.conflicts > 0
        ? {
            action: {
              label: { key: 'syncUi.openConflicts' },
              run: () => uiStore.getState().setActiveTab('conflicts'),
            },
          }
        : {}),
    });
  }, [status]);
}
