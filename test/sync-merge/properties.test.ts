import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeNewlines } from '../../shared/note-format.js';
import type { NoteMergeResult } from '../../electron/sync/merge/index.js';
import { mergeNote, mergeText, sameContent } from '../../electron/sync/merge/index.js';
import { diffLines } from '../../electron/sync/merge/line-diff.js';
import { LineInterner, splitLines, toLines } from '../../electron/sync/merge/lines.js';
import { lineArb, relatedLinesArb, relatedNotesArb, relatedTextsArb } from './arbitraries.js';

// Fixed seed: a failure replays exactly; fast-check prints the counterexample and the seed.
const params = { seed: 20261130, numRuns: 400 };

function lineCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of splitLines(text)) counts.set(line, (counts.get(line) ?? 0) + 1);
  return counts;
}

describe('mergeText properties', () => {
  it('a change on one side only comes out as that side', () => {
    fc.assert(
      fc.property(relatedTextsArb, ({ base, local }) => {
        expect(mergeText(base, local, base)).toEqual({ clean: true, text: normalizeNewlines(local) });
        expect(mergeText(base, base, local)).toEqual({ clean: true, text: normalizeNewlines(local) });
      }),
      params,
    );
  });

  it('the same change on both sides is clean and equal to it', () => {
    fc.assert(
      fc.property(relatedTextsArb, ({ base, local }) => {
        expect(mergeText(base, local, local)).toEqual({ clean: true, text: normalizeNewlines(local) });
      }),
      params,
    );
  });

  it('swapping this computer and the cloud gives the same text, or the mirrored conflict', () => {
    fc.assert(
      fc.property(relatedTextsArb, ({ base, local, cloud }) => {
        const ab = mergeText(base, local, cloud);
        const ba = mergeText(base, cloud, local);
        expect(ba.clean).toBe(ab.clean);
        if (ab.clean || ba.clean) {
          expect(ba.text).toBe(ab.text);
          return;
        }
        expect(ba.hunks.map((h) => ({ ...h, local: h.cloud, cloud: h.local }))).toEqual(ab.hunks);
      }),
      params,
    );
  });

  it('a clean merge contains every line either side added', () => {
    fc.assert(
      fc.property(relatedTextsArb, ({ base, local, cloud }) => {
        const result = mergeText(base, local, cloud);
        if (!result.clean) return;
        const b = lineCounts(normalizeNewlines(base));
        const r = lineCounts(result.text);
        for (const side of [local, cloud]) {
          for (const [line, n] of lineCounts(normalizeNewlines(side))) {
            const added = n - (b.get(line) ?? 0);
            expect(r.get(line) ?? 0).toBeGreaterThanOrEqual(added);
          }
        }
      }),
      params,
    );
  });

  it('a conflict draft keeps every line either side has in the conflicting regions', () => {
    fc.assert(
      fc.property(relatedTextsArb, ({ base, local, cloud }) => {
        const result = mergeText(base, local, cloud);
        if (result.clean) return;
        for (const h of result.hunks) {
          const draftLines = splitLines(result.text);
          const block = draftLines.slice(h.markerLine - 1).join('');
          expect(block.startsWith('<<<<<<< this computer\n')).toBe(true);
          for (const part of [h.local, h.cloud]) {
            const whole = part === '' || part.endsWith('\n') ? part : part + '\n';
            expect(block).toContain(whole);
          }
        }
      }),
      params,
    );
  });

  it('keeps the final newline when every side agrees on it', () => {
    fc.assert(
      fc.property(relatedTextsArb, ({ base, local, cloud }) => {
        const result = mergeText(base, local, cloud);
        if (!result.clean || result.text === '') return;
        const texts = [base, local, cloud].filter((t) => t !== '');
        if (texts.every((t) => t.endsWith('\n'))) expect(result.text.endsWith('\n')).toBe(true);
        if (texts.every((t) => !t.endsWith('\n'))) expect(result.text.endsWith('\n')).toBe(false);
      }),
      params,
    );
  });
});

