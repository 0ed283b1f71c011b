import { describe, expect, it } from 'vitest';
import { planRound } from '../../electron/sync/round/plan.js';
import { limits, planInput, version, type Sides } from './fixtures.js';

const v0 = version('n', 'one\ntwo\nthree\n');
const vL = version('n', 'ONE\ntwo\nthree\n'); // line 1 edited here
const vC = version('n', 'one\ntwo\nTHREE\n'); // line 3 edited in the cloud (merges with vL)
const vX = version('n', 'uno\ntwo\nthree\n'); // line 1 edited differently (conflicts with vL)

type Expect = {
  push?: { hash: string | null; cloudHash: string | null; create?: boolean; merged?: boolean };
  pull?: { cloudHash: string | null; reason: 'pull' | 'tombstone' | 'gone' };
  conflict?: string;
  base?: string | null;
  missingBodies?: boolean;
  notice?: RegExp;
};

const cases: Array<[string, Sides, Expect]> = [
  ['unchanged everywhere', { L: v0, B: v0, C: v0 }, { base: v0.hash }],
  ['both made the same change', { L: vL, B: v0, C: vL }, { base: vL.hash }],
  ['new on both sides, identical', { L: v0, C: v0 }, { base: v0.hash }],
  [
    'only the cloud changed → pull',
    { L: v0, B: v0, C: vC },
    { pull: { cloudHash: vC.hash, reason: 'pull' } },
  ],
  [
    'deleted in the cloud → delete here',
    { L: v0, B: v0, C: null },
    { pull: { cloudHash: null, reason: 'tombstone' } },
  ],
  ['new in the cloud → pull', { C: vC }, { pull: { cloudHash: vC.hash, reason: 'pull' } }],
  [
    'only here changed → push on the cloud hash',
    { L: vL, B: v0, C: v0 },
    { push: { hash: vL.hash, cloudHash: v0.hash } },
  ],
  ['deleted here → push a delete', { B: v0, C: v0 }, { push: { hash: null, cloudHash: v0.hash } }],
  ['new here → push a create', { L: vL }, { push: { hash: vL.hash, cloudHash: null, create: true } }],
  [
    'tombstone expired, unchanged here → delete here',
    { L: v0, B: v0 },
    { pull: { cloudHash: null, reason: 'gone' } },
  ],
  ['tombstone expired, edited here → conflict', { L: vL, B: v0 }, { conflict: 'expired_tombstone' }],
  [
    'both changed, apart → merged, pushed, written here',
    { L: vL, B: v0, C: vC },
    { push: { hash: version('n', 'ONE\ntwo\nTHREE\n').hash, cloudHash: vC.hash, merged: true } },
  ],
  ['both changed, same line → conflict', { L: vL, B: v0, C: vX }, { conflict: 'both_changed' }],
  [
    'both changed, no baseline copy → conflict',
    { L: vL, B: v0, C: vC, baseCopyMissing: true },
    { conflict: 'no_base' },
  ],
  ['both created differently → conflict', { L: vL, C: vX }, { conflict: 'no_base' }],
  [
    'edited here, deleted in the cloud → the edit wins (push)',
    { L: vL, B: v0, C: null },
    { push: { hash: vL.hash, cloudHash: null } },
  ],
  [
    'deleted here, edited in the cloud → the edit wins (pull)',
    { B: v0, C: vC },
    { pull: { cloudHash: vC.hash, reason: 'pull' } },
  ],
  [
    'the cloud’s body is missing → list in full next time',
    { L: v0, B: v0, C: vC, cloudBodyMissing: true },
    { missingBodies: true },
  ],
];

