import {
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type UseQueryOptions,
} from '@tanstack/react-query';
import type { ApiInput, ApiMethodName, ApiOutput } from '../../shared/api.js';
import type { AppEvent } from '../../shared/events.js';
import { useFirstListShown } from '../state/first-list.js';
import type { ApiClient } from './client.js';
import { useApiClient } from './context.js';
import type { ApiError } from './errors.js';

/** Server state lives in react-query, keyed by [method, input]. */
export function apiKey<M extends ApiMethodName>(method: M, input?: ApiInput<M>): readonly unknown[] {
  return input === undefined ? [method] : [method, input];
}

export function useApiQuery<M extends ApiMethodName>(
  method: M,
  input: ApiInput<M>,
  options: Omit<UseQueryOptions<ApiOutput<M>, ApiError>, 'queryKey' | 'queryFn'> = {},
) {
  const client = useApiClient();
  return useQuery<ApiOutput<M>, ApiError>({
    queryKey: apiKey(method, input),
    // The signal lets react-query cancel a query nobody shows any more (the previous search key).
    queryFn: ({ signal }) => client.call(method, input, signal),
    ...options,
  });
}

/**
 * A query for what the first screen does not need (status bar, tab badges, sync state): asked once
 * the note list's first page is drawn (state/first-list.ts).
 */
export function useDeferredApiQuery<M extends ApiMethodName>(
  method: M,
  input: ApiInput<M>,
  options: Omit<UseQueryOptions<ApiOutput<M>, ApiError>, 'queryKey' | 'queryFn' | 'enabled'> = {},
) {
  return useApiQuery(method, input, { ...options, enabled: useFirstListShown() });
}

export function useApiMutation<M extends ApiMethodName>(method: M) {
  const client = useApiClient();
  const qc = useQueryClient();
  return useMutation<ApiOutput<M>, ApiError, ApiInput<M>>({
    mutationFn: (input) => client.call(method, input),
    onSuccess: () => invalidateAfterWrite(qc),
  });
}

/**
 * Which query methods an event makes stale. Areas add their event kinds here; an event kind not
 * listed invalidates everything (correct, if not the cheapest).
 */
export const EVENT_INVALIDATIONS: Record<string, readonly string[]> = {
  'notes.changed': [
    'notes.list',
    'notes.search',
    'notes.get',
    'notes.index',
    'app.status',
    'backups.list',
    'cleanup.count',
    // The notes semantic recall counts (renderer/settings/SemanticRecallPanel.tsx).
    'semantic.status',
  ],
  'warnings.changed': ['app.status', 'notes.list'],
  'sync.status': ['sync.status', 'sync.conflicts', 'sync.conflict', 'backups.list'],
  // Shown as it comes (renderer/sync/EncryptionSection.tsx); the call's answer refreshes the rest.
  'encryption.progress': [],
};

export function invalidateForEvent(qc: QueryClient, event: AppEvent | { type: string }): void {
  const methods = EVENT_INVALIDATIONS[event.type];
  if (!methods) {
    void qc.invalidateQueries();
    return;
  }
  for (const m of methods) void qc.invalidateQueries({ queryKey: [m] });
}

function invalidateAfterWrite(qc: QueryClient): void {
  invalidateForEvent(qc, { type: 'notes.changed' });
}

/** Wires the transport's event stream to react-query. Returns the unsubscribe function. */
export function connectEvents(client: ApiClient, qc: QueryClient): () => void {
  return client.subscribe((event) => invalidateForEvent(qc, event));
}
