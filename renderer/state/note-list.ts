import type { NoteSummary } from '../../shared/api/notes.js';
import type { SortKey, TypeFilter } from './ui-store.js';

/** A row of the note list: a note, and when searching its score and why it matched. */
export interface ListRow extends NoteSummary {
  score?: number;
  why?: string;
}

export interface ListFilters {
  typeFilter: TypeFilter;
  tagFilter: string;
  sort: SortKey;
}

export function rowKey(row: { scope: string; id: string }): string {
  return `${row.scope}:${row.id}`;
}

/** Filters and sorts in one pass; `relevance` keeps the order the search returned. */
export function filterAndSort(rows: readonly ListRow[], f: ListFilters): ListRow[] {
  const tag = f.tagFilter.trim().toLowerCase();
  const out = rows.filter((r) => {
    if (f.typeFilter === 'none' ? r.type !== undefined : f.typeFilter !== 'all' && r.type !== f.typeFilter)
      return false;
    // A tag being typed filters as a prefix ("pri" keeps #pricing); the suggestions complete it.
    if (tag && !r.tags.some((t) => t.toLowerCase().startsWith(tag))) return false;
    return true;
  });
  switch (f.sort) {
    case 'updated':
      return out.sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
    case 'created':
      return out.sort((a, b) => b.createdAt - a.createdAt || a.id.localeCompare(b.id));
    case 'summary':
      return out.sort((a, b) => a.summary.localeCompare(b.summary) || a.id.localeCompare(b.id));
    case 'relevance':
      return out.sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
  }
}

/** Every tag in use, most used first (for the tag filter's suggestions). */
export function tagCounts(rows: readonly NoteSummary[]): Array<{ tag: string; count: number }> {
  const counts = new Map<string, number>();
  for (const r of rows) for (const t of r.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}

/** Joins search hits with the list's summaries (hits carry no type/tags) so filters still apply. */
export function joinHits(
  hits: ReadonlyArray<{
    id: string;
    scope: NoteSummary['scope'];
    summary: string;
    score: number;
    why: string;
  }>,
  notes: readonly NoteSummary[],
): ListRow[] {
  const byKey = new Map(notes.map((n) => [rowKey(n), n]));
  const rows: ListRow[] = [];
  for (const h of hits) {
    const n = byKey.get(rowKey(h));
    rows.push({
      id: h.id,
      scope: h.scope,
      summary: h.summary,
      tags: n?.tags ?? [],
      ...(n?.type !== undefined ? { type: n.type } : {}),
      createdAt: n?.createdAt ?? 0,
      updatedAt: n?.updatedAt ?? 0,
      hash: n?.hash ?? '',
      score: h.score,
      why: h.why,
    });
  }
  return rows;
}

/** The notes whose id is exactly the query, moved to the top (typing an id finds that note first). */
export function exactIdFirst(
  rows: readonly ListRow[],
  query: string,
  notes: readonly NoteSummary[],
): ListRow[] {
  const q = query.trim().toLowerCase();
  const exact = q ? notes.filter((n) => n.id.toLowerCase() === q) : [];
  if (exact.length === 0) return rows as ListRow[];
  const keys = new Set(exact.map(rowKey));
  const byKey = new Map(rows.map((r) => [rowKey(r), r]));
  return [...exact.map((n) => byKey.get(rowKey(n)) ?? n), ...rows.filter((r) => !keys.has(rowKey(r)))];
}
