import type { NoteContent } from '../../shared/note.js';

/**
 * The simulation's exact oracle: what every person did, marker by marker, and what the notes must
 * therefore hold once sync is quiet.
 *
 * Every person's edit writes unique markers — a body line `line-S-N`, a summary `… sum-S-N`, a tag
 * `tag-S-N`, a foreign frontmatter key (an agent's own) `"kN": "key-S-N"` — and every note has the
 * pseudo-marker EXISTS. Markers are matched as whole tokens
 * (`line-S-1` is never found inside `line-S-10`). Per (note id, marker) the ledger keeps the last
 * person's decision:
 *   - present: written by an edit, kept by a conflict resolution, copied there (`cp x.md y.md`,
 *     "keep both", a rename), or kept when the fail-safe asked;
 *   - absent: removed by an edit (a line, a summary replaced, a tag), the note deleted, or set
 *     aside by a conflict resolution — each with what the person's version held then.
 * A resolution decides only what differs between the sides it showed (what all sides agree on was
 * not the person's choice there), so a concurrent removal elsewhere still applies.
 *
 * Final check, against the server's own store (every device must hold the same):
 *   - a present marker is in its note: else "lost", or "silently reverted" when it survives only in
 *     a backup or another note;
 *   - an absent marker is not in its note ("resurrected"), unless the note was deleted and an edit
 *     the deleting person had not seen brought it back (the merge rule: an edit beats a delete; an
 *     edit that only removed something counts), or a resolution set this computer's copy of it
 *     aside while another device's person, unseen, kept it (concurrent decisions: either stands);
 *   - no marker is in a note where no person put it ("duplicated": content is not identity).
 */
export const EXISTS = '@exists';

const MARKER = /\b(?:line|sum|tag|key)-\d+-\d+\b/g;

export type Version = Pick<NoteContent, 'summary' | 'tags' | 'body' | 'extra'> | null;

export function markersOf(v: Version): Set<string> {
  const out = new Set<string>();
  if (v === null) return out;
  out.add(EXISTS);
  for (const text of [v.summary, v.tags.join(' '), v.body, JSON.stringify(v.extra ?? {})])
    for (const m of text.match(MARKER) ?? []) out.add(m);
  return out;
}

interface Decision {
  present: boolean;
  /** The device whose person decided, and whether it was by creating the note there. */
  device: number;
  creation?: boolean;
  /** The decision this one replaced (a resolution that takes the cloud's side may withdraw it). */
  previous?: Decision;
  /** For absent: whether the note was deleted, and the markers the person's version held. */
  removal?: {
    deletion: boolean;
    knew: ReadonlySet<string>;
    held: ReadonlySet<string>;
    /**
     * Every line (linesOf) of the versions the person decided on — the version edited or deleted,
     * both sides of a resolution — markers or not. Not every line they ever read: a line seen in an
     * older version and gone from the one they let go was not part of that decision (seed 91244).
     */
    decidedLines: ReadonlySet<string>;
  };
  /** The step that decided (for the failure message). */
  by: string;
  /** When, in the order the ledger heard of the persons' steps. */
  at: number;
  /** Present or absent both pass (the cloud lost the only record of a removal): see mayReturn. */
  either?: boolean;
  /**
   * Absent by a resolution that took a side without this marker while this computer's side had
   * it: the person set their copy aside, and did not see another device's person keep it
   * meanwhile (then either passes: see check).
   */
  setAside?: boolean;
}

/**
 * A copy set aside (`d`) while another device's person, unseen, kept it: concurrent decisions,
 * either stands. So too when several devices set it aside at once, one after the other in the
 * ledger's order, all after that keep (seed 43822: the cloud restored to an older version, each of
 * three devices asked; one kept its copy, two took the cloud's) — unless the keeping device's own
 * person set it aside since (their later decision stands).
 */
