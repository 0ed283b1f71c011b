/**
 * A deterministic (seeded) generator of memory notes and labelled queries for the search
 * benchmarks. Each note is "about" 2–3 concepts (its summary names them, in a random inflected
 * form, or in Chinese for ~15% of notes); tags carry base forms, synonyms, and Swedish / Chinese
 * words some of the time, as the seed asks notes to; bodies mix filler, pseudo-words, the note's
 * concepts and — as distractors — mentions of unrelated concepts.
 *
 * A query targets one note and names 1–2 of its summary concepts in one of five ways (exact,
 * inflection, paraphrase/synonym, Swedish or Chinese word, CJK phrase). Its relevant set is every
 * note whose summary concepts include all the query's concepts (ground truth from the generator,
 * not from any text matching).
 */
import type { SearchDocument } from '../../electron/memory/search/index.js';
import { CONCEPTS, FILLER, ZH_GLUE } from './concepts.js';
import { mulberry32 } from '../../test/support/prng.js';

export interface GeneratedNote extends SearchDocument {
  /** Indexes into CONCEPTS the summary names. */
  concepts: number[];
  chinese: boolean;
}

export type QueryKind = 'exact' | 'inflection' | 'paraphrase' | 'swedish' | 'chinese-tag' | 'cjk';

export interface LabelledQuery {
  query: string;
  kind: QueryKind;
  target: string;
  /** Ids of every relevant note (the target among them). */
  relevant: string[];
}

export interface Corpus {
  notes: GeneratedNote[];
  queries: LabelledQuery[];
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ten',
  'dra',
  'vo',
  'sel',
  'quin',
  'bar',
  'rok',
  'zu',
  'pel',
  'nor',
  'fi',
  'gan',
  'tur',
];

