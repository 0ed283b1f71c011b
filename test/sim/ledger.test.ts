import { describe, expect, it } from 'vitest';
import { Ledger, type Version } from './ledger.js';

/** The simulation's oracle fails where it must: each failure class on a small, hand-made history. */
const note = (body: string[], summary = 's', tags: string[] = []): Version => ({
  summary,
  tags,
  body: body.map((l) => `${l}\n`).join(''),
});
const nowhere = (): null => null;
const check = (
  ledger: Ledger,
  live: Record<string, Version>,
  elsewhere: (m: string) => string | null = nowhere,
) => ledger.check(new Map(Object.entries(live)), elsewhere).sort();

describe('the simulation ledger', () => {
  it('matches markers as whole tokens: line-7-1 is not found inside line-7-10', () => {
    const ledger = new Ledger(7);
    const markers = Array.from({ length: 10 }, () => ledger.marker('line'));
    ledger.edited(0, 'a', null, note(markers), 'create');
    expect(check(ledger, { a: note(markers) })).toEqual([]);
    expect(check(ledger, { a: note(markers.slice(1)) })).toEqual([
      '"line-7-1" of "a" (create) is lost: in no note and no backup',
    ]);
  });

  it('an edit that survives only in a backup is a silent revert', () => {
    const ledger = new Ledger(1);
    const m = ledger.marker('line');
    ledger.edited(0, 'a', null, note([m]), 'create');
    const sum = ledger.marker('sum');
    ledger.edited(0, 'a', note([m]), note([m], `s ${sum}`), 'summary');
    expect(check(ledger, { a: note([m]) }, (x) => (x === sum ? 'a backup on device 1' : null))).toEqual([
      `"${sum}" of "a" (summary) was silently reverted: it survives only in a backup on device 1`,
    ]);
  });

  // Soak seed 685: an agent removed a foreign key on one device while the note was deleted on another.
  it('an edit that only removed something, made where the deleting person had not seen it, beats the delete too', () => {
    const ledger = new Ledger(1);
    const m1 = ledger.marker('line');
    const m2 = ledger.marker('line');
    ledger.edited(0, 'a', null, note([m1, m2]), 'create');
    ledger.edited(1, 'a', note([m1, m2]), note([m1]), 'remove on 1');
    ledger.edited(0, 'a', note([m1, m2]), null, 'delete on 0');
    expect(check(ledger, { a: note([m1]) })).toEqual([]);
    // Back with the removed line as well: that is not the edit that beat the delete.
    expect(check(ledger, { a: note([m1, m2]) })).not.toEqual([]);
  });

  // Soak seeds 180, 350: two devices resolved the same conflict at once, in opposite ways.
  it('a copy set aside by a resolution does not outrank another device’s person keeping it meanwhile', () => {
    const ledger = new Ledger(1);
    const m1 = ledger.marker('line');
    const m2 = ledger.marker('line');
    ledger.edited(0, 'a', null, note([m2]), 'create on 0');
    // Device 1 keeps its copy (m1) over the cloud's (m2); device 2, not having seen that, takes the cloud's.
    ledger.resolved(1, 'a', { local: note([m1]), cloud: note([m2]) }, note([m1]), 'resolution on 1 → local');
    ledger.resolved(2, 'a', { local: note([m1]), cloud: note([m2]) }, note([m2]), 'resolution on 2 → cloud');
    expect(check(ledger, { a: note([m1]) })).toEqual([]);
  });

  // Soak seed 43822: the cloud restored to an older version; three devices asked at once.
  it('a copy kept on one device while two others set it aside, none seeing the others: either stands', () => {
    const history = (resolutions: Array<[number, 'local' | 'cloud']>) => {
      const ledger = new Ledger(1);
      const [p, q] = [ledger.marker('line'), ledger.marker('line')];
      ledger.edited(0, 'a', null, note([p]), 'create on 0');
      ledger.edited(2, 'a', note([p]), note([q]), 'edit on 2');
      // The cloud lost the edit: every device is shown its [q] against the cloud's [p].
      const sides = { local: note([q]), cloud: note([p]) };
      for (const [device, keep] of resolutions)
        ledger.resolved(
          device,
          'a',
          sides,
          keep === 'local' ? note([q]) : note([p]),
          `resolution on ${device} → ${keep}`,
        );
      return { ledger, q };
    };
    const three = history([
      [0, 'local'],
      [1, 'cloud'],
      [2, 'cloud'],
    ]);
    expect(check(three.ledger, { a: note([three.q]) })).toEqual([]);
    // The keeping device's own person set it aside after: that stands.
    const changed = history([
      [0, 'local'],
      [0, 'cloud'],
      [2, 'cloud'],
    ]);
    expect(check(changed.ledger, { a: note([changed.q]) })).toContain(
      `"${changed.q}" of "a" was removed by a person (resolution on 2 → cloud) and came back`,
    );
  });

  it('tags are tracked: a tag removed by a person must stay removed', () => {
    const ledger = new Ledger(1);
    const m = ledger.marker('line');
    const tag = ledger.marker('tag');
    ledger.edited(0, 'a', null, note([m], 's', [tag]), 'create');
    ledger.edited(0, 'a', note([m], 's', [tag]), note([m]), 'untag');
    expect(check(ledger, { a: note([m]) })).toEqual([]);
    expect(check(ledger, { a: note([m], 's', [tag]) })).toEqual([
      `"${tag}" of "a" was removed by a person (untag) and came back`,
    ]);
  });

  it('a deleted note stays deleted unless an edit the deleting person had not seen beat the delete', () => {
    const ledger = new Ledger(1);
    const m1 = ledger.marker('line');
    ledger.edited(0, 'a', null, note([m1]), 'create');
    ledger.edited(0, 'a', note([m1]), null, 'delete on 0');
    expect(check(ledger, { a: note([m1]) })).toEqual(
      [
        '"line-1-1" of "a" was removed by a person (delete on 0) and came back',
        'the note "a" was removed by a person (delete on 0) and came back',
      ].sort(),
    );
    // Device 1 had not seen the delete and edited: the edit wins, the whole note is back.
    const m2 = ledger.marker('line');
    ledger.edited(0, 'a', note([m1]), note([m1, m2]), 'edit on 1');
    expect(check(ledger, { a: note([m1, m2]) })).toEqual([]);
  });

  it('another device removing unseen what the deleting person removed too is an edit that beats the delete (seed 136565)', () => {
    const ledger = new Ledger(1);
    const [m, tag] = [ledger.marker('line'), ledger.marker('tag')];
    ledger.edited(1, 'a', null, note([m], 's', [tag]), 'create on 1');
    ledger.edited(0, 'a', note([m], 's', [tag]), note([m]), 'untag on 0'); // not seen on 1
    ledger.edited(1, 'a', note([m], 's', [tag]), note([m]), 'untag on 1');
    ledger.edited(1, 'a', note([m]), null, 'delete on 1');
    // Device 1's engine holds the synced version and the delete: 0's removal is an edit it never saw.
    expect(check(ledger, { a: note([m]) })).toEqual([]);
    expect(check(ledger, {})).toEqual([]);
    // The tag itself stays removed.
    expect(check(ledger, { a: note([m], 's', [tag]) })).toContain(
      `"${tag}" of "a" was removed by a person (untag on 1) and came back`,
    );
  });

  it('a note deleted after edits: an edit the deleting person had not seen brings back what those edits removed', () => {
    const ledger = new Ledger(1);
    const [m1, m2, m3] = [ledger.marker('line'), ledger.marker('line'), ledger.marker('line')];
    ledger.edited(0, 'a', null, note([m1]), 'create');
    ledger.edited(0, 'a', note([m1]), note([m2]), 'edit on 0'); // not synced: then deleted on 0
    ledger.edited(0, 'a', note([m2]), null, 'delete on 0');
    ledger.edited(0, 'a', note([m1]), note([m1, m3]), 'edit on 1');
    expect(check(ledger, { a: note([m1, m3]) })).toEqual([]);
    // Without an edit the deleting person had not seen, the removal holds.
    expect(check(ledger, { a: note([m1]) })).toContain(
      `"${m1}" of "a" was removed by a person (edit on 0) and came back`,
    );
  });

  it('taking the cloud side gives up a note created here under the same id: a concurrent delete of the cloud one holds', () => {
    const ledger = new Ledger(1);
    const [theirs, mine] = [ledger.marker('line'), ledger.marker('line')];
    ledger.edited(2, 'a', null, note([theirs]), 'create on 2');
    ledger.edited(2, 'a', note([theirs]), null, 'delete on 2'); // not synced yet
    ledger.edited(0, 'a', null, note([mine]), 'create on 0');
    ledger.resolved(
      0,
      'a',
      { local: note([mine]), cloud: note([theirs]) },
      note([theirs]),
      'take cloud on 0',
      true,
    );
  });

  it('taking the cloud side never withdraws the only creation of a note (its own push came back changed)', () => {
    const ledger = new Ledger(1);
    const [mine, theirs] = [ledger.marker('line'), ledger.marker('line')];
    ledger.edited(0, 'a', null, note([mine]), 'create on 0');
    ledger.edited(2, 'a', note([mine]), note([theirs]), 'edit on 2');
    ledger.resolved(
      0,
      'a',
      { local: note([mine]), cloud: note([theirs]) },
      note([theirs]),
      'take cloud on 0',
      true,
    );
    expect(check(ledger, { a: note([theirs]) })).toEqual([]);
  });

  it('a merge by hand keeps what the cloud had; a removal the person never saw still applies', () => {
    const ledger = new Ledger(1);
    const [tag, mine, theirs] = [ledger.marker('tag'), ledger.marker('line'), ledger.marker('line')];
    ledger.edited(1, 'a', null, note([theirs], 's', [tag]), 'create on 1');
    ledger.edited(0, 'a', null, note([mine]), 'create on 0');
    ledger.edited(1, 'a', note([theirs], 's', [tag]), note([theirs]), 'untag on 1'); // not synced yet
    const merged = note([mine, theirs], 's', [tag]);
    ledger.resolved(
      0,
      'a',
      { local: note([mine]), cloud: note([theirs], 's', [tag]) },
      merged,
      'merge on 0',
      true,
    );
    expect(check(ledger, { a: note([mine, theirs]) })).toEqual([]);
    expect(check(ledger, { a: note([theirs], 's', [tag]) })).toEqual(
      [
        `"${mine}" of "a" (merge on 0) is lost: in no note and no backup`,
        `"${tag}" of "a" was removed by a person (untag on 1) and came back`,
      ].sort(),
    );
  });

  it('a marker in a note where no person put it is a duplicate; a copy by a person is not', () => {
    const ledger = new Ledger(1);
    const m = ledger.marker('line');
    ledger.edited(0, 'x', null, note([m]), 'create');
    expect(check(ledger, { x: note([m]), y: note([m]) })).toEqual(
      [
        '"line-1-1" is in "y", where no person put it (duplicated)',
        'the note "y" exists, but no person created it',
      ].sort(),
    );
    ledger.edited(0, 'y', null, note([m]), 'cp x.md y.md');
    expect(check(ledger, { x: note([m]), y: note([m]) })).toEqual([]);
  });

  it('a resolution decides what differed between its sides, not what a concurrent edit removed', () => {
    const ledger = new Ledger(1);
    const [base, local, cloud] = [ledger.marker('line'), ledger.marker('line'), ledger.marker('line')];
    ledger.edited(0, 'a', null, note([base]), 'create');
    ledger.edited(0, 'a', note([base]), note([base, local]), 'edit on 0');
    ledger.edited(0, 'a', note([base]), note([base, cloud]), 'edit on 1');
    // Device 2 removes the base line meanwhile; then device 0 keeps its side.
    ledger.edited(2, 'a', note([base]), note([]), 'removal on 2');
    ledger.resolved(
      0,
      'a',
      { local: note([base, local]), cloud: note([base, cloud]) },
      note([base, local]),
      'keep local',
    );
    expect(check(ledger, { a: note([local]) })).toEqual([]);
    expect(check(ledger, { a: note([local, cloud]) })).toEqual([
      `"${cloud}" of "a" was removed by a person (keep local) and came back`,
    ]);
  });

  // Soak seed 31902.
  it('a resolution keeping a note whose deletion an unseen edit had beaten in the cloud decides it present', () => {
    const ledger = new Ledger(1);
    const [m1, m2] = [ledger.marker('line'), ledger.marker('line')];
    ledger.edited(0, 'a', null, note([m1]), 'create');
    ledger.edited(1, 'a', note([m1]), null, 'delete on 1');
    ledger.edited(0, 'a', note([m1]), note([m1, m2]), 'edit on 0'); // unseen by 1: beats the delete
    // Device 2 is shown its copy and the cloud's (the edit) and keeps both: its copy under the id.
    ledger.resolved(2, 'a', { local: note([m1]), cloud: note([m1, m2]) }, note([m1]), 'keep both on 2');
    ledger.edited(2, 'a-cloud', null, note([m1, m2]), 'keep both on 2');
    expect(check(ledger, { a: note([m1]), 'a-cloud': note([m1, m2]) })).toEqual([]);
    // Without the unseen edit in the cloud's side, the delete still applies to what both sides held.
    const other = new Ledger(2);
    const n1 = other.marker('line');
    other.edited(0, 'b', null, note([n1]), 'create');
    other.edited(1, 'b', note([n1]), null, 'delete on 1');
    other.resolved(2, 'b', { local: note([n1]), cloud: note([n1]) }, note([n1]), 'keep local on 2');
    expect(check(other, { b: note([n1]) })).toEqual(
      [
        `"${n1}" of "b" was removed by a person (delete on 1) and came back`,
        'the note "b" was removed by a person (delete on 1) and came back',
      ].sort(),
    );
  });

  // Soak seeds 40732, 41995: the engine uploads a resolution's result as an edit on the cloud's version.
  it('a resolution made after another device’s person deleted the note, on the live version it was shown, beats the delete', () => {
    const ledger = new Ledger(1);
    const [m1, m2] = [ledger.marker('line'), ledger.marker('line')];
    ledger.edited(0, 'a', null, note([m1, m2]), 'create');
    // Device 1's person answers its question by deleting; device 2's, not having seen that, merges
    // by hand: the same markers as the cloud's version, other text.
    ledger.resolved(1, 'a', { local: null, cloud: note([m1, m2]) }, null, 'delete on 1');
    ledger.resolved(2, 'a', { local: note([m1]), cloud: note([m1, m2]) }, note([m2, m1]), 'merged on 2');
    expect(check(ledger, { a: note([m2, m1]) })).toEqual([]);
    // A result equal to the cloud's version uploads nothing: the delete holds.
    const other = new Ledger(2);
    const n1 = other.marker('line');
    other.edited(0, 'b', null, note([n1]), 'create');
    other.resolved(1, 'b', { local: null, cloud: note([n1]) }, null, 'delete on 1');
    other.resolved(2, 'b', { local: note([]), cloud: note([n1]) }, note([n1]), 'cloud on 2');
    expect(check(other, { b: note([n1]) })).toHaveLength(2);
  });

  // Soak seed 40984: keep-this-computer's dropped lines of the cloud's version, then a delete that had not seen it.
  it('a resolution that drops what the cloud’s version held is an edit that removed it: it beats a delete that still held it', () => {
    const ledger = new Ledger(1);
    const [m1, m2] = [ledger.marker('line'), ledger.marker('line')];
    ledger.edited(0, 'a', null, note([m1, m2]), 'create');
    ledger.resolved(1, 'a', { local: note([m1]), cloud: note([m1, m2]) }, note([m1]), 'local on 1');
    ledger.resolved(2, 'a', { local: null, cloud: note([m1, m2]) }, null, 'delete on 2');
    expect(check(ledger, { a: note([m1]) })).toEqual([]);
    // Back with the dropped line as well: not the edit that beat the delete.
    expect(check(ledger, { a: note([m1, m2]) })).not.toEqual([]);
  });

  // Soak seed 42263.
  it('an unseen edit that beat a delete, then removed again by a later edit: the note lives on without it', () => {
    const ledger = new Ledger(1);
    const [m1, key] = [ledger.marker('line'), ledger.marker('key')];
    const withKey = { ...note([m1])!, extra: { k2: key } };
    ledger.edited(0, 'a', null, note([m1]), 'create');
    ledger.edited(0, 'a', note([m1]), null, 'delete on 0');
    ledger.edited(1, 'a', note([m1]), withKey, 'add key on 1'); // unseen by 0: beats the delete
    ledger.edited(1, 'a', withKey, note([m1]), 'remove key on 1');
    expect(check(ledger, { a: note([m1]) })).toEqual([]);
    // The key removed before the delete (the deleting person's version never had it): the delete holds.
    const other = new Ledger(2);
    const [n1, k] = [other.marker('line'), other.marker('key')];
    const keyed = { ...note([n1])!, extra: { k2: k } };
    other.edited(0, 'b', null, note([n1]), 'create');
    other.edited(1, 'b', note([n1]), keyed, 'add key on 1');
    other.edited(1, 'b', keyed, note([n1]), 'remove key on 1');
    other.edited(0, 'b', note([n1]), null, 'delete on 0');
    expect(check(other, { b: note([n1]) })).toHaveLength(2);
  });

  // Soak seeds 42836, 43862: the person on device 1 removed a line, then deleted the note; device 0,
  // which had created the id too, took the cloud's side — the version device 1 had before its edit.
  it('a person who removed a marker before deleting the note knew it: a resolution keeping an older version does not beat the delete', () => {
    const history = (unseen: boolean) => {
      const ledger = new Ledger(1);
      const [m1, m2, m3, x] = [0, 0, 0, 0].map(() => ledger.marker('line')) as [
        string,
        string,
        string,
        string,
      ];
      ledger.edited(1, 'a', null, note([m1, m2]), 'create on 1');
      // Device 2 adds a line device 1 never sees; the cloud holds that version.
      const cloud = unseen ? note([m1, m2, x]) : note([m1, m2]);
      if (unseen) ledger.edited(2, 'a', note([m1, m2]), cloud, 'edit on 2');
      ledger.edited(1, 'a', note([m1, m2]), note([m2, m3]), 'remove m1 on 1');
      ledger.edited(1, 'a', note([m2, m3]), null, 'delete on 1');
      const own = note([ledger.marker('line')]);
      ledger.edited(0, 'a', null, own, 'create on 0');
      ledger.resolved(0, 'a', { local: own, cloud }, cloud, 'resolution on 0 → cloud', true);
      return ledger;
    };
    // Everything the kept version held, device 1's person had seen: the delete stands.
    expect(check(history(false), {})).toEqual([]);
    // The kept version holds an edit device 1's person never saw: it beat the delete, the note stays.
    expect(check(history(true), {})).not.toEqual([]);
  });

  // Soak seed 45318: devices 0 and 1 each kept their own copy over the cloud's, then each kept the
  // cloud's line in a merge; device 0's withdrawal of its removal was under device 1's removal then.
  it('a person keeping what they had set aside withdraws their removal even under another device’s', () => {
    /** Device 2 writes `m`; devices 0 and 1 each created the id too and keep their own over it. */
    const history = () => {
      const ledger = new Ledger(1);
      const [m, x0, x1] = [0, 0, 0].map(() => ledger.marker('line')) as [string, string, string];
      ledger.edited(2, 'a', null, note([m]), 'create on 2');
      for (const [device, own] of [
        [0, x0],
        [1, x1],
      ] as const) {
        ledger.edited(device, 'a', null, note([own]), `create on ${device}`);
        const sides = { local: note([own]), cloud: note([m]) };
        ledger.resolved(device, 'a', sides, note([own]), `resolution on ${device} → local`, true);
      }
      const merged = (device: 0 | 1) =>
        ledger.resolved(
          device,
          'a',
          { local: note([device === 0 ? x0 : x1]), cloud: note([m]) },
          note([device === 0 ? x0 : x1, m]),
          `resolution on ${device} → merged`,
        );
      return { ledger, merged, live: { a: note([x0, x1, m]) }, m };
    };
    // Both keep it in a merge, device 0 first (its removal under device 1's): nobody's removal stands.
    const both = history();
    both.merged(0);
    both.merged(1);
    expect(check(both.ledger, both.live)).toEqual([]);
    // Only device 0 keeps it: device 1's removal still stands.
    const one = history();
    one.merged(0);
    expect(check(one.ledger, one.live)).toEqual([
      `"${one.m}" of "a" was removed by a person (resolution on 1 → local) and came back`,
    ]);
  });

  // Soak seed 52075: what a person once saw is what they knew, not what their version held when they
  // deleted: a removal they saw happen does not beat their delete.
  it('a delete made seeing another device’s removal is not beaten by that removal', () => {
    const ledger = new Ledger(1);
    const [m, k, x, y] = [0, 0, 0, 0].map(() => ledger.marker('line')) as [string, string, string, string];
    ledger.edited(0, 'a', null, note([m, k]), 'create on 0');
    ledger.edited(1, 'a', note([m, k]), note([m, k, x]), 'edit on 1');
    ledger.edited(1, 'a', note([m, k, x]), null, 'delete on 1');
    ledger.edited(0, 'a', note([m, k]), note([k]), 'remove m on 0');
    ledger.resolved(1, 'a', { local: null, cloud: note([k]) }, null, 'resolution on 1 → local');
    ledger.edited(2, 'a', null, note([y]), 'create on 2');
    ledger.resolved(
      2,
      'a',
      { local: note([y]), cloud: note([k]) },
      note([k]),
      'resolution on 2 → cloud',
      true,
    );
  });

  it('foreign keys are markers too: a key a person added must be there, one removed must stay away', () => {
    const ledger = new Ledger(3);
    const m = ledger.marker('line');
    const key = ledger.marker('key');
    ledger.edited(0, 'a', null, note([m]), 'create');
    ledger.edited(1, 'a', note([m]), { ...note([m])!, extra: { k2: key } }, 'add key');
    expect(check(ledger, { a: note([m]) })).toEqual([
      `"${key}" of "a" (add key) is lost: in no note and no backup`,
    ]);
    ledger.edited(0, 'a', { ...note([m])!, extra: { k2: key } }, note([m]), 'remove key');
    expect(check(ledger, { a: { ...note([m])!, extra: { k2: key } } })).toEqual([
      `"${key}" of "a" was removed by a person (remove key) and came back`,
    ]);
  });

  it('a delete the lost cloud was the only record of: the note may come back or stay deleted, until a person decides again', () => {
    const ledger = new Ledger(4);
    const m = ledger.marker('line');
    ledger.edited(0, 'a', null, note([m]), 'create');
    ledger.edited(0, 'a', note([m]), null, 'delete');
    expect(check(ledger, { a: note([m]) })).toHaveLength(2);
    ledger.mayReturn(1, 'a', note([m]), 'server wiped');
    expect(check(ledger, { a: note([m]) })).toEqual([]);
    ledger.edited(1, 'a', note([m]), null, 'deleted again');
    expect(check(ledger, { a: note([m]) })).toHaveLength(2);
  });

  // Soak seed 47992: the delete was pushed, another device created the id anew, then the server was
  // restored from a backup that still held the deleted version.
  it('a version deleted, the id created anew since: the lost cloud was the only record of that delete too', () => {
    const ledger = new Ledger(4);
    const [m, n] = [ledger.marker('line'), ledger.marker('line')];
    ledger.edited(0, 'a', null, note([m]), 'create on 0');
    ledger.edited(0, 'a', note([m]), null, 'delete on 0');
    ledger.edited(1, 'a', null, note([n]), 'create on 1');
    ledger.mayReturn(-1, 'a', note([m]), 'server restored');
    ledger.resolved(
      1,
      'a',
      { local: note([n]), cloud: note([m]) },
      note([m]),
      'resolution on 1 → cloud',
      true,
    );
    expect(check(ledger, { a: note([m]) })).toEqual([]);
    // A version holding nothing a person deleted may not return "either way": what is present stays so.
    const kept = new Ledger(4);
    const k = kept.marker('line');
    kept.edited(0, 'a', null, note([k]), 'create on 0');
    kept.mayReturn(-1, 'a', note([k]), 'server restored');
    expect(check(kept, {})).toHaveLength(2);
  });

  // Soak seed 99350: device 1's person renamed v away (a delete of the id); device 0's unseen edit (c)
  // beat that delete in the cloud; device 2's person kept their own copy, v exactly, over the cloud's
  // — an upload of the very version device 1's person deleted, neither seeing the other.
  it('keeping this computer’s copy, exactly the version another device deleted unseen, over the edit that beat that delete: either stands', () => {
    const ledger = new Ledger(12);
    const [a, b, c] = [ledger.marker('line'), ledger.marker('line'), ledger.marker('line')];
    const v = note([a, b]);
    ledger.edited(1, 'z', null, v, 'create on 1');
    ledger.edited(0, 'z', null, v, 'pulled on 0');
    ledger.edited(2, 'z', null, v, 'pulled on 2');
    ledger.edited(0, 'z', v, note([a, c, b]), 'edit on 0');
    ledger.edited(1, 'z', v, null, 'renamed away on 1');
    ledger.resolved(2, 'z', { local: v, cloud: note([a, c, b]) }, v, 'resolution on 2 → local');
    expect(check(ledger, {}, () => 'the note "z-renamed"')).toEqual([]);
    expect(check(ledger, { z: v })).toEqual([]);
    // What the result dropped (the edit that beat the delete) stays dropped either way.
    expect(check(ledger, { z: note([a, c, b]) })).toHaveLength(1);
  });

  // Soak seed 115606: device 0's person removed tag t, then deleted the note; device 2's person had
  // added line m (unseen on 0: it beats the delete) and removed t too, then took the cloud's side —
  // the version with t — withdrawing their own removal. Beneath it, device 0's removal was part of
  // the version deleted: given up with the delete that m beat.
  it('a delete covers every removal still in effect, not only the latest one', () => {
    const ledger = new Ledger(13);
    const [l, t, m] = [ledger.marker('line'), ledger.marker('tag'), ledger.marker('line')];
    const v = note([l], 's', [t]);
    const cloud = note([l, m], 's', [t]);
    ledger.edited(0, 'e', null, v, 'create on 0');
    ledger.edited(2, 'e', null, v, 'pulled on 2');
    ledger.edited(2, 'e', v, cloud, 'edit on 2 (reaches the cloud)');
    ledger.edited(0, 'e', v, note([l]), 'tag removed on 0');
    ledger.edited(2, 'e', cloud, note([l, m]), 'tag removed on 2');
    ledger.edited(0, 'e', note([l]), null, 'delete on 0');
    ledger.resolved(2, 'e', { local: note([l, m]), cloud }, cloud, 'resolution on 2 → cloud');
    expect(check(ledger, { e: cloud })).toEqual([]);
  });

  // Soak seed 111139: device 2 deleted v and created the id anew (w) before syncing; device 1's key
  // edit (k, unseen on 2) reached the cloud; device 0's person took the cloud's side (v + k) of a
  // no-base conflict. To sync, w is an edit of v: the merge keeps k and drops what v held.
  it('an id deleted and created anew on one device is an edit of the version deleted', () => {
    const ledger = new Ledger(14);
    const [l, k, own, n] = [1, 2, 3, 4].map(() => ledger.marker('line')) as [string, string, string, string];
    const v = note([l]);
    ledger.edited(2, 'z', null, v, 'create on 2');
    ledger.edited(1, 'z', null, v, 'pulled on 1');
    ledger.edited(1, 'z', v, note([l, k]), 'edit on 1');
    ledger.edited(0, 'z', null, note([own]), 'own copy on 0');
    ledger.edited(2, 'z', v, null, 'delete on 2');
    ledger.edited(2, 'z', null, note([n]), 'created anew on 2');
    ledger.resolved(
      0,
      'z',
      { local: note([own]), cloud: note([l, k]) },
      note([l, k]),
      'resolution on 0 → cloud',
      true,
    );
    expect(check(ledger, { z: note([n, k]) }, () => 'a backup')).toEqual([]);
    // The line the delete removed stays removed: it is an edit's removal now, not a beaten delete's.
    expect(check(ledger, { z: note([l, n, k]) })).toHaveLength(1);
  });

  // Soak seed 119751: device 1 deleted its own copy of "e" (created there apart from device 0's);
  // device 2's edit had removed line l of device 0's note, unseen on 1. Taking the cloud's side,
  // which still held l, decides nothing about l: device 2's removal arrives after and stands.
  it('a delete does not cover a removal of a marker the deleting person never saw', () => {
    const ledger = new Ledger(15);
    const [l, m, k, own] = [1, 2, 3, 4].map(() => ledger.marker('line')) as [string, string, string, string];
    ledger.edited(0, 'e', null, note([l]), 'create on 0');
    ledger.edited(2, 'e', null, note([l]), 'pulled on 2');
    ledger.edited(1, 'e', null, note([own]), 'own copy on 1');
    ledger.edited(2, 'e', note([l]), note([m]), 'edit on 2, offline');
    ledger.edited(1, 'e', note([own]), null, 'delete on 1');
    ledger.edited(0, 'e', note([l]), note([l, k]), 'edit on 0');
    ledger.resolved(1, 'e', { local: null, cloud: note([l, k]) }, note([l, k]), 'resolution on 1 → merged');
    expect(check(ledger, { e: note([m, k]) }, () => 'a backup')).toEqual([]);
  });

  // Soak seed 125166: the cloud was restored to v (without l); device 2's person kept l in a merge
  // against it; device 0, not synced since the restore, removed l from its copy of the lost version
  // w. Its round then planned the note as never synced: a conflict whose sides both lacked l.
  it('a line removed against a version only the lost cloud held may come back or stay removed', () => {
    const ledger = new Ledger(16);
    const [a, l, n] = [ledger.marker('line'), ledger.marker('line'), ledger.marker('line')];
    const [v, w] = [note([a]), note([l, a])];
    ledger.edited(0, 'z', null, v, 'create on 0');
    ledger.edited(0, 'z', v, w, 'edit on 0');
    ledger.resolved(2, 'z', { local: w, cloud: v }, w, 'resolution on 2 → merged');
    ledger.edited(0, 'z', w, note([a, n]), 'edit on 0, not synced since the restore', {
      againstLostHistory: true,
    });
    ledger.resolved(0, 'z', { local: note([a, n]), cloud: v }, note([a, n]), 'resolution on 0 → local');
    expect(check(ledger, { z: note([l, a, n]) })).toEqual([]);
    expect(check(ledger, { z: note([a, n]) })).toEqual([]);
    // Removed by a device that had synced since: it stays removed.
    const strict = new Ledger(16);
    strict.edited(0, 'z', null, w, 'create on 0');
    strict.edited(0, 'z', w, v, 'edit on 0');
    expect(check(strict, { z: w })).toHaveLength(1);
  });

  // Soak seed 92229: device 2's person dropped line l (added on device 0) when resolving against a
  // version only the lost history held; the restored cloud held what they kept; device 0, whose
  // commit of l was lost too, uploaded l again with a later edit.
  it('a line removed by a resolution against a version only the lost cloud held may come back with it', () => {
    const ledger = new Ledger(6);
    const [base, l, later] = [ledger.marker('line'), ledger.marker('line'), ledger.marker('line')];
    ledger.edited(0, 'a', null, note([base]), 'create on 0');
    ledger.edited(2, 'a', null, note([base]), 'pulled on 2');
    ledger.edited(0, 'a', note([base]), note([base, l]), 'edit on 0');
    ledger.resolved(
      2,
      'a',
      { local: note([base]), cloud: note([base, l]) },
      note([base]),
      'resolution on 2 → local',
    );
    expect(check(ledger, { a: note([base, l]) })).toHaveLength(1);
    ledger.mayReturn(0, 'a', note([base, l]), 'server restored');
    ledger.edited(0, 'a', note([base, l]), note([base, l, later]), 'edit on 0');
    expect(check(ledger, { a: note([base, l, later]) })).toEqual([]);
    expect(check(ledger, { a: note([base, later]) })).toEqual([]);
    // A person deciding again after the loss is held to it.
    ledger.edited(2, 'a', note([base, l, later]), note([base, later]), 'removed again on 2');
    expect(check(ledger, { a: note([base, l, later]) })).toHaveLength(1);
  });

  // Soak seed 61860: device 0 made its own "a" and edited it; device 2 deleted the cloud's "a"; device
  // 0's person then took the cloud's side of the no-base conflict. Their edits to the copy they set
  // aside never reached the cloud: they beat no delete, and the delete of what they took stands.
  it('edits to a copy its person then set aside whole beat no delete', () => {
    const ledger = new Ledger(5);
    const [c1, own1, own2] = [ledger.marker('line'), ledger.marker('line'), ledger.marker('line')];
    ledger.edited(1, 'a', null, note([c1]), 'create on 1');
    ledger.edited(2, 'a', null, note([c1]), 'pulled on 2');
    ledger.edited(0, 'a', null, note([own1, own2]), 'own copy on 0');
    ledger.edited(2, 'a', note([c1]), null, 'delete on 2');
    ledger.edited(0, 'a', note([own1, own2]), note([own1]), 'edit of its own copy on 0');
    ledger.resolved(
      0,
      'a',
      { local: note([own1]), cloud: note([c1]) },
      note([c1]),
      'resolution on 0 → cloud',
    );
    expect(check(ledger, {}, (m) => (m === 'a' || m === c1 ? 'a backup on device 0' : null))).toEqual([]);
    // The same person keeping a copy of their own (their edits reach the cloud) still beats the delete.
    const kept = new Ledger(5);
    const [d1, k1, k2] = [kept.marker('line'), kept.marker('line'), kept.marker('line')];
    kept.edited(1, 'a', null, note([d1]), 'create on 1');
    kept.edited(2, 'a', null, note([d1]), 'pulled on 2');
    kept.edited(0, 'a', null, note([k1, k2]), 'own copy on 0');
    kept.edited(2, 'a', note([d1]), null, 'delete on 2');
    kept.edited(0, 'a', note([k1, k2]), note([k1]), 'edit of its own copy on 0');
    kept.resolved(0, 'a', { local: note([k1]), cloud: note([d1]) }, note([k1]), 'resolution on 0 → local');
    expect(check(kept, {})).not.toEqual([]);
  });

  // Soak seed 63710: device 0 replaced the summary; device 1's person, shown that version in a
  // conflict, deleted the note. They saw the replacement: it is not an edit that beats their delete.
  it('a removal the deleting person was shown is not an unseen edit that beats the delete', () => {
    const ledger = new Ledger(6);
    const [line, sum, sum2] = [ledger.marker('line'), ledger.marker('sum'), ledger.marker('sum')];
    ledger.edited(1, 'a', null, note([line], `s ${sum}`), 'create on 1');
    ledger.edited(0, 'a', null, note([line], `s ${sum}`), 'pulled on 0');
    ledger.edited(0, 'a', note([line], `s ${sum}`), note([line], `s ${sum2}`), 'summary on 0');
    ledger.resolved(
      1,
      'a',
      { local: null, cloud: note([line], `s ${sum2}`) },
      null,
      'resolution on 1 → delete',
    );
    // Not shown it (deleted from the version that still held the old summary): the edit beats the delete.
    const unseen = new Ledger(6);
    const [l2, s1, s2] = [unseen.marker('line'), unseen.marker('sum'), unseen.marker('sum')];
    unseen.edited(1, 'a', null, note([l2], `s ${s1}`), 'create on 1');
    unseen.edited(0, 'a', null, note([l2], `s ${s1}`), 'pulled on 0');
    unseen.edited(1, 'a', note([l2], `s ${s1}`), null, 'delete on 1');
    unseen.edited(0, 'a', note([l2], `s ${s1}`), note([l2], `s ${s2}`), 'summary on 0');
    expect(check(unseen, { a: note([l2], `s ${s2}`) })).toEqual([]);
  });

  // Soak seeds 45650, 60645: device 1's person merged by hand (adding only lines that are not markers,
  // such as conflict markers) on top of the cloud's version v; device 2's person, shown v, kept their
  // delete; the merge reached the cloud afterwards and beat the delete, as an edit unseen does.
  it('a resolution whose lines the deleting person never read beats the delete, though made before it', () => {
    const [line, sum] = ['line-8-1', 'sum-8-2'];
    const v = note([line], `s ${sum}`);
    const merged = note(['<<<<<<< this computer', line, '>>>>>>> cloud'], `s ${sum}`);
    const history = (deleterSawMerge: boolean) => {
      const ledger = new Ledger(8);
      ledger.marker('line');
      ledger.marker('sum');
      ledger.edited(0, 'a', null, v, 'create on 0');
      ledger.resolved(1, 'a', { local: note(['own']), cloud: v }, merged, 'resolution on 1 → merged');
      if (deleterSawMerge) ledger.edited(2, 'a', merged, null, 'delete on 2, from the merge it pulled');
      else ledger.resolved(2, 'a', { local: null, cloud: v }, null, 'resolution on 2 → keep the delete');
      return ledger;
    };
    expect(check(history(false), { a: merged })).toEqual([]);
    // Read before deleting: the merge beat nothing, the note must stay deleted.
    expect(check(history(true), { a: merged })).not.toEqual([]);
    // Back without the merge's lines: not that edit's doing.
    expect(check(history(false), { a: v })).not.toEqual([]);
  });

  // Soak seed 91244: device 2's person had once read line l1 (in v1) and pulled v2 without it; a
  // merge on device 0 put l1 back on top of v2, and device 2's person, shown v2, kept their delete.
  // The merge reached the cloud afterwards: it beats the delete, since the version let go lacked l1.
  it('a line the deleting person read only in an older version is unseen in the version they let go', () => {
    const ledger = new Ledger(9);
    const [l1, l2] = [ledger.marker('line'), ledger.marker('line')];
    const v1 = note([l1]);
    const v2 = note([l2]);
    const merged = note([l1, l2]);
    ledger.edited(0, 'a', null, v1, 'create on 0');
    ledger.edited(2, 'a', null, v1, 'pulled on 2');
    ledger.edited(1, 'a', v1, v2, 'edit on 1');
    ledger.edited(2, 'a', v1, v2, 'pulled on 2');
    ledger.resolved(0, 'a', { local: v1, cloud: v2 }, merged, 'resolution on 0 → merged');
    ledger.resolved(2, 'a', { local: null, cloud: v2 }, null, 'resolution on 2 → keep the delete');
    expect(check(ledger, { a: merged })).toEqual([]);
  });

  // Soak seed 70560: device 0 deleted v (unpushed), the cloud was wiped; device 1, holding v, kept it
  // over device 2's own copy in a no-base conflict. Neither saw the other, and v adds nothing device 0's person had not
  // held: the delete may stand.
  it('keeping, against the cloud, exactly what another device deleted unseen: either outcome stands', () => {
    const history = (extra: boolean) => {
      const ledger = new Ledger(9);
      const [a, b, own] = [ledger.marker('line'), ledger.marker('line'), ledger.marker('line')];
      const v = note([a, b]);
      ledger.edited(0, 'n', null, v, 'create on 0');
      ledger.edited(1, 'n', null, v, 'pulled on 1');
      ledger.edited(2, 'n', null, note([a, own]), 'own copy on 2');
      ledger.edited(0, 'n', v, null, 'delete on 0');
      // The cloud, wiped, never held that delete: v may come back or stay deleted (mayReturn).
      ledger.mayReturn(1, 'n', v, 'server wiped');
      const kept = extra ? note([a, b, ledger.marker('line')]) : v;
      ledger.resolved(1, 'n', { local: kept, cloud: note([a, own]) }, kept, 'resolution on 1 → local');
      return { ledger, own };
    };
    const same = history(false);
    expect(check(same.ledger, {}, (m) => (m === same.own ? 'a backup' : null))).toEqual([]);
    // With a line the deleting person never held, the result is an edit: it must survive.
    const more = history(true);
    expect(check(more.ledger, {}, (m) => (m === more.own ? 'a backup' : null))).not.toEqual([]);
  });

  // Soak seed 95254 (the second 10,000-seed soak, of 58104ee).
  it('keeping the cloud’s copy over a delete that an unseen edit beat does not bring back what that edit removed', () => {
    const ledger = new Ledger(10);
    const [line, later, latest, own] = [1, 2, 3, 4].map(() => ledger.marker('line')) as [
      string,
      string,
      string,
      string,
    ];
    ledger.edited(1, 'n', null, note([line]), 'create on 1'); // synced: the cloud holds it
    ledger.edited(0, 'n', null, note([own]), 'own copy on 0'); // a no-base conflict on 0
    ledger.edited(2, 'n', null, note([line]), 'pulled on 2');
    ledger.edited(1, 'n', note([line]), note([later]), 'edit on 1, offline'); // removes the line
    ledger.edited(2, 'n', note([line]), null, 'delete on 2');
    ledger.edited(1, 'n', note([later]), note([latest]), 'edit on 1 again'); // beats 2's delete, unseen there
    // 0's person takes the cloud's copy, still the first version: they decide nothing about the line.
    ledger.resolved(
      0,
      'n',
      { local: note([own]), cloud: note([line]) },
      note([line]),
      'resolution on 0 → cloud',
      true,
    );
    expect(
      check(ledger, { n: note([latest]) }, (m) => (m === line || m === own ? 'a backup' : null)),
    ).toEqual([]);
    // Had 1's person not removed the line, keeping the cloud's copy keeps it.
    const kept = new Ledger(11);
    const [l2, o2] = [kept.marker('line'), kept.marker('line')];
    kept.edited(1, 'm', null, note([l2]), 'create on 1');
    kept.edited(0, 'm', null, note([o2]), 'own copy on 0');
    kept.edited(2, 'm', null, note([l2]), 'pulled on 2');
    const [k1, k2] = [kept.marker('line'), kept.marker('line')];
    kept.edited(1, 'm', note([l2]), note([l2, k1]), 'edit on 1, offline');
    kept.edited(2, 'm', note([l2]), null, 'delete on 2');
    kept.edited(1, 'm', note([l2, k1]), note([l2, k2]), 'edit on 1 again');
    kept.resolved(
      0,
      'm',
      { local: note([o2]), cloud: note([l2]) },
      note([l2]),
      'resolution on 0 → cloud',
      true,
    );
    expect(check(kept, { m: note([k2]) }, (m) => (m === l2 || m === o2 ? 'a backup' : null))).not.toEqual([]);
  });

  // Soak seed 133311: device 1's hand merge repeated conflict-marker lines the cloud's side held
  // once (no new marker, a new version all the same); device 2's person, shown the version before,
  // kept their delete. The merge, uploaded after, is an edit against that delete.
  it('a hand merge that only repeats lines is an edit: it beats a delete whose person never saw it', () => {
    const history = (repeated: boolean) => {
      const ledger = new Ledger(10);
      const line = ledger.marker('line');
      const v = note(['<<<<<<< this computer', line, '>>>>>>> cloud']);
      const merged = note(['<<<<<<< this computer', '<<<<<<< this computer', line, '>>>>>>> cloud']);
      ledger.edited(0, 'a', null, v, 'create on 0');
      ledger.resolved(
        1,
        'a',
        { local: note(['own']), cloud: v },
        repeated ? merged : v,
        'resolution on 1 → merged',
      );
      ledger.resolved(2, 'a', { local: null, cloud: v }, null, 'resolution on 2 → keep the delete');
      return { ledger, merged, v };
    };
    const withRepeat = history(true);
    expect(check(withRepeat.ledger, { a: withRepeat.merged })).toEqual([]);
    // Taking the cloud's version as it was adds nothing: the delete holds.
    const asItWas = history(false);
    expect(check(asItWas.ledger, { a: asItWas.v })).toContain(
      'the note "a" was removed by a person (resolution on 2 → keep the delete) and came back',
    );
  });

  // Soak seed 139177: device 0's person replaced summary s1 in a merge (not yet uploaded); device 2's
  // person, shown a third device's s2, kept their own s1. Neither saw the other's decision: the
  // later upload merges against the other's base, so either summary may stand — s1 lost is no
  // silent revert. Had device 2's person been shown device 0's merge, their keep is what stands.
  it('keeping a line another device’s unseen resolution replaced: either outcome stands, unless that resolution was shown', () => {
    const history = (shownTheMerge: boolean) => {
      const ledger = new Ledger(11);
      const [s1, s2, s3, line] = [
        ledger.marker('sum'),
        ledger.marker('sum'),
        ledger.marker('sum'),
        ledger.marker('line'),
      ];
      const base = note([line], `s ${s1}`);
      const merged = note([line, 'merged line'], `s ${s3}`);
      ledger.edited(2, 'a', null, base, 'create on 2');
      ledger.edited(1, 'a', base, note([line], `s ${s2}`), 'summary on 1');
      ledger.resolved(
        0,
        'a',
        { local: note([line], `s ${s3}`), cloud: base },
        merged,
        'resolution on 0 → merged',
      );
      const cloud = shownTheMerge ? note([line, 'merged line'], `s ${s2}`) : note([line], `s ${s2}`);
      ledger.resolved(2, 'a', { local: base, cloud }, base, 'resolution on 2 → local');
      return { ledger, s1, merged };
    };
    const unseen = history(false);
    expect(check(unseen.ledger, { a: unseen.merged }, (m) => (m === unseen.s1 ? 'a backup' : null))).toEqual(
      [],
    );
    const seen = history(true);
    expect(check(seen.ledger, { a: seen.merged }, (m) => (m === seen.s1 ? 'a backup' : null))).toContain(
      `"${seen.s1}" of "a" (resolution on 2 → local) was silently reverted: it survives only in a backup`,
    );
  });

  // Soak seed 140789: device 2 removed l1 and pushed v2, then deleted v2; device 0, unseen, had also
  // removed l1 from its copy, then took the cloud's v2 in a conflict. That removal never reached the
  // cloud: it beats no delete, and the note stays deleted.
  it('a removal in a copy its person then set aside beats no delete, though the deleting person removed it too', () => {
    const history = (setAside: boolean) => {
      const ledger = new Ledger(12);
      const [l1, l2, own] = [ledger.marker('line'), ledger.marker('line'), ledger.marker('line')];
      const v1 = note([l1]);
      const v2 = note([l2]);
      ledger.edited(0, 'a', null, v1, 'create on 0');
      ledger.edited(2, 'a', null, v1, 'pulled on 2');
      ledger.edited(2, 'a', v1, v2, 'edit on 2');
      ledger.edited(0, 'a', v1, note([own]), 'edit on 0');
      ledger.edited(2, 'a', v2, null, 'delete on 2');
      ledger.resolved(
        0,
        'a',
        { local: note([own]), cloud: v2 },
        setAside ? v2 : note([own, l2]),
        'resolution on 0',
      );
      return { ledger, l2, own };
    };
    const setAside = history(true);
    expect(
      check(setAside.ledger, {}, (m) =>
        m === 'a' || m === setAside.own || m === setAside.l2 ? 'a backup' : null,
      ),
    ).toEqual([]);
    // A merge that kept their own line is an edit on top of v2: it beats the delete.
    const merged = history(false);
    expect(check(merged.ledger, {}, () => 'a backup')).not.toEqual([]);
  });

  // Soak seed 140039: device 1 created and deleted its own "a" before it ever synced; the cloud's
  // "a" (device 2's) was deleted by device 2, unseen by device 0's person, who took the cloud's copy
  // over theirs. Device 1's deletion concerns another note: device 2's delete may stand.
  it('a deletion of another note under the same id says nothing about the cloud’s version', () => {
    const ledger = new Ledger(13);
    const [theirs, phantom, mine] = [ledger.marker('line'), ledger.marker('line'), ledger.marker('line')];
    const v = note([theirs]);
    ledger.edited(2, 'a', null, v, 'create on 2');
    ledger.edited(2, 'a', v, null, 'delete on 2');
    ledger.edited(1, 'a', null, note([phantom]), 'create on 1');
    ledger.edited(0, 'a', null, note([mine]), 'create on 0');
    ledger.edited(1, 'a', note([phantom]), null, 'delete on 1');
    ledger.resolved(0, 'a', { local: note([mine]), cloud: v }, v, 'resolution on 0 → cloud', true);
    expect(check(ledger, {}, (m) => (m === 'a' || m === mine || m === theirs ? 'a backup' : null))).toEqual(
      [],
    );
    // Device 2's delete is the decision that concerns it: the note back is that delete undone.
    expect(check(ledger, { a: v })).toContain(
      'the note "a" was removed by a person (delete on 2) and came back',
    );
  });

  // Soak seed 146436: device 2 replaced the summary (v1 → v2); device 0 pulled v2 and deleted it;
  // device 1's person, who had v1 only, edited it unseen — an edit that beats the delete, and that
  // comes back with v1's summary. The replacement was part of the version deleted.
  it('an unseen edit that beats a delete brings back what edits before the deleted version removed', () => {
    const history = (editedOn1: boolean) => {
      const ledger = new Ledger(14);
      const [s1, l1, s2, l2] = [
        ledger.marker('sum'),
        ledger.marker('line'),
        ledger.marker('sum'),
        ledger.marker('line'),
      ];
      const v1 = note([l1], `s ${s1}`);
      const v2 = note([l1], `s ${s2}`);
      ledger.edited(2, 'a', null, v1, 'create on 2');
      ledger.edited(1, 'a', null, v1, 'pulled on 1');
      ledger.edited(2, 'a', v1, v2, 'summary on 2');
      ledger.edited(0, 'a', null, v2, 'pulled on 0');
      const back = editedOn1 ? note([l1, l2], `s ${s1}`) : v1;
      if (editedOn1) ledger.edited(1, 'a', v1, back, 'edit on 1');
      ledger.edited(0, 'a', v2, null, 'delete on 0');
      return { ledger, back, s1, s2 };
    };
    const edited = history(true);
    expect(check(edited.ledger, { a: edited.back }, (m) => (m === edited.s2 ? 'a backup' : null))).toEqual(
      [],
    );
    // Without that edit nothing beat the delete: v1 back brings back the summary replaced.
    const plain = history(false);
    expect(check(plain.ledger, { a: plain.back })).toContain(
      `"${plain.s1}" of "a" was removed by a person (summary on 2) and came back`,
    );
  });
});