function keptMeanwhile(d: Decision): boolean {
  if (!d.setAside) return false;
  const settingAside = new Set([d.device]);
  for (let p = d.previous; p; p = p.previous) {
    if (p.present) return !settingAside.has(p.device);
    if (!p.setAside) return false;
    settingAside.add(p.device);
  }
  return false;
}

/** The history `d` without the decisions `withdrawn` names; its first decision always stays. */
function dropWithdrawn(d: Decision | undefined, withdrawn: (x: Decision) => boolean): Decision | undefined {
  if (!d?.previous) return d;
  const rest = dropWithdrawn(d.previous, withdrawn);
  if (withdrawn(d)) return rest;
  return rest === d.previous ? d : { ...d, previous: rest };
}

/**
 * The decision about a note's existence that concerns `version`: past the deletions of other notes
 * under the same id — whose persons never saw any of `version`'s markers — and each such person's
 * creation of theirs just beneath (seed 140039: a device created and deleted its own "delta" before
 * it ever synced; the cloud's "delta", which that device had never seen, was deleted by its own
 * creator, unseen by the person who then took the cloud's copy in a conflict).
 */
function pastOtherIncarnations(d: Decision | undefined, version: ReadonlySet<string>): Decision | undefined {
  const content = [...version].filter((m) => m !== EXISTS);
  if (content.length === 0) return d;
  let x = d;
  // A removal of the note's existence is a deletion, or one a creation anew made a rewrite (recreated).
  while (x && !x.present && x.removal && !content.some((m) => x!.removal!.knew.has(m))) {
    const deleter = x.device;
    let below = x.previous;
    if (below?.present && below.creation && below.device === deleter) below = below.previous;
    if (!below) return d;
    x = below;
  }
  return x;
}

/** The lines a person reads in a version: its summary, each tag, each body line, each foreign key. */
function linesOf(v: Version): Set<string> {
  const out = new Set<string>();
  if (v === null) return out;
  out.add(`summary ${v.summary}`);
  for (const t of v.tags) out.add(`tag ${t}`);
  // A line written twice counts twice (its second copy is `line L #2`): a hand merge that repeats
  // conflict-marker lines the cloud's side held once is an edit (seed 133311).
  const count = new Map<string, number>();
  for (const l of v.body.replace(/\r\n/g, '\n').split('\n')) {
    if (!l.trim()) continue;
    const n = (count.get(l) ?? 0) + 1;
    count.set(l, n);
    out.add(n === 1 ? `line ${l}` : `line ${l} #${n}`);
  }
  for (const [k, x] of Object.entries(v.extra ?? {})) out.add(`key ${k}=${JSON.stringify(x)}`);
  return out;
}

/** Two versions with the same content hash (tags in any order, foreign keys in any order). */
function sameVersion(a: NonNullable<Version>, b: NonNullable<Version>): boolean {
  const canonical = (v: NonNullable<Version>): string =>
    JSON.stringify([
      v.summary,
      [...v.tags].sort(),
      v.body.replace(/\r\n/g, '\n'),
      Object.entries(v.extra ?? {}).sort(([x], [y]) => (x < y ? -1 : 1)),
    ]);
  return canonical(a) === canonical(b);
}

