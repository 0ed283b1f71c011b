import { describe, expect, it } from 'vitest';
import { analyze } from '../../electron/memory/search/index.js';

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

  it('is total: empty and symbol-only text give no terms', () => {
    expect(analyze('')).toEqual([]);
    expect(analyze('!!! --- ???')).toEqual([]);
  });
});
