import { z } from './zod-mini.js';
import { NoteTypeSchema } from './note.js';

/** The note list's orders (search results have their own: relevance). */
export const ListSortSchema = z.enum(['updated', 'created', 'summary']);
export type ListSort = z.infer<typeof ListSortSchema>;

/** A type to keep, `none` for untyped notes, `all` for every note. */
export const TypeFilterSchema = z.union([z.literal('all'), z.literal('none'), NoteTypeSchema]);
export type TypeFilter = z.infer<typeof TypeFilterSchema>;

/** What the filters and orders read of a note (a summary, a search hit with its list fields). */
export interface ListedNote {
  id: string;
  scope: string;
  summary: string;
  type?: string | undefined;
  tags: readonly string[];
  createdAt: number;
  updatedAt: number;
}

/** Type and tag filters; a tag being typed filters as a prefix ("pri" keeps #pricing). */
export function listFilter(typeFilter: TypeFilter, tagFilter: string): (n: ListedNote) => boolean {
  const tag = tagFilter.trim().toLowerCase();
  return (n) => {
    if (typeFilter === 'none' ? n.type !== undefined : typeFilter !== 'all' && n.type !== typeFilter)
      return false;
    return !tag || n.tags.some((t) => t.toLowerCase().startsWith(tag));
  };
}

/** Made on first use: building a collator loads ICU's collation data (~10 ms at every CLI start). */
let collator: Intl.Collator | undefined;
const byKey = (a: ListedNote, b: ListedNote) =>
  a.id < b.id ? -1 : a.id > b.id ? 1 : a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0;

/**
 * A total order per sort key (ties broken by id, then scope), so a page boundary is a position
 * between two notes and the next page starts right after the cursor's note.
 */
export function listOrder(sort: ListSort): (a: ListedNote, b: ListedNote) => number {
  switch (sort) {
    case 'updated':
      return (a, b) => b.updatedAt - a.updatedAt || byKey(a, b);
    case 'created':
      return (a, b) => b.createdAt - a.createdAt || byKey(a, b);
    case 'summary': {
      const c = (collator ??= new Intl.Collator(undefined, { sensitivity: 'base' }));
      return (a, b) => c.compare(a.summary, b.summary) || byKey(a, b);
    }
  }
}
