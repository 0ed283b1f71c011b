import type { Scope } from '../../../shared/note.js';
import { noteIdKey } from '../../../shared/note-id.js';
import { linkTargets } from '../../../shared/links.js';
import { RECALL_DEFAULTS, usageKey } from './scoring.js';
import type { WeightedQuery } from './feedback.js';
import type {
  NoteRef,
  RankOptions,
  RecallOptions,
  RecallResult,
  SearchDocument,
  SearchHit,
} from './types.js';
import { fuseScores } from './fusion.js';

/** Candidates read past `perTurn`, for when the best ones do not fit the budget. */
const CANDIDATE_FACTOR = 4;
/** A clipped body keeps at least this many characters; with less room the note is skipped. */
const MIN_CLIPPED_BODY = 120;
/** Linked notes listed per message at most. */
const MAX_LINKED = 10;
const CLIP_MARK = '\n… (clipped; read the whole note with the memory tool)';

/**
 * What recall reads of the index. SearchIndex implements it; recall.ts takes this port instead of
 * the class, so it does not import search-index.ts (which calls recall).
 */
export interface RecallIndex {
  hiddenIn(label: string): (scope: Scope, id: string) => boolean;
  queryOf(text: string): WeightedQuery;
  rank(q: WeightedQuery, o: RankOptions): SearchHit[];
  get(scope: Scope, id: string): SearchDocument | undefined;
  resolveLink(id: string): SearchDocument | undefined;
}

/**
 * Per-message recall: score the message against every note; attach the best
 * notes that (1) match in their summary or tags, (2) reach `minScore` on text alone, (3) are not
 * already attached in the transcript — at most `perTurn` of them, within `budgetChars` characters
 * of `<note>` blocks (a body that does not fit is clipped, never the summary). Notes the attached
 * ones link to are listed by summary. Never throws: an internal error returns an empty result with
 * `error` set, so recall can never block a message.
 */
export function recall(index: RecallIndex, message: string, options: RecallOptions = {}): RecallResult {
  try {
    return recallUnsafe(index, message, options);
  } catch (error) {
    return { notes: [], linked: [], text: '', error };
  }
}

function recallUnsafe(index: RecallIndex, message: string, options: RecallOptions): RecallResult {
  const perTurn = Math.max(0, Math.floor(options.perTurn ?? RECALL_DEFAULTS.perTurn));
  const budget = Math.max(0, Math.floor(options.budgetChars ?? RECALL_DEFAULTS.budgetChars));
  const minScore = options.minScore ?? RECALL_DEFAULTS.minScore;
  const attached = new Set<string>();
  for (const a of options.alreadyAttached ?? []) attached.add(a);
  const isAttached = (scope: Scope, id: string) => attached.has(id) || attached.has(usageKey(scope, id));
  const hidden = options.projectLabel !== undefined ? index.hiddenIn(options.projectLabel) : null;
  const skip = (scope: Scope, id: string) => isAttached(scope, id) || (hidden?.(scope, id) ?? false);

  const empty: RecallResult = { notes: [], linked: [], text: '' };
  if (perTurn === 0 || budget === 0 || !message.trim()) return empty;

  // No proximity re-rank here: measured, it attached evidence less often (docs/search.md).
  const lexical = index.rank(index.queryOf(message), {
    limit: perTurn * CANDIDATE_FACTOR,
    scope: 'both',
    usage: options.usage,
    requireSummaryOrTags: true,
    feedback: true,
    minTextScore: minScore,
    ...(attached.size > 0 || hidden ? { skip } : {}),
  });

  // Semantic recall reorders the notes that qualified by words; it never adds one (docs/search.md).
  const candidates = options.semantic
    ? fuseScores(lexical, options.semantic, () => undefined, options.semanticWeight)
    : lexical;

  const notes: SearchHit[] = [];
  const blocks: string[] = [];
  let left = budget;
  for (const hit of candidates) {
    if (notes.length >= perTurn) break;
    const doc = index.get(hit.scope, hit.id);
    if (!doc) continue;
    const block = noteBlock(doc, left);
    if (block === null) continue;
    blocks.push(block);
    left -= block.length;
    notes.push(hit);
  }
  if (notes.length === 0) return empty;

  const linked = linkedNotes(index, notes, skip);
  return { notes, linked, text: renderRecalledMemory(blocks, linked) };
}