describe('line diff', () => {
  it('its hunks turn a into b, keep the lines between them equal, and never touch each other', () => {
    fc.assert(
      fc.property(relatedLinesArb, fc.array(lineArb, { maxLength: 10 }), ({ base, local }, other) => {
        for (const b of [local, other]) {
          const interner = new LineInterner();
          // Lines without '\n' are whole lines here: join them so each is one line of a text.
          const hunks = diffLines(
            interner.intern(toLines(base.map((x) => x + '\n').join(''))),
            interner.intern(toLines(b.map((x) => x + '\n').join(''))),
          );
          const rebuilt: string[] = [];
          let ai = 0;
          for (const h of hunks) {
            expect(h.aStart).toBeGreaterThanOrEqual(ai);
            expect(h.bStart - rebuilt.length).toBe(h.aStart - ai);
            rebuilt.push(...base.slice(ai, h.aStart), ...b.slice(h.bStart, h.bEnd));
            ai = h.aEnd;
          }
          rebuilt.push(...base.slice(ai));
          expect(rebuilt).toEqual(b);
          for (let i = 1; i < hunks.length; i++) expect(hunks[i]!.aStart).toBeGreaterThan(hunks[i - 1]!.aEnd);
        }
      }),
      params,
    );
  });
});

/** The result with this computer and the cloud swapped, for comparing a merge with its mirror. */
function mirrored(r: NoteMergeResult): { kind: string; content?: unknown; reasons?: string[] } {
  switch (r.kind) {
    case 'take-local':
      return { kind: 'take-cloud', content: r.content };
    case 'take-cloud':
      return { kind: 'take-local', content: r.content };
    case 'conflict':
      return { kind: 'conflict', reasons: r.reasons };
    default:
      return { kind: r.kind, content: r.content };
  }
}

describe('mergeNote properties', () => {
  it('a change on one side only is that side; no change at all is unchanged', () => {
    fc.assert(
      fc.property(relatedNotesArb, ({ base, local }) => {
        const one = mergeNote(base, local, base);
        if (sameContent(base, local)) expect(one.kind).toBe('unchanged');
        else {
          expect(one.kind).toBe('take-local');
          if (one.kind === 'take-local') expect(sameContent(one.content, local)).toBe(true);
        }
        const other = mergeNote(base, base, local);
        if (!sameContent(base, local))
          expect(other.kind === 'take-cloud' && sameContent(other.content, local)).toBe(true);
      }),
      params,
    );
  });

  it('the same change on both sides is unchanged, with the baseline marked stale', () => {
    fc.assert(
      fc.property(relatedNotesArb, ({ base, local }) => {
        const r = mergeNote(
          base,
          local,
          local === null ? null : { ...local, tags: [...local.tags].reverse() },
        );
        expect(r.kind).toBe('unchanged');
        expect(r.kind === 'unchanged' && r.baseChanged).toBe(!sameContent(base, local));
      }),
      params,
    );
  });

  it('swapping this computer and the cloud mirrors the result', () => {
    fc.assert(
      fc.property(relatedNotesArb, ({ base, local, cloud }) => {
        const ab = mirrored(mergeNote(base, local, cloud));
        const ba = mergeNote(base, cloud, local);
        expect(ba.kind).toBe(ab.kind);
        if (ba.kind === 'conflict') expect(ba.reasons).toEqual(ab.reasons);
        else expect(sameContent(ba.content, ab.content as never)).toBe(true);
      }),
      params,
    );
  });

  it('never drops an edit: an edited side is never replaced by a delete', () => {
    fc.assert(
      fc.property(relatedNotesArb, ({ base, local, cloud }) => {
        const r = mergeNote(base, local, cloud);
        const edited = (side: typeof local) => side !== null && !sameContent(base, side);
        if (edited(local) || edited(cloud)) expect(r.kind !== 'conflict' && r.content === null).toBe(false);
      }),
      params,
    );
  });
});
