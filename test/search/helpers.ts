import type { SearchDocument } from '../../electron/memory/search/index.js';

let clock = 1_800_000_000_000;

/** A note for the index with sensible defaults; each call is one tick newer than the last. */
export function doc(id: string, fields: Partial<SearchDocument> = {}): SearchDocument {
  return { id, scope: 'project', summary: '', tags: [], body: '', updatedAt: clock++, ...fields };
}

export function sumParts(p: {
  summary: number;
  tags: number;
  body: number;
  usage: number;
  proximity?: number;
  semantic?: number;
}): number {
  return p.summary + p.tags + p.body + p.usage + (p.proximity ?? 0) + (p.semantic ?? 0);
}
