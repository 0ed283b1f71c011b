import { z } from 'zod';
import { MergeDraftSchema, type MergeDraft } from '../../../shared/api/cleanup.js';
import { NoteTypeSchema, type Note } from '../../../shared/note.js';
import { normalizeTags } from '../../../shared/tags.js';
import { maskCredentials } from '../../memory/credentials.js';
import { extractLinks } from '../../memory/links.js';
import { unbracketUnknownLinks } from '../link-rewrite.js';
import { oldestFirst } from '../manual-draft.js';
import { ChatError, chatComplete, type ChatMessage } from './chat-client.js';

/**
 * 生成合并建议: asks the configured model for one merged note. The answer is untrusted: it must be
 * JSON with summary/type/tags/body, links to ids the model was not shown lose their brackets, and
 * credentials are masked. Any failure returns `{ok: false, reason}`; the caller falls back to the
 * manual draft and shows the reason.
 */
export type ModelDraftNote = Pick<Note, 'id' | 'summary' | 'type' | 'tags' | 'body' | 'createdAt'>;

export interface ModelDraftRequest {
  notes: readonly ModelDraftNote[];
  baseUrl: string;
  model: string;
  apiKey: string | null;
  timeoutMs: number;
  maxNoteBytes: number;
  signal?: AbortSignal;
}

export type ModelDraftResult =
  { ok: true; draft: MergeDraft; notes: string[] } | { ok: false; reason: string };

const ModelAnswerSchema = z.object({
  summary: z.string().trim().min(1),
  type: z.nullable(NoteTypeSchema).optional(),
  tags: z.union([z.array(z.string()), z.string()]).optional(),
  body: z.string(),
});

export function buildMergePrompt(notes: readonly ModelDraftNote[]): ChatMessage[] {
  const ordered = oldestFirst(notes);
  const shown = ordered.map((n) =>
    JSON.stringify({
      id: n.id,
      summary: n.summary,
      ...(n.type ? { type: n.type } : {}),
      tags: n.tags,
      body: n.body,
    }),
  );
  return [
    {
      role: 'system',
      content:
        'You merge duplicate memory notes of an AI coding agent into one note. Keep every distinct fact, ' +
        'drop repetition, keep it short and in the language of the notes. Keep [[id]] links that appear in the ' +
        'notes; do not invent links. Answer with ONLY a JSON object: ' +
        '{"summary": one line, "type": "user"|"feedback"|"project"|"reference"|null, "tags": [strings], "body": Markdown}.',
    },
    { role: 'user', content: `Merge these ${ordered.length} notes (oldest first):\n${shown.join('\n')}` },
  ];
}

/** The JSON object in a model's message: bare, or inside a ``` fence, or the outermost {...}. */
export function extractJsonObject(content: string): unknown {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n?```/i.exec(content);
  const candidates = [content.trim(), fenced?.[1]?.trim() ?? ''];
  const first = content.indexOf('{');
  const last = content.lastIndexOf('}');
  if (first >= 0 && last > first) candidates.push(content.slice(first, last + 1));
  for (const c of candidates) {
    if (!c) continue;
    try {
      return JSON.parse(c) as unknown;
    } catch {
      // next candidate
    }
  }
  return undefined;
}

/** Validates and cleans a model answer; returns the draft or why it is unusable. */
export async function sanitizeModelAnswer(
  content: string,
  notes: readonly ModelDraftNote[],
  maxNoteBytes: number,
): Promise<ModelDraftResult> {
  const json = extractJsonObject(content);
  if (json === undefined) return { ok: false, reason: 'the model did not answer with a JSON object' };
  const parsed = ModelAnswerSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason: `the model's answer is not a note (${issue?.path.join('.') || 'answer'}: ${issue?.message ?? 'bad shape'})`,
    };
  }
  const answer = parsed.data;
  const remarks: string[] = [];
  // Ids the model was shown: the merged notes and every note their bodies link to.
  const allowed = new Set<string>(notes.map((n) => n.id));
  for (const n of notes) for (const l of extractLinks(n.body)) allowed.add(l);
  const unbracketed = unbracketUnknownLinks(answer.body, allowed);
  if (unbracketed.removed.length > 0)
    remarks.push(`links to unknown notes lost their brackets: ${unbracketed.removed.join(', ')}`);

  const summary = await maskCredentials(answer.summary.replace(/\s*\n\s*/g, ' ').trim());
  const body = await maskCredentials(unbracketed.body);
  const tagsIn = typeof answer.tags === 'string' ? [answer.tags] : (answer.tags ?? []);
  const tags = normalizeTags(await Promise.all(tagsIn.map(maskCredentials)));
  if (summary !== answer.summary.replace(/\s*\n\s*/g, ' ').trim() || body !== unbracketed.body) {
    remarks.push('credential-looking text was masked');
  }
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > maxNoteBytes) {
    return {
      ok: false,
      reason: `the model's body is ${bytes} bytes, over memory.maxNoteBytes (${maxNoteBytes})`,
    };
  }
  const draft = MergeDraftSchema.safeParse({
    summary,
    ...(answer.type ? { type: answer.type } : {}),
    tags,
    body,
  });
  if (!draft.success)
    return {
      ok: false,
      reason: `the model's answer is not a note (${draft.error.issues[0]?.message ?? 'bad shape'})`,
    };
  return { ok: true, draft: draft.data, notes: remarks };
}

export async function modelDraft(req: ModelDraftRequest): Promise<ModelDraftResult> {
  let content: string;
  try {
    content = await chatComplete({
      baseUrl: req.baseUrl,
      model: req.model,
      apiKey: req.apiKey,
      messages: buildMergePrompt(req.notes),
      timeoutMs: req.timeoutMs,
      ...(req.signal ? { signal: req.signal } : {}),
    });
  } catch (err) {
    return {
      ok: false,
      reason: err instanceof ChatError ? err.message : `the model request failed: ${(err as Error).message}`,
    };
  }
  return sanitizeModelAnswer(content, req.notes, req.maxNoteBytes);
}
