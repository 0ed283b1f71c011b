/**
 * The quick switcher's matching, as in VS Code / Obsidian: the typed characters appear in order in
 * the summary or the id (not necessarily together). Runs of consecutive characters, matches at the
 * start of a word and an exact id score higher; the shorter text wins a tie.
 */
export interface FuzzyMatch {
  score: number;
  /** Positions of the matched characters in the text that matched best (for highlighting). */
  positions: number[];
  field: 'summary' | 'id';
}

function isWordStart(text: string, i: number): boolean {
  if (i === 0) return true;
  const prev = text[i - 1]!;
  return /[\s\-_/.:,(]/.test(prev) || (prev === prev.toLowerCase() && text[i] !== text[i]!.toLowerCase());
}

/** Score of `query` (lower case, no spaces) as a subsequence of `text`, or null when it is not one. */
export function fuzzyScore(query: string, text: string): { score: number; positions: number[] } | null {
  if (!query) return { score: 0, positions: [] };
  const lower = text.toLowerCase();
  const positions: number[] = [];
  let score = 0;
  let from = 0;
  let prev = -2;
  for (const ch of query) {
    // Prefer the next occurrence at a word start; else the next one at all.
    let at = lower.indexOf(ch, from);
    if (at < 0) return null;
    for (let j = at; j >= 0 && j < lower.length; j = lower.indexOf(ch, j + 1)) {
      if (j === prev + 1 || isWordStart(text, j)) {
        at = j;
        break;
      }
    }
    score += 1;
    if (at === prev + 1) score += 3;
    if (isWordStart(text, at)) score += 2;
    positions.push(at);
    prev = at;
    from = at + 1;
  }
  return { score: score - text.length / 100, positions };
}

export function fuzzyMatch(query: string, note: { summary: string; id: string }): FuzzyMatch | null {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (note.id.toLowerCase() === q)
    return { score: 1e6, positions: [...note.id].map((_, i) => i), field: 'id' };
  const s = fuzzyScore(q, note.summary);
  const i = fuzzyScore(q, note.id);
  if (!s && !i) return null;
  if (s && (!i || s.score >= i.score)) return { ...s, field: 'summary' };
  return { ...i!, field: 'id' };
}

/** The best `limit` notes for the query, best first. */
export function rankFuzzy<T extends { summary: string; id: string }>(
  query: string,
  notes: readonly T[],
  limit: number,
): Array<{ note: T; match: FuzzyMatch }> {
  const out: Array<{ note: T; match: FuzzyMatch }> = [];
  for (const note of notes) {
    const match = fuzzyMatch(query, note);
    if (match) out.push({ note, match });
  }
  out.sort((a, b) => b.match.score - a.match.score);
  return out.slice(0, limit);
}