export class Ledger {
  private counter = 0;
  private readonly decisions = new Map<string, Decision>();
  /** Each marker's note and what the person's version held when they wrote it. */
  private readonly created = new Map<
    string,
    { id: string; knew: ReadonlySet<string>; device: number; at: number }
  >();
  /**
   * Per note id, the markers a person removed by an edit (not a deletion), on which device and
   * when: an edit too, which beats a delete made without seeing it (broughtBack).
   */
  private readonly removedByEdit = new Map<string, Array<{ marker: string; device: number; at: number }>>();
  /**
   * Per note id, the resolutions whose result differs from the cloud's side they were shown, and
   * when: the engine uploads such a result as an edit on top of that version, so it beats a delete
   * whose person could not have seen it (broughtBack).
   */
  private readonly resolutionEdits = new Map<
    string,
    Array<{ device: number; at: number; added: ReadonlySet<string> }>
  >();
  /**
   * Per note id, the resolutions that set this computer's whole copy aside (the result is the
   * cloud's version), and when: the edits that device's person had made to that copy never reached
   * the cloud, so they beat no delete (seed 61860: a note created on two devices and edited on one,
   * whose person then took the cloud's copy — which a third person had meanwhile deleted).
   */
  private readonly copiesSetAside = new Map<string, Array<{ device: number; at: number }>>();
  /**
   * Per note id and device, every marker that device's person has seen in that note: in a version
   * they edited or left, or on either side of a conflict they resolved. A person who once saw a
   * marker had seen the edit that wrote it, so a later delete of theirs was made knowing it — even
   * when they had removed it themselves before deleting (seeds 42836, 43862: the delete of a note
   * whose earlier version another device then kept is not beaten by what that version held).
   */
  private readonly seen = new Map<string, Set<string>>();
  /** The persons' steps heard of so far: a Decision's `at`. */
  private steps = 0;
  /** How many markers were written, per kind (the soak's "edits checked"). */
  readonly written = { line: 0, sum: 0, tag: 0, key: 0 };

  constructor(private readonly seed: number) {}

  marker(kind: 'line' | 'sum' | 'tag' | 'key'): string {
    this.written[kind]++;
    return `${kind}-${this.seed}-${++this.counter}`;
  }

  get markers(): number {
    return this.counter;
  }

  /**
   * A person on `device` changed note `id` from `before` to `after` (null: absent / deleted).
   * `againstLostHistory`: the device has not synced since the cloud lost its history, so `before`
   * may be a version only that lost history held. What such an edit removes (not a deletion: a
   * delete made then is remembered, docs/sync-engine.md) may come back or stay removed — either
   * passes until a person decides again — as a removal the lost cloud was the only record of
   * (mayReturn): the device plans the note as never synced, shows its person a conflict without a
   * base whose sides both lack the line, and a resolution on another device that kept the line
   * against the restored cloud merges it back (seed 125166).
   */
  edited(
    device: number,
    id: string,
    before: Version,
    after: Version,
    by: string,
    { againstLostHistory = false } = {},
  ): void {
    this.steps++;
    const b = markersOf(before);
    const a = markersOf(after);
    const knew = this.saw(device, id, b, a);
    const decidedLines = linesOf(before);
    if (before === null && after !== null) this.recreated(device, id);
    for (const m of a) {
      if (b.has(m)) continue;
      this.decide(id, m, { present: true, device, creation: before === null, by });
      if (m !== EXISTS && !this.created.has(m)) this.created.set(m, { id, knew: b, device, at: this.steps });
    }
    for (const m of b)
      if (!a.has(m)) {
        this.decide(id, m, {
          present: false,
          device,
          removal: { deletion: after === null, knew, held: b, decidedLines },
          by,
          ...(againstLostHistory && after !== null ? { either: true } : {}),
        });
        if (after !== null) this.removedByAnEdit(id, m, device, this.steps);
      }
    if (after === null) this.deletionCovers(id, knew, b, decidedLines);
  }

  /**
   * A person creating an id their own delete left free: to sync, the note was not deleted but
   * rewritten — a three-way merge against the version deleted, whose markers the new note lacks,
   * removes them as an edit does, and merges in what other devices changed meanwhile (seed 111139:
   * a device deleted "zeta" and created it anew before syncing; another device's unseen edit to
   * the old note was merged into the new one, which a deletion beaten by that edit would have
   * brought back whole). Their deletion's removals become removals by an edit.
   */
  private recreated(device: number, id: string): void {
    const prefix = `${id}\u0000`;
    for (const [key, d] of this.decisions) {
      if (!key.startsWith(prefix) || d.present || d.device !== device || !d.removal?.deletion) continue;
      d.removal = { ...d.removal, deletion: false };
      const marker = key.slice(prefix.length);
      if (marker !== EXISTS) this.removedByAnEdit(id, marker, device, d.at);
    }
  }

