import { describe, expect, it } from 'vitest';
import { analyze } from '../../electron/memory/search/analyze.js';
import {
  findSameTopicGroups,
  groupSameTopic,
  sameTopicEdges,
  sameTopicEdgesNaive,
} from '../../electron/cleanup/same-topic.js';
import { buildFeatureTable, MAX_GROUP_SIZE } from '../../electron/cleanup/similarity.js';
import { generateNotes } from '../../bench/findings/generate.js';
import { LABELLED_GROUPS, LABELLED_NOTES } from './fixtures/labelled-notes.js';

const pairKey = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);
function pairsOf(groups: readonly (readonly string[])[]): Set<string> {
  const out = new Set<string>();
  for (const g of groups) for (const a of g) for (const b of g) if (a < b) out.add(pairKey(a, b));
  return out;
}

describe('same-topic similarity on the labelled set', () => {
  it('finds the near-duplicates and leaves the distinct notes alone (precision and recall printed)', () => {
    const found = findSameTopicGroups(LABELLED_NOTES, analyze);
    const predicted = pairsOf(found.map((g) => g.ids));
    const truth = pairsOf(LABELLED_GROUPS);
    const tp = [...predicted].filter((p) => truth.has(p)).length;
    const precision = predicted.size ? tp / predicted.size : 1;
    const recall = tp / truth.size;
    const missed = [...truth].filter((p) => !predicted.has(p));
    const wrong = [...predicted].filter((p) => !truth.has(p));
    console.log(
      `same-topic on ${LABELLED_NOTES.length} labelled notes: precision ${precision.toFixed(2)} (${tp}/${predicted.size} pairs), ` +
        `recall ${recall.toFixed(2)} (${tp}/${truth.size}); missed: ${missed.join(' ') || '—'}; wrong: ${wrong.join(' ') || '—'}`,
    );
    expect(precision).toBeGreaterThanOrEqual(0.9);
    expect(recall).toBeGreaterThanOrEqual(0.8);
  });

  it('groups whole labelled groups of three', () => {
    const found = findSameTopicGroups(LABELLED_NOTES, analyze).map((g) => g.ids.join(','));
    expect(found).toContain('d1a,d1b,d1c');
    expect(found).toContain('d8a,d8b,d8c');
  });

  it('matches tags but never on tags alone', () => {
    const notes = [
      { id: 'a', summary: 'Use Vite for the renderer build', tags: ['build', 'tooling', 'frontend'] },
      { id: 'b', summary: 'Release notes live in the wiki', tags: ['build', 'tooling', 'frontend'] },
    ];
    expect(findSameTopicGroups(notes, analyze)).toEqual([]);
  });

  it('never makes a group larger than six, and does not chain unrelated notes', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({
      id: `n${i}`,
      summary: 'Deploys go out on Fridays after review',
      tags: ['deploy'],
    }));
    const groups = findSameTopicGroups(many, analyze);
    expect(groups.every((g) => g.ids.length >= 2 && g.ids.length <= MAX_GROUP_SIZE)).toBe(true);
    expect(groups.map((g) => g.ids.length).sort()).toEqual([3, 6]);

    // a ~ b and b ~ c, but a and c share almost nothing: a and c must not end up together.
    const chain = [
      { id: 'a', summary: 'alpha bravo charlie delta echo', tags: [] },
      { id: 'b', summary: 'alpha bravo charlie delta echo foxtrot golf hotel india juliet', tags: [] },
      { id: 'c', summary: 'foxtrot golf hotel india juliet', tags: [] },
      // background notes so the words are not all equally rare
      ...Array.from({ length: 10 }, (_, i) => ({
        id: `z${i}`,
        summary: `zulu${i} yankee${i} xray${i}`,
        tags: [],
      })),
    ];
    const ids = findSameTopicGroups(chain, analyze).map((g) => g.ids);
    expect(ids.some((g) => g.includes('a') && g.includes('c'))).toBe(false);
  });

  it('blocking finds exactly the pairs the naive all-pairs comparison finds', () => {
    const notes = generateNotes(1500, 7);
    const table = buildFeatureTable(notes, analyze);
    const key = (e: { a: number; b: number }): string => `${e.a}:${e.b}`;
    const blocked = sameTopicEdges(table).map(key).sort();
    const naive = sameTopicEdgesNaive(table).map(key).sort();
    expect(naive.length).toBeGreaterThan(10);
    expect(blocked).toEqual(naive);
    const ids = notes.map((n) => n.id);
    expect(groupSameTopic(table, sameTopicEdges(table), ids)).toEqual(
      groupSameTopic(table, sameTopicEdgesNaive(table), ids),
    );
  });
});
