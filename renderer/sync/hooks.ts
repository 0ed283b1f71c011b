import { useEffect } from 'react';
import { useIsMutating, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiInput, ApiMethodName, ApiOutput } from '../../shared/api.js';
import { useApiClient } from '../api/context.js';
import type { ApiError } from '../api/errors.js';
import { useDeferredApiQuery } from '../api/queries.js';
import { useFirstListShown } from '../state/first-list.js';
import { useUi } from '../state/ui-store.js';
import { reportedOr } from '../api/unexpected-error.js';

/** Sync methods whose results the page shows; every sync write makes them stale. */
const SYNC_QUERIES = [
  'sync.status',
  'sync.conflicts',
  'sync.conflict',
  'account.devices',
  'encryption.status',
  'notes.list',
  'notes.get',
  'backups.list',
];

export function useSyncStatus() {
  // Events refetch it after every round; the interval only keeps "paused until" and times fresh.
  return useDeferredApiQuery('sync.status', {}, { refetchInterval: 30_000, staleTime: 5_000 });
}

export function useConflictList() {
  return useDeferredApiQuery('sync.conflicts', {}, { staleTime: 5_000 });
}

/** The sign-ins: each keeps the token first and checks it with the server after. */
const SIGN_INS = ['sync.login', 'account.signIn'] as const;

/**
 * A sync write (sync.now, setEnabled, login, logout, resolve) keyed by its method so progress is
 * shared. A sign-in stays pending until the status read after it is back (its onSettled returns
 * that read, which TanStack waits for): see useSigningIn.
 */
export function useSyncMutation<M extends ApiMethodName>(method: M) {
  const client = useApiClient();
  const qc = useQueryClient();
  const signIn = (SIGN_INS as readonly string[]).includes(method);
  return useMutation<ApiOutput<M>, ApiError, ApiInput<M>>({
    mutationKey: [method],
    mutationFn: (input) => client.call(method, input),
    onSettled: () => {
      for (const m of SYNC_QUERIES)
        if (!signIn || m !== 'sync.status') void qc.invalidateQueries({ queryKey: [m] });
      return signIn ? qc.invalidateQueries({ queryKey: ['sync.status'] }) : undefined;
    },
  });
}

/**
 * True while a sign-in runs, until the status read after it is back. Meanwhile the status may say
 * signed in although the server has not answered yet (the token is kept first, and a round or an
 * event reads the status): the sign-in forms stay up through that, or a refused sign-in would
 * unmount them and its reason and what was typed would be lost with them.
 */
export function useSigningIn(): boolean {
  return useIsMutating({ mutationKey: [SIGN_INS[0]] }) + useIsMutating({ mutationKey: [SIGN_INS[1]] }) > 0;
}

/** True while a 立即同步 round runs (from the panel, the header or the menu). */
export function useSyncRunning(): boolean {
  return useIsMutating({ mutationKey: ['sync.now'] }) > 0;
}

/**
 * The Memory page open for a registered project counts as using it: the core keeps its notes
 * checked for 30 minutes after (R-SYNC-SCHED). Renewed every 10 minutes while it stays open.
 */
export function useProjectActivity(): void {
  const client = useApiClient();
  const tab = useUi((s) => s.activeTab);
  const ready = useFirstListShown();
  useEffect(() => {
    if (tab !== 'memory' || !ready) return;
    const touch = () =>
      void client.call('sync.markInUse', {}).catch(reportedOr(undefined, 'sync: mark in use'));
    touch();
    const timer = setInterval(touch, 10 * 60_000);
    return () => clearInterval(timer);
  }, [client, tab]);
}
