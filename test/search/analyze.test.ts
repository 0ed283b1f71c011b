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

  it('is total: empty and symbol-only text give no terms', () => {
    expect(analyze('')).toEqual([]);
    expect(analyze('!!! --- ???')).toEqual([]);
  });
});
