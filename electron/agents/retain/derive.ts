import { normalizeTags } from '../../../shared/tags.js';
import type { NoteType } from '../../../shared/note.js';

/**
 * How a retained fact (or an imported Mnemopi row) becomes the parts of a note. Pure functions, no
 * I/O; documented in docs/agents.md ("How an item becomes a note").
 */

export const SUMMARY_MAX_CHARS = 100;

/** The line that carries an item's `context` at the end of the body. */
export const CONTEXT_LINE_PREFIX = 'Context: ';

/**
 * The summary: the first non-empty line, cut at its first sentence end (. ! ? and the CJK 。！？),
 * Markdown list/heading markers removed, clipped to 100 characters at a word boundary with "…".
 */
export function deriveSummary(content: string): string {
  const firstLine =
    content
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? '';
  const unmarked = firstLine.replace(/^(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)+/, '').trim();
  const sentenceEnd = /[.!?](?=\s|$)|[\u3002\uFF01\uFF1F]/u.exec(unmarked);
  const sentence = sentenceEnd ? unmarked.slice(0, sentenceEnd.index + 1) : unmarked;
  const text = sentence.trim() || unmarked;
  return clip(text, SUMMARY_MAX_CHARS);
}

export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  const cut = space >= max * 0.6 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:]+$/u, '')}…`;
}

const CUES: ReadonlyArray<{ type: NoteType; pattern: RegExp }> = [
  // A pointer to something outside the notes: a URL, a dashboard, a runbook.
  {
    type: 'reference',
    pattern: /https?:\/\/|\b(see|docs? (at|in)|dashboard|runbook|wiki|ticket|tracked in)\b/i,
  },
  // About the person: who they are, what they like.
  {
    type: 'user',
    pattern: /^(the )?user\b|\b(the user|i|user) (is|am|prefers?|likes?|wants?|uses?|works?)\b/i,
  },
  // Guidance on how to work: corrections and standing instructions.
  { type: 'feedback', pattern: /\b(always|never|don'?t|do not|avoid|instead of|prefer(s|red)? .* over)\b/i },
  // Decisions and facts about the project.
  {
    type: 'project',
    pattern:
      /\b(we decided|decided|decision|architecture|the project|deadline|release|migrat(e|ed|ion)|convention)\b/i,
  },
];

/** The note type from simple cues in the text (first cue that matches), else untyped. */
export function deriveType(content: string): NoteType | undefined {
  return CUES.find((cue) => cue.pattern.test(content))?.type;
}

/** `#hashtags` written in the content become tags (letters, digits, -, _, :, .). */
export function hashtagsOf(content: string): string[] {
  const tags: string[] = [];
  for (const match of content.matchAll(/(?:^|[\s(])#([\p{L}\p{N}][\p{L}\p{N}_:.-]*)/gu)) {
    if (match[1]) tags.push(match[1].replace(/[.:]+$/, ''));
  }
  return tags;
}

export interface RetainDraftInput {
  content: string;
  context?: string | undefined;
  /** e.g. `project:memory-desk` for per-project-tagged. */
  extraTags?: readonly string[];
}

export interface RetainDraft {
  summary: string;
  type?: NoteType;
  tags: string[];
  body: string;
}

/** The body is the content as given (trimmed); the context, when given, is its last line. */
export function retainBody(content: string, context: string | undefined): string {
  const body = content.trim();
  const ctx = context?.replace(/\s+/g, ' ').trim();
  return ctx ? `${body}\n\n${CONTEXT_LINE_PREFIX}${ctx}\n` : `${body}\n`;
}

/** The body without the context line retain appended (to recognise identical content). */
export function retainedContentOf(body: string): string {
  const lines = body.replace(/\r\n?/g, '\n').trimEnd().split('\n');
  const last = lines[lines.length - 1];
  if (lines.length >= 3 && last?.startsWith(CONTEXT_LINE_PREFIX) && lines[lines.length - 2] === '') {
    return lines.slice(0, -2).join('\n').trim();
  }
  return lines.join('\n').trim();
}

export function deriveRetainDraft(input: RetainDraftInput): RetainDraft {
  const type = deriveType(input.content);
  return {
    summary: deriveSummary(input.content),
    ...(type ? { type } : {}),
    tags: normalizeTags([...(input.extraTags ?? []), ...hashtagsOf(input.content)]),
    body: retainBody(input.content, input.context),
  };
}
