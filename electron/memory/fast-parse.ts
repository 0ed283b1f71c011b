import { NOTE_TYPES, type NoteType } from '../../shared/note.js';
import { parseNote, type ParsedNote } from '../../shared/note-format.js';

/**
 * parseNote (shared/note-format.ts) with a fast path for the common case — LF newlines, no BOM,
 * a frontmatter whose known keys have the right types — that skips the newline normalisation
 * and the zod validation. Anything else goes through parseNote itself, so the results (and every
 * error message) are the same; test/memory/properties.test.ts checks the two agree.
 */
const TYPES = new Set<string>(NOTE_TYPES);
const KNOWN = new Set(['id', 'summary', 'type', 'tags', 'createdAt', 'updatedAt']);

export function fastParseNote(text: string): ParsedNote {
  if (!text.startsWith('---\n') || text.includes('\r')) return parseNote(text);
  const end = text.indexOf('\n---', 3);
  if (end < 0) return parseNote(text);
  const after = end + 4;
  if (after < text.length && text[after] !== '\n') return parseNote(text);
  let data: unknown;
  try {
    data = JSON.parse(text.slice(4, end));
  } catch {
    return parseNote(text); // not JSON: the full parser says why
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return parseNote(text);
  const fm = data as Record<string, unknown>;
  const { id, summary, type, tags, createdAt, updatedAt } = fm;
  if (typeof id !== 'string' || id.length === 0 || typeof summary !== 'string') return parseNote(text);
  if (type !== undefined && (typeof type !== 'string' || !TYPES.has(type))) return parseNote(text);
  if (tags !== undefined && (!Array.isArray(tags) || !tags.every((t) => typeof t === 'string')))
    return parseNote(text);
  if (createdAt !== undefined && !(typeof createdAt === 'number' && Number.isFinite(createdAt)))
    return parseNote(text);
  if (updatedAt !== undefined && !(typeof updatedAt === 'number' && Number.isFinite(updatedAt)))
    return parseNote(text);
  let extra: Record<string, unknown> | undefined;
  for (const key of Object.keys(fm)) {
    if (KNOWN.has(key)) continue;
    (extra ??= {})[key] = fm[key];
  }
  return {
    ok: true,
    note: {
      id,
      summary,
      ...(type !== undefined ? { type: type as NoteType } : {}),
      tags: (tags as string[] | undefined) ?? [],
      ...(createdAt !== undefined ? { createdAt: createdAt as number } : {}),
      ...(updatedAt !== undefined ? { updatedAt: updatedAt as number } : {}),
      body: after >= text.length ? '' : text.slice(after + 1),
      ...(extra ? { extra } : {}),
    },
  };
}
