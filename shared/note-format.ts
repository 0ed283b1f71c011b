import { NoteFrontmatterSchema, type Note } from './note.js';

/**
 * The on-disk note format: a `---` line, one JSON object, a `---` line, then the Markdown body.
 * Parsing accepts a UTF-8 BOM and CRLF line endings; the body is returned with LF line endings.
 */

export type ParsedNote =
  | { ok: true; note: Omit<Note, 'createdAt' | 'updatedAt'> & { createdAt?: number; updatedAt?: number } }
  | { ok: false; reason: string };

const FENCE = '---';

export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

export function parseNote(raw: string): ParsedNote {
  const text = normalizeNewlines(raw.startsWith('\uFEFF') ? raw.slice(1) : raw);
  if (!text.startsWith(FENCE + '\n')) {
    return { ok: false, reason: 'missing frontmatter: the file must start with a "---" line' };
  }
  const end = text.indexOf('\n' + FENCE, FENCE.length);
  if (end < 0) return { ok: false, reason: 'frontmatter is not closed by a "---" line' };
  const afterFence = end + 1 + FENCE.length;
  if (afterFence < text.length && text[afterFence] !== '\n') {
    return { ok: false, reason: 'frontmatter is not closed by a "---" line' };
  }
  const json = text.slice(FENCE.length + 1, end);
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (err) {
    return { ok: false, reason: `frontmatter is not valid JSON: ${(err as Error).message}` };
  }
  const parsed = NoteFrontmatterSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'frontmatter';
    return { ok: false, reason: `invalid frontmatter (${where}): ${issue?.message ?? 'unknown problem'}` };
  }
  const { id, summary, type, tags, createdAt, updatedAt, ...extra } = parsed.data;
  const body = afterFence >= text.length ? '' : text.slice(afterFence + 1);
  return {
    ok: true,
    note: {
      id,
      summary,
      ...(type !== undefined ? { type } : {}),
      tags: tags ?? [],
      ...(createdAt !== undefined ? { createdAt } : {}),
      ...(updatedAt !== undefined ? { updatedAt } : {}),
      body,
      ...(Object.keys(extra).length > 0 ? { extra } : {}),
    },
  };
}

/** Serialises a note in the canonical on-disk form (key order fixed, LF newlines). */
export function serializeNote(note: Note): string {
  const frontmatter: Record<string, unknown> = { id: note.id, summary: note.summary };
  if (note.type !== undefined) frontmatter.type = note.type;
  frontmatter.tags = note.tags;
  frontmatter.createdAt = note.createdAt;
  frontmatter.updatedAt = note.updatedAt;
  for (const [key, value] of Object.entries(note.extra ?? {})) {
    if (!(key in frontmatter)) frontmatter[key] = value;
  }
  return `${FENCE}\n${JSON.stringify(frontmatter)}\n${FENCE}\n${normalizeNewlines(note.body)}`;
}

/** The note without fields a store or a caller attached beyond the Note schema (e.g. a file path). */
export function plainNote(note: Note): Note {
  const { id, summary, type, tags, createdAt, updatedAt, body, extra } = note;
  return {
    id,
    summary,
    ...(type !== undefined ? { type } : {}),
    tags,
    createdAt,
    updatedAt,
    body,
    ...(extra ? { extra } : {}),
  };
}
