import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeText } from '../../electron/sync/merge/index.js';
import { planRound } from '../../electron/sync/round/plan.js';
import { planInput, version, type Sides, type Version } from './fixtures.js';

// Fixed seed: a failure replays exactly; fast-check prints the counterexample and the seed.
const params = { seed: 20261130, numRuns: 300 };

/** Per id a small family of versions: the base, two edits that merge, one that conflicts. */
function family(id: string): Version[] {
  return [
    version(id, 'one\ntwo\nthree\n'),
    version(id, 'ONE\ntwo\nthree\n'),
    version(id, 'one\ntwo\nTHREE\n'),
    version(id, 'uno\ntwo\nthree\n'),
  ];
}

const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
const families = new Map(ids.map((id) => [id, family(id)]));

/** One note's sides: each of L, B, C absent or one version of the family; C may be a tombstone. */
const sidesArb = (id: string): fc.Arbitrary<Sides> => {
  const f = families.get(id)!;
  const v = fc.option(fc.constantFrom(...f), { nil: undefined });
  return fc
    .record({
      L: v,
      B: v,
      C: fc.oneof(v, fc.constant(null)),
      baseCopyMissing: fc.boolean(),
      cloudBodyMissing: fc.boolean(),
    })
    .map((s) => ({
      ...s,
      cloudBodyMissing: s.cloudBodyMissing && s.C !== undefined && s.C !== null && s.C !== s.L,
    }));
};

const notesArb = fc
  .subarray(ids, { minLength: 1 })
  .chain((chosen) => fc.record(Object.fromEntries(chosen.map((id) => [id, sidesArb(id)]))));

describe('planRound properties', () => {
  it('is deterministic and does not touch its input', () => {
    fc.assert(
      fc.property(notesArb, (notes) => {
        const input = planInput(notes);
        const frozen = JSON.stringify({ ...input, locals: [...input.locals.keys()] });
        const base = JSON.stringify(input.baseline.base);
        expect(JSON.stringify(planRound(input))).toBe(JSON.stringify(planRound(input)));
        expect(JSON.stringify({ ...input, locals: [...input.locals.keys()] })).toBe(frozen);
        expect(JSON.stringify(input.baseline.base)).toBe(base);
      }),
      params,
    );
  });

  it('each note gets at most one action: a push, a pull or a conflict', () => {
    fc.assert(
      fc.property(notesArb, (notes) => {
        const plan = planRound(planInput(notes));
        const touched = [
          ...plan.pushes.map((p) => p.id),
          ...plan.pulls.map((p) => p.id),
          ...Object.keys(plan.conflicts),
        ];
        expect(new Set(touched).size).toBe(touched.length);
      }),
      params,
    );
  });

  it('nothing moves for a note both sides agree on', () => {
    fc.assert(
      fc.property(notesArb, (notes) => {
        const plan = planRound(planInput(notes));
        for (const [id, s] of Object.entries(notes)) {
          if ((s.L?.hash ?? null) !== (s.C === undefined ? null : (s.C?.hash ?? null))) continue;
          expect(plan.pushes.some((p) => p.id === id) || plan.pulls.some((p) => p.id === id)).toBe(false);
          expect(plan.conflicts[id]).toBeUndefined();
        }
      }),
      params,
    );
  });

  it('an edit made here is never deleted or replaced by a pull', () => {
    fc.assert(
      fc.property(notesArb, (notes) => {
        const plan = planRound(planInput(notes));
        for (const p of plan.pulls) {
          const s = notes[p.id]!;
          if (p.localHash === null) continue;
          // A pull deletes only the version last synced, and replaces an edit only with a version
          // that already holds it (merging this computer's edit into it changes nothing).
          if (p.note === null) expect(p.localHash).toBe(s.B?.hash);
          else if (p.localHash !== s.B?.hash)
            expect(mergeText(s.B?.note.body ?? '', s.L!.note.body, p.note.body)).toEqual({
              clean: true,
              text: p.note.body,
            });
        }
      }),
      params,
    );
  });

  it('a push builds on the cloud’s current hash; a conflict needs both sides changed', () => {
    fc.assert(
      fc.property(notesArb, (notes) => {
        const plan = planRound(planInput(notes));
        for (const p of plan.pushes) {
          const C = notes[p.id]!.C;
          expect(p.cloudHash).toBe(C === undefined ? null : (C?.hash ?? null));
        }
        for (const c of Object.values(plan.conflicts)) {
          const s = notes[c.id]!;
          expect(s.L?.hash ?? null).not.toBe(s.B?.hash ?? null);
        }
      }),
      params,
    );
  });

  it('swapping which side is here and which is the cloud mirrors pushes and pulls', () => {
    fc.assert(
      fc.property(notesArb, (notes) => {
        // Only notes present on both sides with a copy of the base (no tombstones, no missing bodies).
        const clean: Record<string, Sides> = {};
        for (const [id, s] of Object.entries(notes))
          if (s.L && s.C && s.B) clean[id] = { L: s.L, B: s.B, C: s.C };
        const mirrored: Record<string, Sides> = {};
        for (const [id, s] of Object.entries(clean)) mirrored[id] = { L: s.C!, B: s.B, C: s.L };
        const a = planRound(planInput(clean));
        const b = planRound(planInput(mirrored));
        expect(a.pushes.filter((p) => !p.writeLocally).map((p) => p.id)).toEqual(b.pulls.map((p) => p.id));
        expect(a.pulls.map((p) => p.id)).toEqual(b.pushes.filter((p) => !p.writeLocally).map((p) => p.id));
        expect(Object.keys(a.conflicts).sort()).toEqual(Object.keys(b.conflicts).sort());
      }),
      params,
    );
  });
});