  /** Records what `device`'s person sees of note `id` now; returns all they have seen of it so far. */
  private saw(device: number, id: string, ...versions: ReadonlySet<string>[]): ReadonlySet<string> {
    const key = `${id}\u0000${device}`;
    const all = this.seen.get(key) ?? new Set<string>();
    for (const v of versions) for (const m of v) all.add(m);
    this.seen.set(key, all);
    return new Set(all); // what they knew at this step, not what they will see later
  }

  /**
   * A note deleted after some of its markers were removed: those removals were part of the
   * version deleted, so an edit that beats the delete brings its own version back, removed
   * markers included, as it brings back the note. Every removal still in effect is covered, not
   * only the latest: a later person may withdraw the one on top (seed 115606: device 2's person,
   * who had removed the tag too, took the cloud's side; beneath was the deleting person's own
   * removal, which the delete, beaten by an edit they had not seen, had given up with the note).
   * Only markers the deleting person knew: a removal of one they never saw (another device's edit
   * of a copy they never had) is no part of their version, and stays that device's removal by an
   * edit (seed 119751: the deleted note was this device's own creation of the id).
   */
  private deletionCovers(
    id: string,
    knew: ReadonlySet<string>,
    held: ReadonlySet<string>,
    decidedLines: ReadonlySet<string>,
  ): void {
    const prefix = `${id}\u0000`;
    // Also a removal the deleting person never saw whose edit wrote a marker the deleted version
    // holds: that edit is in the version's past (seed 146436: a summary replaced on one device, the
    // result pulled and deleted on another; a third device's unseen edit of the version before
    // beat the delete, and came back with the old summary).
    const madeTheDeletedVersion = (d: Decision): boolean =>
      [...held].some((x) => {
        const c = this.created.get(x);
        return c !== undefined && c.id === id && c.device === d.device && c.at === d.at;
      });
    for (const [key, top] of this.decisions) {
      if (!key.startsWith(prefix)) continue;
      if (!knew.has(key.slice(prefix.length)) && !(top.removal && !top.present && madeTheDeletedVersion(top)))
        continue;
      // Down to a decision that kept it or a deletion: removals beneath one that the deleted
      // version held were not part of that version (seed 95254).
      for (
        let d: Decision | undefined = top;
        d?.removal && !d.present && !d.removal.deletion;
        d = d.previous
      ) {
        d.removal = {
          deletion: true,
          knew: new Set([...d.removal.knew, ...knew]),
          held: new Set([...d.removal.held, ...held]),
          decidedLines,
        };
        d.at = this.steps;
      }
    }
  }

