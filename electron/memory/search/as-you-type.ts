import { analyze, cjkChars } from './analyze.js';
import type { WeightedQuery } from './feedback.js';

/**
 * Find-as-you-type for `search` (recall and related stay exact): the word being typed matches as a
 * prefix ("dep" finds "deploy"), and a word of five or more letters that matches nothing matches
 * the indexed terms one edit away ("deplyo" finds "deploy"). Expansions weigh less than exact terms,
 * so a note with the word itself still ranks first.
 */
export interface Vocabulary {
  /** Every indexed term (a mistyped word is compared with each). */
  terms(): Iterable<string>;
  /** The indexed terms starting with `prefix` (a sorted lookup; repeats allowed). */
  withPrefix(prefix: string): Iterable<string>;
  /** How many notes hold the term (0 when none). */
  df(term: string): number;
}

/** At most this many terms stand in for the word being typed (the most common first). */
export const PREFIX_EXPANSION_MAX = 48;
/** At most this many terms stand in for a mistyped word. */
export const TYPO_EXPANSION_MAX = 8;
export const PREFIX_WEIGHT = 0.8;
export const TYPO_WEIGHT = 0.6;
/** Typo tolerance starts at this word length (shorter words have too many neighbours). */
export const TYPO_MIN_LENGTH = 5;

const TAIL_WORD = /[\p{L}\p{N}]+$/u;
const WORDS = /[\p{L}\p{N}]+/gu;

export function expandAsTyped(q: WeightedQuery, query: string, vocab: Vocabulary): WeightedQuery {
  const text = query.normalize('NFKC').toLowerCase();
  const out: WeightedQuery = { terms: [...q.terms], weights: [...q.weights] };
  const add = (terms: string[], weight: number) => {
    for (const term of terms) {
      if (out.terms.includes(term)) continue;
      out.terms.push(term);
      out.weights.push(weight);
    }
  };
  // A space after the last word means it is finished: only then is it matched exactly, not as a prefix.
  const tail = TAIL_WORD.exec(text)?.[0];
  const words = text.match(WORDS) ?? [];
  for (const word of words) {
    if (cjkChars(word)) continue;
    const stem = analyze(word)[0];
    const known = stem !== undefined && vocab.df(stem) > 0;
    const prefixes = word === tail ? prefixTerms(word, stem, vocab) : [];
    add(prefixes, PREFIX_WEIGHT);
    if (!known && prefixes.length === 0 && stem !== undefined && word.length >= TYPO_MIN_LENGTH)
      add(oneEditAway(word, stem, vocab), TYPO_WEIGHT);
  }
  return out.terms.length === q.terms.length ? q : out;
}

/**
 * Terms the unfinished word may become: those it begins, and the stem of a longer form typed so far
 * ("deploym" → "deploy": terms are stems, which can be shorter than the word being typed).
 */
function prefixTerms(word: string, stem: string | undefined, vocab: Vocabulary): string[] {
  const found = new Set<string>(vocab.withPrefix(word));
  if (stem !== undefined) {
    if (vocab.df(stem) > 0) found.add(stem);
    if (stem !== word) for (const term of vocab.withPrefix(stem)) found.add(term);
  }
  // The stem of the word typed so far: terms of four letters or more the word begins with, at most three shorter.
  for (let n = Math.max(4, word.length - 3); n < word.length; n++) {
    const term = word.slice(0, n);
    if (vocab.df(term) > 0) found.add(term);
  }
  return mostCommon([...found], vocab, PREFIX_EXPANSION_MAX);
}

/**
 * Terms one edit from the word or its stem. Terms are stems ("staging" is indexed as "stage"), so a
 * term also counts when the word's beginning is one edit from it and the rest could be a suffix
 * ("stagign" → "stagi…" ~ "stage").
 */
function oneEditAway(word: string, stem: string, vocab: Vocabulary): string[] {
  const found: string[] = [];
  for (const term of vocab.terms()) {
    const d = word.length - term.length;
    if (
      (Math.abs(d) <= 1 && withinOneEdit(word, term)) ||
      (Math.abs(stem.length - term.length) <= 1 && withinOneEdit(stem, term)) ||
      (term.length >= 4 && d > 1 && d <= 3 && withinOneEdit(word.slice(0, term.length), term))
    )
      found.push(term);
  }
  return mostCommon(found, vocab, TYPO_EXPANSION_MAX);
}

/** The `max` most common terms, most common first; ties by length, then by term, so the result does not depend on the vocabulary's order. */
function mostCommon(terms: string[], vocab: Vocabulary, max: number): string[] {
  return terms
    .map((term) => ({ term, df: vocab.df(term) }))
    .sort((a, b) => b.df - a.df || a.term.length - b.term.length || (a.term < b.term ? -1 : 1))
    .slice(0, max)
    .map((x) => x.term);
}

/** One insertion, deletion, substitution or swap of neighbours (Damerau) turns a into b; a ≠ b. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return false;
  if (a.length === b.length) {
    let i = 0;
    while (a[i] === b[i]) i++;
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (long.length - short.length !== 1) return false;
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  return short.slice(i) === long.slice(i + 1);
}