describe('planRound: one note, every case of here / baseline / cloud', () => {
  for (const [name, sides, want] of cases) {
    it(name, () => {
      const plan = planRound(planInput({ n: sides }));
      const push = plan.pushes.find((p) => p.id === 'n');
      const pull = plan.pulls.find((p) => p.id === 'n');
      expect(push ? { hash: push.hash, cloudHash: push.cloudHash } : undefined).toEqual(
        want.push ? { hash: want.push.hash, cloudHash: want.push.cloudHash } : undefined,
      );
      if (want.push?.create !== undefined) expect(push?.create).toBe(want.push.create);
      if (want.push) expect(push?.writeLocally !== null).toBe(want.push.merged ?? false);
      expect(pull ? { cloudHash: pull.cloudHash, reason: pull.reason } : undefined).toEqual(want.pull);
      expect(plan.conflicts.n?.kind).toBe(want.conflict);
      if (want.base !== undefined) expect(plan.base.n ?? null).toBe(want.base);
      expect(plan.missingBodies).toBe(want.missingBodies ?? false);
      expect(plan.backups).toHaveLength(want.push?.merged ? 2 : 0);
    });
  }

  it('a clean merge backs up both versions and keeps the version it pushed from', () => {
    const plan = planRound(planInput({ n: { L: vL, B: v0, C: vC } }));
    expect(plan.backups.map((b) => b.reason)).toEqual([
      'sync: before merging with the cloud’s version (this computer’s version)',
      'sync: before merging with this computer’s version (the cloud’s version)',
    ]);
    expect(plan.objects.map((o) => o.hash)).toContain(vL.hash);
  });

  it('a conflict found again keeps its record (and the time it was first seen)', () => {
    const first = planRound(planInput({ n: { L: vL, B: v0, C: vX } }));
    const again = planRound({
      ...planInput({ n: { L: vL, B: v0, C: vX } }, { now: 99_999 }),
      baseline: { ...planInput({ n: { L: vL, B: v0, C: vX } }).baseline, conflicts: first.conflicts },
    });
    expect(again.conflicts.n).toBe(first.conflicts.n);
  });
});

describe('planRound: a file on disk but not loaded is held, never a deletion', () => {
  const reasons = [
    'unreadable',
    'too_large',
    'case_twin',
    'over_note_limit',
    'symlink',
    'invalid_id',
  ] as const;
  for (const reason of reasons) {
    it(`${reason}: no delete is pushed, the cloud's edit is not pulled over it, the baseline stays`, () => {
      const plan = planRound(
        planInput({
          n: { B: v0, C: v0, held: reason },
          m: { B: vC, C: vX, held: reason },
          k: { C: vC, held: reason },
        }),
      );
      expect(plan.pushes).toEqual([]);
      expect(plan.pulls).toEqual([]);
      expect(plan.conflicts).toEqual({});
      expect(plan.heldIds).toEqual(['k', 'm', 'n']);
      expect(plan.base).toEqual({ n: v0.hash, m: vC.hash });
    });
  }

  it('the same note, truly absent (deleted here), pushes its delete', () => {
    const plan = planRound(planInput({ n: { B: v0, C: v0 } }));
    expect(plan.pushes.map((p) => [p.id, p.hash])).toEqual([['n', null]]);
  });

  it('a held case twin does not stop its loaded twin from syncing', () => {
    const loaded = version('Foo', 'mine\n');
    const plan = planRound(
      planInput({
        Foo: { L: loaded, B: version('Foo', 'old\n'), C: version('Foo', 'old\n') },
        foo: { held: 'case_twin' },
      }),
    );
    expect(plan.pushes.map((p) => p.id)).toEqual(['Foo']);
  });
});

describe('planRound: content is not identity', () => {
  it('a cloud note with the same content as another note here (no body sent) is pulled as itself', () => {
    const x = version('x', 'template\n', 'same');
    const y = version('y', 'template\n', 'same');
    expect(y.hash).toBe(x.hash);
    const plan = planRound(planInput({ x: { L: x, B: x, C: x }, y: { C: y, cloudBodyMissing: true } }));
    expect(plan.pulls.map((p) => [p.id, p.note?.id, p.cloudHash])).toEqual([['y', 'y', y.hash]]);
    expect(plan.notices).toEqual([]);
  });

  it('twins in one snapshot keep their own files', () => {
    const x = version('x', 'template\n', 'same');
    const y = version('y', 'template\n', 'same');
    const plan = planRound(planInput({ x: { C: x }, y: { C: y } }));
    expect(plan.pulls.map((p) => [p.id, p.content])).toEqual([
      ['x', x.text],
      ['y', y.text],
    ]);
  });
});

