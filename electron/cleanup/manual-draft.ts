import type { MergeDraft } from '../../shared/api/cleanup.js';
import type { Note } from '../../shared/note.js';
import { normalizeTags } from '../../shared/tags.js';

/** The notes of a merge, oldest first (createdAt, then id): the first is the one kept. */
export function oldestFirst<T extends Pick<Note, 'id' | 'createdAt'>>(notes: readonly T[]): T[] {
  return [...notes].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * 手动合并: every original joined, deterministically. Summary of the oldest note; tags the union
 * (oldest note's first); type when all notes agree, else the oldest's; bodies oldest first, each
 * under a "## <summary>" heading (a body identical to an earlier one is included once).
 */
export function manualDraft(
  notes: readonly Pick<Note, 'id' | 'summary' | 'type' | 'tags' | 'body' | 'createdAt'>[],
): MergeDraft {
  const ordered = oldestFirst(notes);
  const oldest = ordered[0];
  if (!oldest) throw new Error('manualDraft needs at least one note');
  // "The type when all agree, else the oldest's" is always the oldest note's type.
  const type = oldest.type;
  const seenBodies = new Set<string>();
  const sections: string[] = [];
  for (const note of ordered) {
    const body = note.body.trim();
    const key = body.replace(/\s+/g, ' ');
    if (seenBodies.has(key)) continue;
    seenBodies.add(key);
    sections.push(body ? `## ${note.summary.trim()}\n\n${body}` : `## ${note.summary.trim()}`);
  }
  return {
    summary: oldest.summary,
    ...(type !== undefined ? { type } : {}),
    tags: normalizeTags(ordered.flatMap((n) => n.tags)),
    body: sections.join('\n\n') + '\n',
  };
}
