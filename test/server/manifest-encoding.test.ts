import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manifestJsonParts, parseManifest, type StoredManifest } from '../../server/manifest.js';
import { ScratchBuffers } from '../../server/storage/scratch-buffers.js';

const hash = fc.stringMatching(/^[0-9a-f]{64}$/);
const entry = fc.record(
  {
    // Ids with case, digits, CJK and astral characters: the sort is by code unit, the text UTF-8.
    id: fc.string({
      unit: fc.constantFrom('a', 'B', 'z', '0', '-', '笔', '记', '😀', 'é'),
      minLength: 1,
      maxLength: 12,
    }),
    hash: fc.option(hash, { nil: null }),
    rev: fc.option(fc.stringMatching(/^[0-9a-f]{12}-[0-9a-f]{10}$/), { nil: null }),
    seq: fc.nat(),
    size: fc.nat(),
    deletedAt: fc.nat(),
    replaced: hash,
    typed: fc.boolean(),
  },
  { requiredKeys: ['id', 'hash', 'rev', 'seq', 'size'] },
);
const manifest: fc.Arbitrary<StoredManifest> = fc.record(
  {
    format: fc.constant(1 as const),
    version: fc.nat(),
    prunedThrough: fc.nat(),
    entries: fc.uniqueArray(entry, { selector: (e) => e.id, maxLength: 450 }),
    heads: fc.array(fc.stringMatching(/^[0-9a-z]{1,4}-[0-9a-f]{16}$/), { maxLength: 5 }),
  },
  { requiredKeys: ['format', 'version', 'prunedThrough', 'entries'] },
);

/** What the manifest's text was before it came in parts: one JSON.stringify, entries sorted. */
function wholeText(m: StoredManifest): string {
  const entries = [...m.entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return JSON.stringify({ ...m, entries });
}

describe('a manifest written in parts', () => {
  it('is the same text as one JSON.stringify with its entries sorted, and parses back to the manifest', () => {
    fc.assert(
      fc.property(manifest, (m) => {
        const text = manifestJsonParts(m).join('');
        expect(text).toBe(wholeText(m));
        const back = parseManifest(Buffer.from(text, 'utf8'), 'test');
        expect(new Set(back.entries.map((e) => e.id))).toEqual(new Set(m.entries.map((e) => e.id)));
      }),
      { numRuns: 150 },
    );
  });

  it('is encoded to the same bytes through reused buffers, two writes in flight at once included', () => {
    const scratch = new ScratchBuffers(2);
    fc.assert(
      fc.property(manifest, manifest, (a, b) => {
        const first = scratch.encode(manifestJsonParts(a));
        const second = scratch.encode(manifestJsonParts(b));
        // Both held: neither may share memory with the other.
        expect(first.bytes.equals(Buffer.from(wholeText(a), 'utf8'))).toBe(true);
        expect(second.bytes.equals(Buffer.from(wholeText(b), 'utf8'))).toBe(true);
        first.release();
        first.release(); // a second release must not put the buffer in the pool twice
        const third = scratch.encode(manifestJsonParts(b));
        const fourth = scratch.encode(manifestJsonParts(a));
        expect(third.bytes.equals(Buffer.from(wholeText(b), 'utf8'))).toBe(true);
        expect(fourth.bytes.equals(Buffer.from(wholeText(a), 'utf8'))).toBe(true);
        second.release();
        third.release();
        fourth.release();
      }),
      { numRuns: 100 },
    );
  });
});
