import type { ApiOutput } from '../../shared/api.js';
import type { NoteSummary } from '../../shared/api/notes.js';
import { listFilter, listOrder } from '../../shared/note-list-order.js';
import type { SortKey, TypeFilter } from './ui-store.js';

type SearchHit = ApiOutput<'notes.search'>['notes'][number];

/**
 * A row of the note list: a note, and when searching its score and why it matched (put into words
 * only for the rows drawn, see NoteList: a few hundred hits explained per key was the page's
 * largest cost while typing).
 */
export interface ListRow extends NoteSummary {
  score?: number;
  why?: SearchHit['why'];
}

export interface ListFilters {
  typeFilter: TypeFilter;
  tagFilter: string;
  sort: SortKey;
}

export function rowKey(row: { scope: string; id: string }): string {
  return `${row.scope}:${row.id}`;
}

/**
 * Search hits filtered and sorted as the list is (the core does it for the paged list, with the
 * same functions from shared/); `relevance` keeps the score order.
 */
export function filterAndSort(rows: readonly ListRow[], f: ListFilters): ListRow[] {
  const out = rows.filter(listFilter(f.typeFilter, f.tagFilter));
  return f.sort === 'relevance'
    ? out.sort((a, b) => (b.score ?? 0) - (a.score ?? 0))
    : out.sort(listOrder(f.sort));
}

/**
 * The rows whose id is exactly the query, moved to the top (typing an id finds that note first).
 * The same array when none is: the list is not redrawn for a key that changes nothing.
 */
export function exactIdFirst(rows: readonly ListRow[], query: string): readonly ListRow[] {
  const q = query.trim().toLowerCase();
  const exact = q ? rows.filter((r) => r.id.toLowerCase() === q) : [];
  return exact.length === 0 ? rows : [...exact, ...rows.filter((r) => r.id.toLowerCase() !== q)];
}

/** A search hit of the page's search (`listing: true`, so it carries the list's fields) as a row. */
export function hitRow(h: SearchHit): ListRow {
  return {
    id: h.id,
    scope: h.scope,
    summary: h.summary,
    ...(h.type !== undefined ? { type: h.type } : {}),
    tags: h.tags ?? [],
    createdAt: h.createdAt ?? 0,
    updatedAt: h.updatedAt ?? 0,
    hash: h.hash ?? '',
    score: h.score,
    why: h.why,
  };
}
