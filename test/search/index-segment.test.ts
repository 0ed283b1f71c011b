import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Scope } from '../../shared/note.js';
import {
  encodeIndexSegment,
  openIndexSegment,
  SegmentDamagedError,
  type SegmentLists,
} from '../../electron/memory/search/index-segment.js';
import { analyseDocument, SearchIndex } from '../../electron/memory/search/search-index.js';
import type { SearchDocument } from '../../electron/memory/search/index.js';

/**
 * A segment's lists served from a buffer (the cache file's reader, index-cache.ts ListsOnDisk,
 * serves them from the file): `checked` as after a whole-section CRC, else each list is checked.
 */
function listsInMemory(buf: Uint8Array, checked: boolean): SegmentLists {
  const words =
    buf.length % 4 === 0 ? new Uint32Array(Uint8Array.prototype.slice.call(buf).buffer) : new Uint32Array(0);
  return {
    read: (at, n) => (at + n <= words.length ? words.subarray(at, at + n) : null),
    checked,
    damaged: (what) => new SegmentDamagedError(`the persisted index is damaged: ${what}`),
  };
}

const WORDS = [
  'merge',
  'merging',
  'deploy',
  'cache',
  'caching',
  'the',
  'font',
  '数据库',
  '猫咪',
  '小猫',
  'theme',
  'tests',
];
const QUERIES = ['merge deploy', 'caching the font', '数据库', '猫', 'theme tests', 'deplo', 'cachng', 'mer'];
const IDS = ['a', 'b', 'c', 'd', 'e', 'f'];

const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((ws) => ws.join(' '));
const docArb = fc.record({
  id: fc.constantFrom(...IDS),
  scope: fc.constantFrom<Scope>('project', 'user'),
  summary: words,
  tags: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }),
  body: words,
  updatedAt: fc.integer({ min: 1, max: 5 }),
});
const unique = (docs: SearchDocument[]): SearchDocument[] => [
  ...new Map(docs.map((d) => [`${d.scope}:${d.id}`, d])).values(),
];

/** Everything a caller can observe of an index, for the queries above. */
function answers(index: SearchIndex) {
  const draft = { summary: 'merging the cache', tags: ['deploy'], body: 'font tests' };
  return {
    size: index.size,
    search: QUERIES.map((q) => index.search(q)),
    recall: QUERIES.map((q) => index.recall(q, { minScore: 0.1 })),
    related: index.related(draft),
    link: IDS.map((id) => index.resolveLink(id.toUpperCase())?.id),
  };
}

/** Copied to an odd offset: a section read from inside a file need not be aligned. */
function unaligned(buf: Buffer): Buffer {
  const odd = Buffer.alloc(buf.length + 1).subarray(1);
  buf.copy(odd);
  return odd;
}

/** A segment of `docs` as a cache holds it, its lists checked one by one; `flip`: one byte of the lists changed. */
function segmentOf(docs: readonly SearchDocument[], flip?: number) {
  const { head, lists } = encodeIndexSegment(docs.map(analyseDocument));
  const damaged = Buffer.from(lists);
  if (flip !== undefined && damaged.length > 0) {
    const at = Math.floor(flip * damaged.length);
    damaged[at] = damaged[at]! ^ 0x04;
  }
  return openIndexSegment(unaligned(head), listsInMemory(unaligned(damaged), false), lists.length)!;
}

describe('index segments (the persisted inverted index)', () => {
  it('an index adopting segments, then patched, answers like one built by upserting the same notes', () => {
    fc.assert(
      fc.property(
        fc.array(docArb, { maxLength: 10 }),
        fc.array(docArb, { maxLength: 10 }),
        fc.array(
          fc.oneof(
            docArb,
            fc.record({ id: fc.constantFrom(...IDS), scope: fc.constantFrom<Scope>('project', 'user') }),
          ),
          {
            maxLength: 6,
          },
        ),
        fc.option(fc.double({ min: 0, max: 0.999, noNaN: true }), { nil: undefined }),
        fc.array(
          docArb.map((d) => ({ ...d, id: `early-${d.id}` })),
          { maxLength: 3 },
        ),
        (project, user, changes, flip, early) => {
          const persisted = [
            unique(project.map((d) => ({ ...d, scope: 'project' as const }))),
            unique(user.map((d) => ({ ...d, scope: 'user' as const }))),
          ];
          const fresh = new SearchIndex();
          const adopted = new SearchIndex();
          // Notes indexed before any segment (as after a rebuild): a segment adopted then must give
          // their terms its postings too, and a damaged one is found while doing so.
          for (const d of unique(early)) for (const index of [fresh, adopted]) index.upsert(d);
          for (const docs of persisted) {
            for (const d of docs) fresh.upsert(d);
            // A damaged list (flip) is found when read: the index analyses its notes again.
            adopted.adoptSegment(segmentOf(docs, docs === persisted[0] ? flip : undefined), docs);
            adopted.search('merge the'); // terms looked up before the next segment comes must take its postings too
          }
          expect(answers(adopted)).toEqual(answers(fresh));
          for (const c of changes) {
            for (const index of [fresh, adopted]) {
              if ('summary' in c) index.upsert(c);
              else index.remove(c.scope, c.id);
            }
            expect(answers(adopted)).toEqual(answers(fresh));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a head that does not add up is refused; a damaged list is never read as data', () => {
    const { head, lists } = encodeIndexSegment([
      analyseDocument({ summary: 'merge', tags: [], body: 'deploy' }),
      analyseDocument({ summary: 'font', tags: ['theme'], body: 'deploy the font' }),
    ]);
    const inMemory = (buf: Buffer) => listsInMemory(buf, false);
    expect(openIndexSegment(head, inMemory(lists), lists.length)).not.toBeNull();
    expect(openIndexSegment(head.subarray(0, head.length - 4), inMemory(lists), lists.length)).toBeNull();
    expect(openIndexSegment(head, inMemory(lists), lists.length - 4)).toBeNull();
    expect(openIndexSegment(Buffer.alloc(3), inMemory(lists), lists.length)).toBeNull();
    // Each list against its own CRC: a flipped byte anywhere in the lists is found by whichever
    // reader touches it (postings, analysis or tf lookup), and nothing else is.
    for (let at = 0; at < lists.length; at++) {
      const damaged = Buffer.from(lists);
      damaged[at] = damaged[at]! ^ 0x01;
      const segment = openIndexSegment(head, inMemory(damaged), lists.length)!;
      const reads = [
        ...segment.terms.map((_, t) => () => segment.postings(t, () => {})),
        ...[0, 1].map((doc) => () => segment.analysis(doc)),
        ...[0, 1].map(
          (doc) => () => segment.lookupTfs(doc, new Int32Array(segment.terms.length), new Int32Array(1)),
        ),
      ];
      const failed = reads.filter((read) => {
        try {
          read();
          return false;
        } catch (err) {
          expect(err).toBeInstanceOf(SegmentDamagedError);
          return true;
        }
      });
      // One term's postings, or one note's analysis (read by both analysis and lookupTfs).
      expect([1, 2]).toContain(failed.length);
    }
    // Lists checked whole (the section read at once) are served without a check per list.
    const whole = openIndexSegment(head, listsInMemory(lists, true), lists.length)!;
    expect(whole.analysis(1)).toEqual(
      analyseDocument({ summary: 'font', tags: ['theme'], body: 'deploy the font' }),
    );
  });
});
