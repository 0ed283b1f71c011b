import { useCallback, useMemo } from 'react';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { ApiInput, ApiOutput } from '../../../shared/api.js';
import { useApiClient } from '../../api/context.js';
import type { ApiError } from '../../api/errors.js';
import { apiKey } from '../../api/queries.js';

/** Notes per request: a few screens of rows; the next page is asked for before the list's end shows. */
export const LIST_PAGE = 100;

type ListInput = Omit<ApiInput<'notes.list'>, 'limit' | 'cursor'>;

/**
 * The note list a page at a time (`notes.list` with a cursor): the first screen of 10,000 notes
 * costs one page, not the whole list. Keyed under `notes.list`, so the app's invalidations refetch
 * it (every loaded page, in order).
 */
export function useNotePages(input: ListInput) {
  const client = useApiClient();
  const query = useInfiniteQuery<
    ApiOutput<'notes.list'>,
    ApiError,
    { pages: ApiOutput<'notes.list'>[] },
    readonly unknown[],
    string | undefined
  >({
    queryKey: apiKey('notes.list', { ...input, limit: LIST_PAGE }),
    queryFn: ({ pageParam, signal }) =>
      client.call(
        'notes.list',
        { ...input, limit: LIST_PAGE, ...(pageParam !== undefined ? { cursor: pageParam } : {}) },
        signal,
      ),
    initialPageParam: undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
  const { pages } = query.data ?? { pages: [] };
  const notes = useMemo(() => pages.flatMap((p) => p.notes), [pages]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return {
    notes,
    total: pages[0]?.total ?? 0,
    isPending: query.isPending,
    error: query.error,
    loadMore,
  };
}
