import { z } from '../../../shared/zod-mini.js';
import { AppError } from '../../../shared/errors.js';
import {
  listFilter,
  listOrder,
  type ListedNote,
  type ListSort,
  type TypeFilter,
} from '../../../shared/note-list-order.js';
import type { StoredNote } from '../../memory/types.js';

export interface PageRequest {
  limit?: number | undefined;
  cursor?: string | undefined;
  sort: ListSort;
  type: TypeFilter;
  tag: string;
}

/**
 * The filtered, sorted list for one source array (a store's list changes identity when a note
 * does) and one filter: the second page of 10,000 notes is a lookup and a binary search, not a
 * sort. One entry per source is kept: the page that asks for page 2 asks with the same filters.
 */
const ordered = new WeakMap<readonly StoredNote[], { key: string; notes: StoredNote[] }>();

function orderedNotes(source: readonly StoredNote[], req: PageRequest): StoredNote[] {
  const key = JSON.stringify([req.sort, req.type, req.tag.trim().toLowerCase()]);
  const hit = ordered.get(source);
  if (hit?.key === key) return hit.notes;
  const notes = source.filter(listFilter(req.type, req.tag)).sort(listOrder(req.sort));
  ordered.set(source, { key, notes });
  return notes;
}

/** A cursor is the last note of a page, as the order compares it (opaque to the client). */
const CursorSchema = z.object({
  id: z.string(),
  scope: z.string(),
  summary: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

function encodeCursor(n: StoredNote): string {
  const { id, scope, summary, createdAt, updatedAt } = n;
  return Buffer.from(JSON.stringify({ id, scope, summary, createdAt, updatedAt })).toString('base64url');
}

function decodeCursor(cursor: string): ListedNote {
  try {
    const parsed = CursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return { ...parsed, tags: [] };
  } catch {
    throw new AppError(
      'invalid_input',
      'notes.list: cursor: not a cursor this list gave out; list from the start',
    );
  }
}

/**
 * One page: the notes after the cursor in the requested order. Keyset paging: a note written
 * between two requests shifts nothing (it shows on the next full refetch, not as a duplicate).
 */
export function notePage(
  source: readonly StoredNote[],
  req: PageRequest,
): { notes: StoredNote[]; total: number; nextCursor: string | null } {
  const all = orderedNotes(source, req);
  let start = 0;
  if (req.cursor !== undefined) {
    const after = decodeCursor(req.cursor);
    const cmp = listOrder(req.sort);
    // First note that sorts after the cursor's note.
    let lo = 0;
    let hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(all[mid]!, after) <= 0) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const end = req.limit === undefined ? all.length : Math.min(all.length, start + req.limit);
  const notes = all.slice(start, end);
  return {
    notes,
    total: all.length,
    nextCursor: end < all.length && notes.length > 0 ? encodeCursor(notes.at(-1)!) : null,
  };
}

const tagCache = new WeakMap<readonly StoredNote[], Array<{ tag: string; count: number }>>();

/** Every tag in use, most used first (the tag filter's suggestions without the whole list). */
export function tagCounts(source: readonly StoredNote[]): Array<{ tag: string; count: number }> {
  let out = tagCache.get(source);
  if (!out) {
    const counts = new Map<string, number>();
    for (const n of source) for (const t of n.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
    out = [...counts]
      .map(([tag, count]) => ({ tag, count }))
      .sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
    tagCache.set(source, out);
  }
  return out;
}