/** A note as the block shows it, clipped to `room` characters; null when even the header does not fit. */
function noteBlock(doc: SearchDocument, room: number): string | null {
  const open = `<note id="${attr(doc.id)}" scope="${doc.scope}"${doc.type ? ` type="${doc.type}"` : ''}>\n`;
  const head = `${open}${neutralizeTags(oneLine(doc.summary))}\n`;
  const close = '</note>\n';
  const body = neutralizeTags(doc.body.trim());
  const full = `${head}${body ? `${body}\n` : ''}${close}`;
  if (full.length <= room) return full;
  const bodyRoom = room - head.length - close.length - CLIP_MARK.length - 1;
  if (bodyRoom < MIN_CLIPPED_BODY) return null;
  return `${head}${clip(body, bodyRoom)}${CLIP_MARK}\n${close}`;
}

function linkedNotes(
  index: RecallIndex,
  hits: SearchHit[],
  isAttached: (scope: Scope, id: string) => boolean,
): NoteRef[] {
  const inBlock = new Set(hits.map((h) => `${h.scope}:${noteIdKey(h.id)}`));
  const seen = new Set<string>();
  const linked: NoteRef[] = [];
  for (const hit of hits) {
    const doc = index.get(hit.scope, hit.id);
    if (!doc) continue;
    for (const id of linkTargets(doc.body)) {
      const target = index.resolveLink(id);
      if (!target) continue; // a link to a note not written yet: nothing to list
      const key = `${target.scope}:${noteIdKey(target.id)}`;
      if (inBlock.has(key) || seen.has(key) || isAttached(target.scope, target.id)) continue;
      seen.add(key);
      linked.push({ id: target.id, scope: target.scope, summary: target.summary });
      if (linked.length >= MAX_LINKED) return linked;
    }
  }
  return linked;
}

/** The `<recalled-memory>` block: the attached notes, then the notes they link to by summary. */
export function renderRecalledMemory(noteBlocks: readonly string[], linked: readonly NoteRef[]): string {
  if (noteBlocks.length === 0) return '';
  let text = '<recalled-memory>\n' + noteBlocks.join('');
  if (linked.length > 0) {
    text += 'Linked notes (read with the memory tool):\n';
    for (const l of linked) text += `- ${l.id} (${l.scope}): ${neutralizeTags(oneLine(l.summary))}\n`;
  }
  return text + '</recalled-memory>';
}

/**
 * Note text is data inside the block, never markup — but it stays readable: only a `<` that would
 * open or close one of the tags a reader takes for the block's structure is written `&lt;`. Those
 * are the block's own (`<recalled-memory>`, `<note>`) and the wrappers harnesses put around hook
 * context (`<system-reminder>`, `<user-prompt-submit-hook>`), compared the way a lenient reader
 * would: any case, full-width or small `<` and letters (NFKC), spaces and `/` before the name, `_`
 * or spaces for its `-`, invisible format characters (zero-width spaces…) ignored. `a < b`, `x<3`, `<div>` and `Vec<T>` are left as written.
 */
const TAG_START = /[<\uFF1C\uFE64](?=[\s/\uFF0F\p{Cf}]*\p{L})/gu;
const PROTECTED_TAG =
  /^[\s/]*(?:recalled[\s_-]*memory|note|system[\s_-]*reminder|user[\s_-]*prompt[\s_-]*submit[\s_-]*hook)(?![\p{L}\p{N}_-])/u;
/** Enough text after a `<` to hold spaces, `/` and the longest protected name. */
const LOOKAHEAD = 256;

export function neutralizeTags(text: string): string {
  return text.replace(TAG_START, (lt: string, at: number) =>
    PROTECTED_TAG.test(
      text
        .slice(at + 1, at + 1 + LOOKAHEAD)
        .normalize('NFKC')
        .replace(/\p{Cf}/gu, '')
        .toLowerCase(),
    )
      ? '&lt;'
      : lt,
  );
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** Clip at a whitespace boundary near `n` characters, never inside a surrogate pair. */
function clip(s: string, n: number): string {
  if (s.length <= n) return s;
  let cut = n;
  const space = s.lastIndexOf(' ', n);
  if (space > n * 0.8) cut = space;
  const code = s.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return s.slice(0, cut).trimEnd();
}