  /**
   * A person on `device` resolved note `id`: shown this computer's version and the cloud's, left
   * `result`. The engine takes the result as an edit on top of the cloud's version (the cloud's
   * becomes the base), so that is what the person decided: what the result adds to the cloud's
   * version, what it drops from it, and what it drops from this computer's. What the result keeps
   * of the cloud's version is not decided again (a removal made meanwhile on a third device, which
   * the person never saw, still applies) — except this device's own earlier removals, which the
   * person undid by keeping the cloud's, a deletion the cloud's side shows already beaten by an
   * edit its person had not seen (the note was back: what is kept of it is decided present), and,
   * when both devices created the id on their own
   * (`twoCreations`), this device's creation when the cloud's note is kept: its existence is
   * again what the cloud's own history decided.
   *
   * A result other than the cloud's version is uploaded as an edit on top of it (seeds 40732, 40984,
   * 41995): what it drops of the cloud's version is removed by an edit, and the result beats a
   * delete made where that person had not seen it — one made earlier on another device (the cloud
   * showed this person a live version), or one whose version still held what the result dropped.
   */
  resolved(
    device: number,
    id: string,
    sides: { local: Version; cloud: Version },
    result: Version,
    by: string,
    twoCreations = false,
  ): void {
    const local = markersOf(sides.local);
    const cloud = markersOf(sides.cloud);
    const r = markersOf(result);
    const shown = new Set([...local, ...cloud]);
    const removal = {
      deletion: result === null,
      knew: this.saw(device, id, shown, r),
      held: shown,
      decidedLines: new Set([...linesOf(sides.local), ...linesOf(sides.cloud)]),
    };
    const at = ++this.steps;
    if (sides.local !== null && sides.cloud !== null && result !== null && sameVersion(result, sides.cloud)) {
      const list = this.copiesSetAside.get(id) ?? [];
      list.push({ device, at });
      this.copiesSetAside.set(id, list);
    }
    for (const m of shown)
      if (!r.has(m)) this.decide(id, m, { present: false, device, removal, by, setAside: !cloud.has(m) });
    // Kept, but deleted on another device by a person whose version held all that the result
    // holds, neither seeing the other: the result is no edit that person had not seen, so the
    // delete may stand — either stands (seed 70560: a copy pulled before the cloud was wiped, kept
    // over another device's upload, was the version a third device's person had deleted; that
    // device deleted it again; seed 99350: this computer's copy kept over the cloud's, whose unseen
    // edit had beaten that delete, was again exactly the version deleted — renamed away there).
    // (Under a loss's "either way", the decision it covers.)
    const deletedAsIs = (last: Decision | undefined): boolean => {
      const prior = last?.either ? last.previous : last;
      return (
        prior !== undefined &&
        !prior.present &&
        prior.device !== device &&
        prior.removal?.deletion === true &&
        [...r].every((x) => prior.removal!.held.has(x))
      );
    };
    // Kept against the cloud's side, but removed by another device's resolution this person was not
    // shown (the cloud's side holds nothing that result added): two persons decided the marker, neither
    // seeing the other, and the later upload merges against the other's base — the keep, equal to
    // that base, gives way to the removal or stands, by which uploads first: either stands (seed
    // 139177: a summary kept over a third device's edit, replaced meanwhile in another's merge).
    const shownCloudLines = linesOf(sides.cloud);
    const removedByUnseenResolution = (last: Decision | undefined): boolean => {
      const prior = last?.either ? last.previous : last;
      return (
        prior !== undefined &&
        !prior.present &&
        prior.device !== device &&
        prior.removal?.deletion === false &&
        (this.resolutionEdits.get(id) ?? []).some(
          (e) =>
            e.device === prior.device &&
            e.at === prior.at &&
            e.added.size > 0 &&
            ![...e.added].some((l) => shownCloudLines.has(l)),
        )
      );
    };
    const uploaded = result !== null && (sides.cloud === null || !sameVersion(result, sides.cloud));
    const kept = (last: Decision | undefined) => ({
      present: true,
      device,
      by,
      ...(deletedAsIs(last) || removedByUnseenResolution(last) ? { either: true } : {}),
    });
    for (const m of r) {
      if (!cloud.has(m)) {
        this.decide(id, m, kept(this.decisions.get(`${id}\u0000${m}`)));
        continue;
      }
      const key = `${id}\u0000${m}`;
      const withdrawn = (x: Decision): boolean =>
        x.device === device && (!x.present || (m === EXISTS && twoCreations && x.creation === true));
      // This person's own earlier decisions are withdrawn wherever they are in the history, not only
      // on top: another device's person may have decided since (seed 45318: two devices each set the
      // cloud's copy aside, then each kept it in a merge — the first one's withdrawal was under the
      // second's removal). The only decision is never withdrawn.
      const d = pastOtherIncarnations(dropWithdrawn(this.decisions.get(key), withdrawn), cloud);
      // A deletion the cloud's side shows already beaten by an edit its person had not seen (the
      // note is back in the cloud by the merge rule): what the person keeps of that live note is
      // their decision, though this computer's side agreed — even if they set the edit that beat
      // the delete aside (seed 31902: "keep both" kept this computer's copy under the id).
      // ... unless another device's edit removed the marker before that delete, unseen here: the
      // person kept the cloud's version, not that marker against a removal they never saw (seed
      // 95254: a no-base conflict resolved to the cloud's copy, whose line the note's creator had
      // removed offline; the delete beaten by that creator's later edit).
      const beneath = d?.previous;
      const removedUnseen =
        beneath !== undefined &&
        !beneath.present &&
        beneath.removal?.deletion === false &&
        beneath.device !== device;
      if (d && !d.present && !removedUnseen && this.broughtBack(id, d, cloud, linesOf(sides.cloud))) {
        // Either stands only when the result is uploaded (it differs from the cloud's side): taking
        // the cloud's side as it is uploads nothing, and the edit that beat the delete stays on top.
        this.decide(id, m, uploaded ? kept(d) : { present: true, device, by });
        continue;
      }
      if (d) this.decisions.set(key, d);
    }
    if (result === null || sides.cloud === null || sameVersion(result, sides.cloud)) return;
    for (const m of cloud) if (!r.has(m)) this.removedByAnEdit(id, m, device, at);
    const list = this.resolutionEdits.get(id) ?? [];
    list.push({ device, at, added: new Set([...linesOf(result)].filter((l) => !shownCloudLines.has(l))) });
    this.resolutionEdits.set(id, list);
  }

