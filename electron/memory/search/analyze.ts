import { stemmer } from 'stemmer';
import { ENGLISH_STOP_WORDS, QUESTION_PHRASES, QUESTION_WORDS } from './stopwords.js';

/**
 * Text analysis shared by documents and queries, so both sides always agree:
 * 1. NFKC (full-width forms → ASCII, compatibility characters folded), lower case;
 * 2. Unicode-aware split into runs of letters/digits/marks; CJK runs (Han, Hiragana, Katakana,
 *    Hangul) are split from other scripts;
 * 3. a CJK run becomes overlapping bigrams ("数据库" → "数据", "据库"); a lone CJK character
 *    stays a unigram;
 * 4. other words: apostrophes dropped ("don't" → "dont", "user's" → "user"), English stop words
 *    and single Latin letters dropped, ASCII words Porter-stemmed ("merging" → "merg" = "merge");
 *    camelCase words also yield their parts ("parseNoteId" → "parsenoteid", "pars", "note", "id").
 */

const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC\u3005`;
/** Words: runs of letters, digits and marks, with inner apostrophes. CJK runs inside are split off below. */
const WORD = /[\p{L}\p{N}\p{M}]+(?:['\u2019][\p{L}\p{N}\p{M}]+)*/gu;
/**
 * WORD for a text of Latin-1 characters only (U+0000–U+00FF, as most notes and queries are): the
 * same matches — its class is \p{L}, \p{N} and \p{M} within Latin-1, which has no marks, and ’
 * is not Latin-1 — without compiling Unicode's whole letter class, ~7 ms at a process's first
 * analysis (test/search/analyze.test.ts holds the two to the same terms).
 */
const LATIN1_WORD_CHAR = String.raw`0-9A-Za-z\u00AA\u00B2\u00B3\u00B5\u00B9\u00BA\u00BC-\u00BE\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u00FF`;
const LATIN1_WORD = new RegExp(`[${LATIN1_WORD_CHAR}]+(?:'[${LATIN1_WORD_CHAR}]+)*`, 'g');
/** Any UTF-16 code unit past Latin-1 (no `u` flag: surrogates count as such). */
const BEYOND_LATIN1 = /[\u0100-\uFFFF]/;
/** A word's CJK and non-CJK pieces ("api文档" → "api", "文档"). */
const PIECES = new RegExp(`[${CJK}]+|[^${CJK}]+`, 'gu');
const CJK_CHAR = new RegExp(`[${CJK}]`, 'u');
const ASCII_WORD = /^[a-z]+$/;
const CAMEL_PART = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+/g;
const APOSTROPHE = /['\u2019]/g;

/** Stems of plain words, memoised: indexing 10,000 notes stems the same few thousand words over and over. */
const stemCache = new Map<string, string>();
const STEM_CACHE_MAX = 50_000;

function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = ASCII_WORD.test(word) ? stemmer(word) : word;
    if (stemCache.size >= STEM_CACHE_MAX) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

function pushWord(out: string[], lower: string): void {
  if (ENGLISH_STOP_WORDS.has(lower)) return;
  if (lower.length === 1 && !(lower >= '0' && lower <= '9')) return; // single letters carry nothing
  out.push(stem(lower));
}

/** The word pattern for a text as normalised (NFKC): LATIN1_WORD when no character of it is past U+00FF. */
export function wordPatternOf(folded: string): RegExp {
  return BEYOND_LATIN1.test(folded) ? WORD : LATIN1_WORD;
}

/** The terms of a text, in order, with repeats (term frequency counts them). */
export function analyze(text: string): string[] {
  const out: string[] = [];
  if (!text) return out;
  const folded = text.normalize('NFKC');
  const word = wordPatternOf(folded);
  // Latin-1 only: no Greek letter to spell out, no CJK.
  const latin1 = word === LATIN1_WORD;
  const normalized = latin1 ? folded : spellGreekLetters(folded);
  const hasCjk = !latin1 && CJK_CHAR.test(normalized);
  const compound: string[] = [];
  let end = -1;
  word.lastIndex = 0;
  for (let match = word.exec(normalized); match !== null; match = word.exec(normalized)) {
    const token = match[0];
    const joined = match.index === end + 1 && HYPHEN.test(normalized[end] ?? '');
    if (!joined) flushCompound(out, compound);
    end = match.index + token.length;
    if (hasCjk && CJK_CHAR.test(token)) {
      flushCompound(out, compound);
      for (const piece of token.match(PIECES) ?? []) {
        if (CJK_CHAR.test(piece)) cjkTerms(out, piece);
        else addWord(out, piece);
      }
      continue;
    }
    addWord(out, token);
    compound.push(token);
  }
  flushCompound(out, compound);
  return out;
}

/** One hyphen-like character joining the parts of a compound ("IL-6", "pre‐miRNA"). */
const HYPHEN = /^[-\u2010\u2011]$/;
/** Compounds of more parts or letters than this are phrases, not names: not joined. */
const COMPOUND_MAX_PARTS = 4;
const COMPOUND_MAX_CHARS = 24;

/** A compound part that makes it a name rather than a phrase: a number or at most three characters. */
const NAME_PART = /^(?:.{1,3}|.*\d.*)$/u;

/**
 * Hyphenated names also yield their parts joined ("IL-6" → "il6", "T-cell" → "tcell",
 * "pre-miRNA" → "premirna"), so the hyphenated and the closed spelling of a name meet; the parts
 * are indexed as words as before. Only compounds with a short or numeric part are names:
 * "database-migration" (a tag's usual spelling of two words) is two words, and joining it would
 * only lengthen the tags.
 */
function flushCompound(out: string[], parts: string[]): void {
  if (parts.length >= 2 && parts.length <= COMPOUND_MAX_PARTS && parts.some((p) => NAME_PART.test(p))) {
    const joined = parts.join('').replace(APOSTROPHE, '').toLowerCase();
    if (joined.length <= COMPOUND_MAX_CHARS) out.push(stem(joined));
  }
  parts.length = 0;
}

/** Greek letters' names, for a Greek letter standing in a Latin name ("TNF-α", "IFNγ", "β-catenin"). */
const GREEK_NAMES: Record<string, string> = {
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  ε: 'epsilon',
  ζ: 'zeta',
  η: 'eta',
  θ: 'theta',
  ι: 'iota',
  κ: 'kappa',
  λ: 'lambda',
  ν: 'nu',
  ξ: 'xi',
  π: 'pi',
  ρ: 'rho',
  σ: 'sigma',
  τ: 'tau',
  υ: 'upsilon',
  φ: 'phi',
  χ: 'chi',
  ψ: 'psi',
  ω: 'omega',
};
/**
 * A lone Greek letter (not inside a Greek word, which stays as written); μ is left alone (μg, μM
 * are units). The letter becomes "-name", so "TNFα", "TNF-α" and "TNF-alpha" all give "tnf",
 * "alpha" and "tnfalpha".
 */
const LONE_GREEK = /(?<!\p{Script=Greek})[αβγδεζηθικλνξπρστυφχψω](?!\p{Script=Greek})/gu;

function spellGreekLetters(text: string): string {
  return text.replace(LONE_GREEK, (c, offset: number) =>
    offset > 0 && HYPHEN.test(text[offset - 1]!) ? GREEK_NAMES[c]! : `-${GREEK_NAMES[c]!}`,
  );
}

/** Overlapping bigrams of a CJK run; a lone character stays a unigram. */
function cjkTerms(out: string[], run: string): void {
  const chars = Array.from(run);
  if (chars.length === 1) out.push(chars[0]!);
  else for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

function addWord(out: string[], token: string): void {
  let word = token;
  if (word.includes("'") || word.includes('’')) {
    word = word.replace(/['\u2019]s$/i, '').replace(APOSTROPHE, '');
    if (!word) return;
  }
  const lower = word.toLowerCase();
  pushWord(out, lower);
  // camelCase / PascalCase identifiers: also index their parts (only when the case changes inside).
  if (lower !== word && /[a-z][A-Z]|[A-Z]{2}[a-z]{2}/.test(word)) {
    const parts = word.match(CAMEL_PART);
    if (parts && parts.length > 1) for (const p of parts) pushWord(out, p.toLowerCase());
  }
}

const CJK_ONLY = new RegExp(`^[${CJK}]+$`, 'u');

/** The CJK characters of a term when it is a CJK unigram or bigram (as `analyze` produces them), else null. */
export function cjkChars(term: string): string[] | null {
  if (term.length > 4 || !CJK_ONLY.test(term)) return null;
  const chars = Array.from(term);
  return chars.length <= 2 ? chars : null;
}

/** The distinct terms of a text. */
export function analyzeUnique(text: string): string[] {
  return [...new Set(analyze(text))];
}

/** Stems of the question words, as `analyze` would produce them. */
let questionStems: Set<string> | null = null;

/**
 * The terms of a query or a recall message: `analyze`, less question phrases and question words
 * ("what kind of music did she mention" → music), unless nothing would be left.
 */
export function analyzeQuery(text: string): string[] {
  const all = analyze(text);
  let stripped = text.normalize('NFKC');
  for (const phrase of QUESTION_PHRASES) stripped = stripped.replace(phrase, ' ');
  questionStems ??= new Set([...QUESTION_WORDS].map(stem));
  const qs = questionStems;
  const kept = analyze(stripped).filter((t) => !qs.has(t));
  return kept.length > 0 ? kept : all;
}