describe('planRound: what stays here, and why', () => {
  it('a cloud note whose id differs only in case from one here is not written', () => {
    const here = version('Readme', 'mine\n');
    const cloud = version('readme', 'theirs\n');
    const plan = planRound(planInput({ Readme: { L: here }, readme: { C: cloud } }));
    expect(plan.pulls).toEqual([]);
    expect(plan.notices.join('\n')).toMatch(
      /"readme" from the cloud is not written here: "Readme" differs only in case/,
    );
  });

  it('a new note whose id differs only in case from a cloud note is not uploaded', () => {
    const here = version('Readme', 'mine\n');
    const cloud = version('readme', 'theirs\n');
    const plan = planRound(
      planInput({ Readme: { L: here, C: undefined }, readme: { L: cloud, C: cloud, B: cloud } }),
    );
    expect(plan.pushes).toEqual([]);
    expect(plan.notices.join('\n')).toMatch(/"Readme" is not uploaded: the cloud has "readme"/);
  });

  it('a note over the plan’s size stays here with a notice', () => {
    const big = version('big', 'x'.repeat(400) + '\n');
    const plan = planRound(planInput({ big: { L: big } }, { limits: limits('free', 10, 300) }));
    expect(plan.pushes).toEqual([]);
    expect(plan.notices.join('\n')).toMatch(
      /"big" is larger than the sync plan allows \(401 bytes of body, at most 300\)/,
    );
  });

  it('size is one measure on both sides: bytes of body (the frontmatter is not counted)', () => {
    const edge = version('edge', 'x'.repeat(299) + '\n', 's'.repeat(200)); // 300 bytes of body, a long summary
    const over = version('over', 'x'.repeat(300) + '\n');
    const plan = planRound(
      planInput({ edge: { L: edge }, over: { L: over } }, { limits: limits('free', 10, 300) }),
    );
    expect(plan.pushes.map((p) => p.id)).toEqual(['edge']);
    expect(plan.localOnly).toEqual([
      {
        id: 'over',
        reason: 'too_large',
        message:
          'Your own notes: "over" is larger than the sync plan allows (301 bytes of body, at most 300); it stays on this computer only',
      },
    ]);
  });

  it('each note that stays here is listed with its reason', () => {
    const notes: Record<string, Sides> = {
      big: { L: version('big', 'x'.repeat(400) + '\n') },
      Readme: { L: version('Readme', 'mine\n') },
      readme: { L: version('readme', 'c\n'), B: version('readme', 'c\n'), C: version('readme', 'c\n') },
      new1: { L: version('new1', 'n\n') },
      new2: { L: version('new2', 'n\n') },
    };
    const plan = planRound(planInput(notes, { limits: limits('free', 2, 300) }));
    expect(plan.localOnly.map((l) => [l.id, l.reason])).toEqual([
      ['Readme', 'case_clash'],
      ['big', 'too_large'],
      ['new2', 'plan_note_count'],
    ]);
  });

  it('new notes beyond the free plan’s count stay here; edits and deletes still go', () => {
    const notes: Record<string, Sides> = {};
    for (const id of ['a', 'b', 'c'])
      notes[id] = { L: version(id, 'x\n'), B: version(id, 'x\n'), C: version(id, 'x\n') };
    notes.a = { L: version('a', 'edited\n'), B: version('a', 'x\n'), C: version('a', 'x\n') };
    notes.c = { B: version('c', 'x\n'), C: version('c', 'x\n') };
    for (const id of ['d', 'e']) notes[id] = { L: version(id, 'new\n') };
    const plan = planRound(planInput(notes, { limits: limits('free', 4, null) }));
    expect(plan.pushes.map((p) => p.id).sort()).toEqual(['a', 'c', 'd']);
    expect(plan.notices.join('\n')).toMatch(/free plan syncs up to 4 notes here; 1 new note\(s\) stay/);
  });

  it('an old server (protocol 1): typed notes stay here', () => {
    const typed = version('t', 'x\n');
    typed.note.type = 'project';
    const plan = planRound(planInput({ t: { L: typed } }, { typedBlocked: true }));
    expect(plan.pushes).toEqual([]);
    expect(plan.notices.join('\n')).toMatch(/"t" has a type/);
  });
});