  /**
   * The cloud lost its history (wiped, or restored from an older backup), and version `v` of note
   * `id` is still somewhere (a device, the restored backup). Where the cloud was the only record of
   * a deletion of what `v` holds, `v` may come back (it is uploaded again) or stay deleted (the
   * deleting device re-learns its baseline once another uploads that same version): either passes
   * until a person decides again. That is so when the note is deleted, and also when only the
   * version deleted is (seed 47992: the note was deleted, the delete pushed, then another device
   * created the id anew; the restored backup still held the deleted version) — then the markers
   * that deletion removed, and the note's existence, may return; what is present stays so. A
   * marker removed by an edit or a resolution is the same (seed 92229: a person's resolution
   * dropped a line from a version only the lost history held; the restored cloud held what that
   * person kept, so nothing was left to upload, and the line's author, whose commit of it was
   * lost too, uploaded it again with later edits on top of the restored version).
   */
  mayReturn(device: number, id: string, v: Version, by: string): void {
    const decision = (m: string) => this.decisions.get(`${id}\u0000${m}`);
    const removedHere = (m: string) => decision(m)?.present === false;
    const whole = decision(EXISTS)?.present === false;
    const markers = [...markersOf(v)];
    if (!whole && !markers.some(removedHere)) return;
    this.steps++;
    for (const m of markers)
      if (whole || m === EXISTS || removedHere(m))
        this.decide(id, m, { present: true, either: true, device, by });
  }

  private decide(id: string, marker: string, decision: Omit<Decision, 'at'>): void {
    const key = `${id}\u0000${marker}`;
    const previous = this.decisions.get(key);
    const d = { ...decision, at: this.steps };
    this.decisions.set(key, previous ? { ...d, previous } : d);
  }

  /** Whether `device`'s person set their whole copy of `id` aside after step `at`. */
  private setAsideSince(id: string, device: number, at: number): boolean {
    return (this.copiesSetAside.get(id) ?? []).some((e) => e.device === device && e.at > at);
  }

  private removedByAnEdit(id: string, marker: string, device: number, at: number): void {
    const list = this.removedByEdit.get(id) ?? [];
    list.push({ marker, device, at });
    this.removedByEdit.set(id, list);
  }

