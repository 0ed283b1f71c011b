/**
 * Synthetic notes for the findings benchmark: summaries of 5–12 words drawn from a Zipf-distributed
 * vocabulary of pronounceable words (so the Porter stemmer has real work), 0–3 tags from 60, and
 * about 5% planted near-duplicates (a note re-worded: a word dropped, a word added, tags shuffled).
 * Deterministic for a seed.
 */
import { mulberry32 } from '../../test/support/prng.js';
export interface GeneratedNote {
  id: string;
  summary: string;
  tags: string[];
  body: string;
  createdAt: number;
  updatedAt: number;
}

const SYLLABLES =
  'ka lo mi ne ru ta shi po ven dar mel ing tor ex gra pli son fu ber nat cor mas lin qui zen'.split(' ');

export function generateNotes(count: number, seed = 42): GeneratedNote[] {
  const random = mulberry32(seed);
  const vocab: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const n = 2 + Math.floor(random() * 3);
    let w = '';
    for (let k = 0; k < n; k++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    vocab.push(w + (random() < 0.3 ? 'ing' : random() < 0.3 ? 's' : ''));
  }
  const tags = Array.from(
    { length: 60 },
    (_, i) => `tag${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}`,
  );
  // Zipf: word rank r drawn with probability ∝ 1/(r+1).
  const harmonic: number[] = [];
  let acc = 0;
  for (let r = 0; r < vocab.length; r++) harmonic.push((acc += 1 / (r + 1)));
  const word = (): string => {
    const x = random() * acc;
    let lo = 0;
    let hi = harmonic.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (harmonic[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return vocab[lo]!;
  };
  const notes: GeneratedNote[] = [];
  const base = 1_700_000_000_000;
  for (let i = 0; i < count; i++) {
    const prev = notes.length > 0 && random() < 0.05 ? notes[Math.floor(random() * notes.length)] : undefined;
    let summary: string;
    let noteTags: string[];
    if (prev) {
      const words = prev.summary.split(' ');
      words.splice(Math.floor(random() * words.length), 1);
      words.splice(Math.floor(random() * words.length), 0, word());
      summary = words.join(' ');
      noteTags = [...prev.tags].reverse();
    } else {
      const len = 5 + Math.floor(random() * 8);
      summary = Array.from({ length: len }, word).join(' ');
      const nt = Math.floor(random() * 4);
      noteTags = [...new Set(Array.from({ length: nt }, () => tags[Math.floor(random() * tags.length)]!))];
    }
    notes.push({
      id: `note-${i.toString(36)}`,
      summary,
      tags: noteTags,
      body: `${summary}. ${Array.from({ length: 20 }, word).join(' ')}`,
      createdAt: base + i * 1000,
      updatedAt: base + i * 1000,
    });
  }
  return notes;
}
