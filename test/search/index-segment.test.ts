import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Scope } from '../../shared/note.js';
import { encodeIndexSegment, openIndexSegment } from '../../electron/memory/search/index-segment.js';
import { analyseDocument, SearchIndex } from '../../electron/memory/search/search-index.js';
import type { SearchDocument } from '../../electron/memory/search/index.js';

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
        (project, user, changes) => {
          const persisted = [
            unique(project.map((d) => ({ ...d, scope: 'project' as const }))),
            unique(user.map((d) => ({ ...d, scope: 'user' as const }))),
          ];
          const fresh = new SearchIndex();
          const adopted = new SearchIndex();
          for (const docs of persisted) {
            for (const d of docs) fresh.upsert(d);
            const buf = encodeIndexSegment(docs.map(analyseDocument));
            // Copied to an odd offset: a section read from inside a file need not be aligned.
            const odd = Buffer.alloc(buf.length + 1).subarray(1);
            buf.copy(odd);
            adopted.adoptSegment(openIndexSegment(odd)!, docs);
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

  it('a damaged segment is refused, not read', () => {
    const buf = encodeIndexSegment([analyseDocument({ summary: 'merge', tags: [], body: 'deploy' })]);
    expect(openIndexSegment(buf)).not.toBeNull();
    expect(openIndexSegment(buf.subarray(0, buf.length - 4))).toBeNull();
    expect(openIndexSegment(Buffer.alloc(3))).toBeNull();
  });
});