export function generateCorpus(noteCount: number, queryCount: number, seed = 42): Corpus {
  const r = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const chance = (p: number) => r() < p;
  // Zipf-like concept popularity: a few concepts are common, most are rarer.
  const weights = CONCEPTS.map((_, i) => 1 / Math.pow(i + 1, 0.6));
  const order = CONCEPTS.map((_, i) => i).sort(() => r() - 0.5);
  const totalW = weights.reduce((a, b) => a + b, 0);
  const pickConcept = (): number => {
    let x = r() * totalW;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i]!;
      if (x <= 0) return order[i]!;
    }
    return order[order.length - 1]!;
  };
  const pseudo: string[] = [];
  for (let i = 0; i < 1500; i++) {
    const n = 2 + Math.floor(r() * 2);
    let w = '';
    for (let j = 0; j < n; j++) w += pick(SYLLABLES);
    pseudo.push(w);
  }
  const pickPseudo = () => pseudo[Math.floor(Math.pow(r(), 2) * pseudo.length)]!; // skewed: some are common

  const notes: GeneratedNote[] = [];
  for (let n = 0; n < noteCount; n++) {
    const k = chance(0.35) ? 3 : 2;
    const concepts: number[] = [];
    while (concepts.length < k) {
      const c = pickConcept();
      if (!concepts.includes(c)) concepts.push(c);
    }
    const chinese = chance(0.15);
    const subject = pickPseudo();
    let summary: string;
    if (chinese) {
      summary = concepts.map((c) => CONCEPTS[c]!.zh).join(pick(ZH_GLUE)) + pick(ZH_GLUE);
    } else {
      const words = concepts.map((c) => pick(CONCEPTS[c]!.forms));
      const glue = ['before', 'after', 'with', 'for', 'when', 'and', 'in'];
      summary = `${words[0]} ${pick(glue)} ${words[1]}${words[2] ? ` ${pick(glue)} ${words[2]}` : ''} in ${subject}`;
      summary = summary[0]!.toUpperCase() + summary.slice(1);
    }
    const tags = new Set<string>();
    for (const c of concepts) {
      const con = CONCEPTS[c]!;
      if (chance(chinese ? 0.5 : 0.7)) tags.add(con.forms[0]!.replace(/ /g, '-'));
      if (chance(0.4)) tags.add(pick(con.synonyms).replace(/ /g, '-'));
      if (chance(0.3)) tags.add(con.sv.replace(/ /g, '-'));
      if (!chinese && chance(0.2)) tags.add(con.zh);
    }
    if (chance(0.3)) tags.add(subject);
    const sentences: string[] = [];
    const sentenceCount = 2 + Math.floor(r() * 5);
    for (let s = 0; s < sentenceCount; s++) {
      const len = 6 + Math.floor(r() * 10);
      const words: string[] = [];
      for (let w = 0; w < len; w++) {
        const x = r();
        if (x < 0.55) words.push(pick(FILLER));
        else if (x < 0.8) words.push(pickPseudo());
        else if (x < 0.9) {
          const con = CONCEPTS[pick(concepts)]!;
          words.push(chinese && chance(0.5) ? con.zh : chance(0.2) ? pick(con.synonyms) : pick(con.forms));
        } else words.push(pick(CONCEPTS[pickConcept()]!.forms)); // a distractor: another concept in passing
      }
      sentences.push(words.join(' ') + '.');
    }
    notes.push({
      id: `note-${n.toString(36)}`,
      scope: chance(0.8) ? 'project' : 'user',
      summary,
      tags: [...tags],
      body: sentences.join(' '),
      updatedAt: 1_780_000_000_000 + Math.floor(r() * 1e10),
      concepts,
      chinese,
    });
  }

  // Which notes have which concept, for relevance.
  const byConcept = CONCEPTS.map(() => [] as number[]);
  notes.forEach((note, i) => note.concepts.forEach((c) => byConcept[c]!.push(i)));
  const relevantFor = (qc: number[]): string[] => {
    const [first, ...rest] = qc;
    return byConcept[first!]!.filter((i) => rest.every((c) => notes[i]!.concepts.includes(c))).map(
      (i) => notes[i]!.id,
    );
  };

  const queries: LabelledQuery[] = [];
  const chineseNotes = notes.filter((n) => n.chinese);
  const kinds: QueryKind[] = [
    'exact',
    'inflection',
    'inflection',
    'paraphrase',
    'swedish',
    'chinese-tag',
    'cjk',
  ];
  let guard = 0;
  while (queries.length < queryCount && guard++ < queryCount * 50) {
    const kind = pick(kinds);
    // CJK queries look for Chinese notes; exact / inflection / paraphrase queries for English ones.
    const target = kind === 'cjk' ? pick(chineseNotes) : notes[Math.floor(r() * notes.length)]!;
    if (!target) continue;
    if (kind !== 'cjk' && target.chinese && kind !== 'chinese-tag' && kind !== 'swedish') continue;
    // Two concepts keep relevant sets small; a few single-concept queries are too broad to label.
    const qc = target.concepts.slice(0, 2);
    const parts = qc.map((c, i) => {
      const con = CONCEPTS[c]!;
      const inSummary = con.forms.find((f) => target.summary.toLowerCase().includes(f)) ?? con.forms[0]!;
      switch (kind) {
        case 'exact':
          return inSummary;
        case 'inflection': {
          const others = con.forms.filter((f) => f !== inSummary);
          return others.length ? pick(others) : inSummary;
        }
        case 'paraphrase':
          return i === 0 ? pick(con.synonyms) : pick(con.forms);
        case 'swedish':
          return i === 0 ? con.sv : pick(con.forms);
        case 'chinese-tag':
          return i === 0 ? con.zh : pick(con.forms);
        case 'cjk':
          return con.zh;
      }
    });
    const query =
      kind === 'cjk'
        ? parts.join(pick(ZH_GLUE))
        : `${pick(['', 'how do we ', 'notes on ', 'what about '])}${parts.join(' ')}`;
    const relevant = relevantFor(qc);
    if (relevant.length > 20) continue;
    queries.push({ query, kind, target: target.id, relevant });
  }
  return { notes, queries };
}
