import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../electron/memory/search/index.js';
import { wordPatternOf } from '../../electron/memory/search/analyze.js';

describe('analyze', () => {
  it('stems inflections to the same term (Porter)', () => {
    const [merge] = analyze('merge');
    for (const w of ['merging', 'merged', 'merges', 'Merge']) expect(analyze(w)).toEqual([merge]);
    expect(analyze('deployments')).toEqual(analyze('deployment'));
  });

  it('lower-cases, folds full-width forms (NFKC) and drops English stop words', () => {
    expect(analyze('The Pricing of THE cards')).toEqual(['price', 'card']);
    expect(analyze('Ｐｒｉｃｉｎｇ')).toEqual(analyze('pricing'));
    expect(analyze('it is what it is')).toEqual([]);
  });

  it('splits on any Unicode punctuation and keeps non-Latin words whole', () => {
    expect(analyze('sync—backup/restore…done')).toEqual(['sync', 'backup', 'restor', 'done']);
    // Porter applies to ASCII words only; others are kept as written.
    expect(analyze('tjänster och databaser')).toEqual(['tjänster', 'och', 'databas']);
  });

  it('turns CJK runs into overlapping bigrams and keeps a lone CJK character as a unigram', () => {
    expect(analyze('数据库迁移')).toEqual(['数据', '据库', '库迁', '迁移']);
    expect(analyze('猫')).toEqual(['猫']);
    expect(analyze('データ')).toEqual(['デー', 'ータ']);
    expect(analyze('한국어')).toEqual(['한국', '국어']);
    // Mixed scripts in one word are split at the script change.
    expect(analyze('api文档')).toEqual(['api', '文档']);
  });

  it('handles apostrophes and camelCase identifiers', () => {
    expect(analyze("the user's notes")).toEqual(['user', 'note']);
    expect(analyze("don't")).toEqual([]);
    expect(analyze('parseNoteId')).toEqual(['parsenoteid', 'pars', 'note', 'id']);
    expect(analyze('XMLParser')).toEqual(['xmlparser', 'xml', 'parser']);
  });

  it('joins hyphenated names and spells lone Greek letters, so their spellings meet', () => {
    expect(analyze('IL-6 and T-cell')).toEqual(['il', '6', 'il6', 'cell', 'tcell']);
    expect(analyze('pre-miRNA')).toEqual(['pre', 'mirna', 'mi', 'rna', 'premirna']);
    for (const spelling of ['TNF-α', 'TNFα', 'TNF-alpha', 'TNF‐alpha'])
      expect(analyze(spelling)).toEqual(['tnf', 'alpha', 'tnfalpha']);
    expect(analyze('TNF alpha')).toEqual(['tnf', 'alpha']);
    // Phrases (no short or numeric part) stay words: a tag's "database-migration" is two words.
    expect(analyze('database-migration')).toEqual(['databas', 'migrat']);
    // A Greek word stays as written; μ is a unit prefix (μM), not a name.
    expect(analyze('ελληνικά 10 μM')).toEqual(['ελληνικά', '10', 'μm']);
  });

  it('gives a Latin-1 text the terms the Unicode word pattern gives it (the Latin-1 pattern is a shortcut only)', () => {
    // A trailing " —" (not Latin-1, kept by NFKC, no word character, no hyphen) sends the same text
    // through the Unicode pattern without adding or joining a term.
    const viaUnicodeSuffix = ' —';
    const viaUnicode = (text: string) => analyze(text + viaUnicodeSuffix);
    const latin1 = Array.from({ length: 256 }, (_, c) => String.fromCharCode(c));
    for (const c of latin1)
      for (const text of [`ab${c}cd`, `${c}${c}x`, `don${c}t`, `IL${c}6 x${c}`])
        expect(analyze(text), JSON.stringify(text)).toEqual(viaUnicode(text));
    // …which most of them took (the rest leave Latin-1 under NFKC: µ → μ, ¼ → 1⁄4, ¨ → a combining mark).
    const latin1Path = latin1.filter((c) => !wordPatternOf(`ab${c}cd`.normalize('NFKC')).unicode);
    expect(latin1Path.length).toBeGreaterThan(200);
    expect(wordPatternOf(viaUnicodeSuffix).unicode).toBe(true);
    const char = fc.oneof(fc.constantFrom(...latin1), fc.constantFrom(..."aeiouAEIOU xyz-'09ÀéñüßµªÞ"));
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        expect(analyze(text)).toEqual(viaUnicode(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('is total: empty and symbol-only text give no terms', () => {
    expect(analyze('')).toEqual([]);
    expect(analyze('!!! --- ???')).toEqual([]);
  });
});
