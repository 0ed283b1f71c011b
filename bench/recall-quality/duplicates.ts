/**
 * Calibrates the duplicate threshold: cosine similarity between a note and (a) a re-worded copy of
 * it (what an agent writes when it forgets the note exists: inflections changed, tags reshuffled
 * or trimmed, a sentence dropped or added) versus (b) other notes about the same concepts. Prints
 * both distributions and precision / recall of "duplicate" at several thresholds.
 */
import { DUPLICATE_THRESHOLD, SearchIndex } from '../../electron/memory/search/index.js';
import type { NoteLike } from '../../electron/memory/search/index.js';
import { CONCEPTS } from './concepts.js';
import { mulberry32 } from '../../test/support/prng.js';
import type { GeneratedNote } from './generate.js';

export function reword(note: GeneratedNote, r: () => number): NoteLike {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  let summary = note.summary;
  for (const c of note.concepts) {
    const con = CONCEPTS[c]!;
    const used = con.forms.find((f) => summary.toLowerCase().includes(f));
    if (used && r() < 0.6) summary = summary.replace(new RegExp(used, 'i'), pick(con.forms));
  }
  const tags = [...note.tags].sort(() => r() - 0.5).filter(() => r() < 0.8);
  const sentences = note.body.split(/(?<=\.) /);
  if (sentences.length > 2 && r() < 0.5) sentences.splice(Math.floor(r() * sentences.length), 1);
  if (r() < 0.5) sentences.push('We agreed on this again later.');
  return { summary, tags, body: sentences.join(' ') };
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
}

export function duplicateCalibration(notes: readonly GeneratedNote[], seed: number): void {
  const r = mulberry32(seed + 1);
  const index = new SearchIndex(notes);
  const dup: number[] = [];
  const near: number[] = [];
  let flaggedRight = 0;
  let flaggedWrong = 0;
  const sample = notes.slice(0, 300);
  for (const note of sample) {
    dup.push(index.similarity(reword(note, r), note.scope, note.id));
    // Other notes sharing at least two concepts with this one: same topic, not the same note.
    const peers = notes.filter(
      (o) => o.id !== note.id && o.concepts.filter((c) => note.concepts.includes(c)).length >= 2,
    );
    for (const p of peers.slice(0, 3)) near.push(index.similarity(p, note.scope, note.id));
    // What remember would report for the reworded note.
    const { duplicateOf } = index.related(reword(note, r), { limit: 5 });
    if (duplicateOf?.id === note.id) flaggedRight++;
    else if (duplicateOf) flaggedWrong++;
  }
  const line = (name: string, xs: number[]) =>
    `  ${name.padEnd(28)} n=${String(xs.length).padStart(4)}  p10 ${pct(xs, 0.1).toFixed(2)}  median ${pct(xs, 0.5).toFixed(2)}  p90 ${pct(xs, 0.9).toFixed(2)}  max ${pct(xs, 1).toFixed(2)}`;
  console.log(line('re-worded copies', dup));
  console.log(line('same-topic other notes', near));
  for (const t of [0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9]) {
    const tp = dup.filter((x) => x >= t).length;
    const fp = near.filter((x) => x >= t).length;
    console.log(
      `  threshold ${t.toFixed(2)}${t === DUPLICATE_THRESHOLD ? ' (ours)' : '       '}: copies caught ${((100 * tp) / dup.length).toFixed(1)}%, same-topic notes flagged ${((100 * fp) / Math.max(near.length, 1)).toFixed(1)}%`,
    );
  }
  console.log(
    `  related() on ${sample.length} re-worded copies: flagged the original ${flaggedRight}, flagged another note ${flaggedWrong}`,
  );
}
