import { describe, expect, it } from 'vitest';
import { analyze } from '../../electron/memory/search/analyze.js';
import { positionsOf, proximityScore as scoreOf } from '../../electron/memory/search/proximity.js';
import type { ProximityConfig, ProximityQuery } from '../../electron/memory/search/proximity.js';
import { SearchIndex } from '../../electron/memory/search/index.js';
import type { SearchDocument } from '../../electron/memory/search/index.js';
import { sumParts } from './helpers.js';

const config = { pool: 20, window: 5, weight: 1, maxQueryTerms: 12 };
const proximityScore = (texts: string[], query: ProximityQuery, c: ProximityConfig) =>
  scoreOf(
    texts.map((t) => positionsOf(analyze(t))),
    query,
    c,
  );
const q = { terms: ['databas', 'migrat'], idfs: [2, 3] };

describe('proximity of query terms', () => {
  it('scores terms side by side above terms apart, and nothing past the window or with one term', () => {
    const adjacent = proximityScore(['database migration'], q, config);
    const apart = proximityScore(['database schema change and later migration'], q, config);
    expect(adjacent).toBeGreaterThan(apart);
    expect(apart).toBeGreaterThan(0);
    expect(proximityScore(['database alpha bravo charlie delta echo foxtrot migration'], q, config)).toBe(0);
    expect(proximityScore(['database database'], q, config)).toBe(0);
    expect(proximityScore(['database migration'], { terms: ['databas'], idfs: [2] }, config)).toBe(0);
    // Saturated and weighted by the rarer term's idf: at most min(idf) per pair.
    expect(adjacent).toBeLessThan(2);
  });

  it('re-ranks search: the note with the phrase comes before one with the words scattered', () => {
    const docs: SearchDocument[] = [
      {
        id: 'scattered',
        scope: 'project',
        summary: 'Release notes',
        tags: [],
        type: 'project',
        updatedAt: 2,
        body: 'The database was slow on Monday. Unrelated: the office move is done, and the team migration to the new chat tool finished.',
      },
      {
        id: 'phrase',
        scope: 'project',
        summary: 'Release notes',
        tags: [],
        type: 'project',
        updatedAt: 1,
        body: 'Run the database migration before you deploy. Then check the dashboards and the error rates for an hour.',
      },
    ];
    const index = new SearchIndex(docs);
    const hits = index.search('database migration');
    expect(hits.map((h) => h.id)).toEqual(['phrase', 'scattered']);
    expect(hits[0]!.why.parts.proximity).toBeGreaterThan(0);
    expect(hits[0]!.score).toBe(sumParts(hits[0]!.why.parts));
    index.configureRanking({ proximity: null });
    expect(index.search('database migration')[0]!.why.parts.proximity).toBeUndefined();
  });
});
