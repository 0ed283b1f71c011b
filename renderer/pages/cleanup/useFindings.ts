import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../api/context.js';
import { useApiQuery } from '../../api/queries.js';

/**
 * The findings, refreshed whenever notes change (an edit elsewhere can bring a dismissed finding
 * back, a merge removes one): the app's event map does not list cleanup.findings, so this hook
 * listens for itself.
 */
export function useFindings() {
  const client = useApiClient();
  const qc = useQueryClient();
  useEffect(
    () =>
      client.subscribe((event) => {
        if (event.type === 'notes.changed') void qc.invalidateQueries({ queryKey: ['cleanup.findings'] });
      }),
    [client, qc],
  );
  return useApiQuery('cleanup.findings', {}, { refetchOnMount: 'always' });
}

export function invalidateCleanup(qc: ReturnType<typeof useQueryClient>): void {
  void qc.invalidateQueries({ queryKey: ['cleanup.findings'] });
  void qc.invalidateQueries({ queryKey: ['cleanup.count'] });
  void qc.invalidateQueries({ queryKey: ['notes.list'] });
  void qc.invalidateQueries({ queryKey: ['notes.get'] });
  void qc.invalidateQueries({ queryKey: ['backups.list'] });
}
