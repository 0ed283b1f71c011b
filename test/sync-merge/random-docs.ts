/**
 * Seeded generators of note-like documents and of edits to them, shared by the differential test
 * and the benchmark. Lines are mostly distinct sentences with the repeats real notes have (blank
 * lines, rules, list stubs), so diffs meet ambiguous alignments now and then.
 */

const WORDS = [
  'sync',
  'note',
  'memory',
  'agent',
  'project',
  'merge',
  'cloud',
  'tag',
  'body',
  'the',
  'a',
  'of',
  'keeps',
  'edit',
  'line',
  'when',
  'user',
  'prefers',
  'tests',
  'run',
];
const REPEATED = ['', '', '', '---', '- [ ] todo', '## Notes', '```'];

export function randomLine(rand: () => number, repeatChance = 0.25): string {
  if (rand() < repeatChance) return REPEATED[Math.floor(rand() * REPEATED.length)]!;
  const n = 2 + Math.floor(rand() * 8);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(WORDS[Math.floor(rand() * WORDS.length)]!);
  return words.join(' ');
}

export function randomDoc(rand: () => number, lines: number): string[] {
  const doc: string[] = [];
  for (let i = 0; i < lines; i++) doc.push(randomLine(rand));
  return doc;
}

/** Applies `edits` random replacements / insertions / deletions of 1–3 lines. */
export function editDoc(rand: () => number, doc: readonly string[], edits: number): string[] {
  const out = [...doc];
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rand() * (out.length + 1));
    const len = 1 + Math.floor(rand() * 3);
    const kind = rand();
    if (kind < 0.45 && at < out.length)
      out.splice(at, len, ...Array.from({ length: len }, () => randomLine(rand)));
    else if (kind < 0.8 || at >= out.length)
      out.splice(at, 0, ...Array.from({ length: len }, () => randomLine(rand)));
    else out.splice(at, len);
  }
  return out;
}

/** Joins lines into a body; `finalNewline` false leaves the last line unterminated. */
export function joinDoc(lines: readonly string[], finalNewline: boolean): string {
  if (lines.length === 0) return '';
  return lines.join('\n') + (finalNewline ? '\n' : '');
}