describe('planRound: the mass-delete fail-safe', () => {
  const many = (): Record<string, Sides> => {
    const notes: Record<string, Sides> = {};
    for (let i = 0; i < 20; i++) {
      const v = version(`n${i}`, `body ${i}\n`);
      notes[`n${i}`] = { L: v, B: v, C: i < 12 ? null : v };
    }
    return notes;
  };

  it('12 of 20 deleted in the cloud: nothing deleted, the question is asked', () => {
    const plan = planRound(planInput(many()));
    expect(plan.pulls).toEqual([]);
    expect(plan.pendingDeletes).toEqual({
      ids: [...Array(12).keys()].map((i) => `n${i}`).sort(),
      localIds: [],
      total: 20,
    });
  });

  it('answered "delete": the deletes are pulled', () => {
    const plan = planRound(planInput(many(), { deleteDecision: 'delete' }));
    expect(plan.pulls.filter((p) => p.note === null)).toHaveLength(12);
    expect(plan.pendingDeletes).toBeNull();
  });

  it('answered "keep": uploaded again as new notes, nothing deleted', () => {
    const plan = planRound(planInput(many(), { deleteDecision: 'keep' }));
    expect(plan.pulls).toEqual([]);
    expect(plan.pushes.filter((p) => p.create)).toHaveLength(12);
    expect(plan.pendingDeletes).toBeNull();
    for (let i = 0; i < 12; i++) expect(plan.base[`n${i}`]).toBeUndefined();
  });

  it('10 deletions never ask (the minimum)', () => {
    const notes = many();
    notes.n10!.C = notes.n10!.L;
    notes.n11!.C = notes.n11!.L;
    const plan = planRound(planInput(notes));
    expect(plan.pendingDeletes).toBeNull();
    expect(plan.pulls).toHaveLength(10);
  });

  it('counts over the window: 6 more after 6 already deleted since the last confirmed state asks', () => {
    const notes = many();
    for (let i = 6; i < 12; i++) notes[`n${i}`]!.C = notes[`n${i}`]!.L;
    const first = planRound(planInput(notes));
    expect(first.pendingDeletes).toBeNull();
    expect(first.deleteWindow).toEqual({ total: 20, deleted: 0 });
    const second = planRound(planInput(notes, { deleteWindow: { total: 20, deleted: 6 } }));
    expect(second.pulls).toEqual([]);
    expect(second.pendingDeletes?.ids).toHaveLength(6);
  });

  it('deletions pushed count too: 12 of 20 files gone here ask, and "keep" writes them back', () => {
    const notes: Record<string, Sides> = {};
    for (let i = 0; i < 20; i++) {
      const v = version(`n${i}`, `body ${i}\n`);
      notes[`n${i}`] = i < 12 ? { B: v, C: v } : { L: v, B: v, C: v };
    }
    const asked = planRound(planInput(notes));
    expect(asked.pushes).toEqual([]);
    expect(asked.pendingDeletes).toEqual({
      ids: [],
      localIds: [...Array(12).keys()].map((i) => `n${i}`).sort(),
      total: 20,
    });
    const kept = planRound(planInput(notes, { deleteDecision: 'keep' }));
    expect(kept.pushes).toEqual([]);
    expect(kept.pulls.map((p) => [p.id, p.note?.body])).toHaveLength(12);
    expect(kept.pulls.every((p) => p.note !== null && p.localHash === null)).toBe(true);
    const confirmed = planRound(planInput(notes, { deleteDecision: 'delete' }));
    expect(confirmed.pushes.filter((p) => p.hash === null)).toHaveLength(12);
  });
});