  /**
   * Failures of the final state `live` (id → version, the server's), one line each. `elsewhere`
   * says where else a marker survives (a backup, another note), for the message.
   */
  check(live: ReadonlyMap<string, Version>, elsewhere: (marker: string) => string | null): string[] {
    const failures: string[] = [];
    const liveMarkers = new Map<string, Set<string>>();
    for (const [id, v] of live) liveMarkers.set(id, markersOf(v));
    for (const [key, d] of this.decisions) {
      if (d.either) continue;
      const [id, m] = key.split('\u0000') as [string, string];
      const here = liveMarkers.get(id)?.has(m) ?? false;
      const what = m === EXISTS ? `the note "${id}"` : `"${m}" of "${id}"`;
      if (d.present && !here) {
        const found = elsewhere(m === EXISTS ? id : m);
        failures.push(
          found
            ? `${what} (${d.by}) was silently reverted: it survives only in ${found}`
            : `${what} (${d.by}) is lost: in no note and no backup`,
        );
      } else if (
        !d.present &&
        here &&
        !this.broughtBack(id, d, liveMarkers.get(id)!, linesOf(live.get(id) ?? null)) &&
        !keptMeanwhile(d)
      ) {
        failures.push(`${what} was removed by a person (${d.by}) and came back`);
      }
    }
    for (const [id, markers] of liveMarkers)
      for (const m of markers)
        if (!this.decisions.has(`${id}\u0000${m}`))
          failures.push(
            m === EXISTS
              ? `the note "${id}" exists, but no person created it`
              : `"${m}" is in "${id}", where no person put it (duplicated)`,
          );
    return failures;
  }

  /** A deleted note is back because an edit the deleting person had not seen beat the delete. */
  private broughtBack(
    id: string,
    d: Decision,
    live: ReadonlySet<string>,
    liveLines: ReadonlySet<string>,
  ): boolean {
    if (!d.removal?.deletion) return false;
    for (const m of live) {
      const c = this.created.get(m);
      if (c && c.id === id && !d.removal.knew.has(m)) return true;
    }
    // Such an edit, its marker removed since by a person's edit after the delete: the note lived on
    // (seed 42263: a key added unseen beat the delete, then was removed — the note is as deleted).
    for (const [m, c] of this.created) {
      if (c.id !== id || d.removal.knew.has(m)) continue;
      const now = this.decisions.get(`${id}\u0000${m}`);
      const byEdit = (this.removedByEdit.get(id) ?? []).some(
        (r) => r.marker === m && r.device === now?.device,
      );
      // ... unless that person then set their whole copy aside: the edit never reached the cloud.
      if (
        now &&
        !now.present &&
        now.removal?.deletion === false &&
        now.at > d.at &&
        byEdit &&
        !this.setAsideSince(id, now.device, now.at)
      )
        return true;
    }
    // An edit that only removed (a line, a key) is an edit too: another device removed a marker
    // the deleting person's version still held, and the note came back without it. So too one the
    // deleting person had removed as well, by an edit of their own before the delete: their
    // device's engine knows only the version last synced and the delete, so the other device's
    // removal, unseen, is an edit against a delete (seed 136565). Not one whose person then set
    // their whole copy aside (seed 140789: they took the cloud's version, which was the very one
    // the deleting person let go).
    const removedBy = (device: number, marker: string) =>
      (this.removedByEdit.get(id) ?? []).some((r) => r.device === device && r.marker === marker);
    for (const r of this.removedByEdit.get(id) ?? [])
      if (
        r.device !== d.device &&
        (d.removal.held.has(r.marker) || removedBy(d.device, r.marker)) &&
        !live.has(r.marker) &&
        !this.setAsideSince(id, r.device, r.at)
      )
        return true;
    // A resolution on another device after the delete, shown a live cloud version: its result is
    // an edit that person made without seeing the delete.
    // So is one made before the delete whose lines were not in the version the deleting person let
    // go, when the note came back carrying them (seeds 45650, 60645: a "merged" resolution adding
    // only lines that are not markers reached the cloud after the other device's person, shown the
    // version before it, kept their delete; seed 91244: that person had read the line once, in an
    // older version, but not in the one they let go).
    const decided = d.removal.decidedLines;
    return (this.resolutionEdits.get(id) ?? []).some(
      (e) =>
        e.device !== d.device &&
        (e.at > d.at ||
          (e.added.size > 0 &&
            [...e.added].some((l) => liveLines.has(l)) &&
            ![...e.added].some((l) => decided.has(l)))),
    );
  }
}
