/**
 * A line diff: Myers' O(ND) algorithm with the linear-space middle-snake split, followed by the
 * same hunk "compaction" git's xdiff does (slide each change group as far down as it goes, then back
 * up to line up with a change on the other side), so ambiguous edits (a repeated line inserted next
 * to its twin) land where `git merge-file` puts them.
 *
 * Works on interned lines (numbers). Deterministic: no time limit, no heuristics that cut corners.
 */

/** A maximal run of changed lines: a[aStart, aEnd) was replaced by b[bStart, bEnd). */
export interface Hunk {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

/** The two files being compared and which of their lines are marked changed so far. */
interface Comparison {
  a: Int32Array;
  b: Int32Array;
  changedA: Uint8Array;
  changedB: Uint8Array;
}

export function diffLines(a: Int32Array, b: Int32Array): Hunk[] {
  const c: Comparison = {
    a,
    b,
    changedA: new Uint8Array(a.length + 1),
    changedB: new Uint8Array(b.length + 1),
  };
  compare(c, 0, a.length, 0, b.length);
  compact(a, c.changedA, c.changedB, b.length);
  compact(b, c.changedB, c.changedA, a.length);
  return hunksFromMarks(a.length, b.length, c.changedA, c.changedB);
}

/** Marks the lines that differ between a[aLo, aHi) and b[bLo, bHi). */
function compare(c: Comparison, aLo: number, aHi: number, bLo: number, bHi: number): void {
  const { a, b } = c;
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
    aLo++;
    bLo++;
  }
  while (aLo < aHi && bLo < bHi && a[aHi - 1] === b[bHi - 1]) {
    aHi--;
    bHi--;
  }
  const split = aLo === aHi || bLo === bHi ? null : middleSnake(c, aLo, aHi, bLo, bHi);
  if (split === null) {
    c.changedA.fill(1, aLo, aHi);
    c.changedB.fill(1, bLo, bHi);
    return;
  }
  compare(c, aLo, aLo + split[0], bLo, bLo + split[1]);
  compare(c, aLo + split[0], aHi, bLo + split[1], bHi);
}

/**
 * Finds where a shortest edit path crosses the middle (Myers 1986, section 4b), searching from both
 * ends at once. Returns the split point relative to (aLo, bLo); null when nothing matches.
 *
 * The two searches are one loop run twice per edit distance d: side 0 walks forward from (aLo, bLo),
 * side 1 backward from (aHi, bHi). `reach[side][offset + k]` is how far a search has come along
 * diagonal k (x counted from its own end; -1 not yet); diagonals that ran off an edge of the grid
 * are cut from its low (`kStart`) and high (`kEnd`) side. The direction is a branch inside the snake
 * rather than a step to multiply by: measured, the multiply cost ~15% of diffLines, the branch nothing.
 */
function middleSnake(
  { a, b }: Comparison,
  aLo: number,
  aHi: number,
  bLo: number,
  bHi: number,
): [number, number] | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const maxD = Math.ceil((n + m) / 2);
  const offset = maxD;
  const size = 2 * maxD + 2;
  const reach = [new Int32Array(size).fill(-1), new Int32Array(size).fill(-1)] as const;
  reach[0][offset + 1] = 0;
  reach[1][offset + 1] = 0;
  const kStart = [0, 0];
  const kEnd = [0, 0];
  const delta = n - m;
  // With an odd delta the forward search meets the reverse one; with an even delta, the reverse.
  const meetingSide = delta % 2 !== 0 ? 0 : 1;
  for (let d = 0; d < maxD; d++) {
    for (let side = 0; side < 2; side++) {
      const forward = side === 0;
      const mine = reach[side]!;
      const other = reach[1 - side]!;
      let cutLow = kStart[side]!;
      let cutHigh = kEnd[side]!;
      for (let k = -d + cutLow; k <= d - cutHigh; k += 2) {
        const kOff = offset + k;
        let x: number;
        if (k === -d || (k !== d && mine[kOff - 1]! < mine[kOff + 1]!)) x = mine[kOff + 1]!;
        else x = mine[kOff - 1]! + 1;
        let y = x - k;
        while (x < n && y < m && (forward ? a[aLo + x] === b[bLo + y] : a[aHi - 1 - x] === b[bHi - 1 - y])) {
          x++;
          y++;
        }
        mine[kOff] = x;
        if (x > n) cutHigh += 2;
        else if (y > m) cutLow += 2;
        else if (side === meetingSide) {
          // The other search's diagonal through the same point, and how far it has come on it.
          const oOff = offset + delta - k;
          const otherX = oOff >= 0 && oOff < size ? other[oOff]! : -1;
          if (otherX !== -1 && x + otherX >= n) return forward ? [x, y] : [otherX, otherX - (delta - k)];
        }
      }
      kStart[side] = cutLow;
      kEnd[side] = cutHigh;
    }
  }
  return null;
}

/**
 * git's xdl_change_compact without the indent heuristic: for every group of changed lines in `rec`,
 * slide it up as far as it goes, then down as far as it goes, and if some position lines it up with
 * a change in the other file, move it back up to the lowest such position.
 */
function compact(rec: Int32Array, changed: Uint8Array, otherChanged: Uint8Array, otherLength: number): void {
  const n = rec.length;
  // `g` is a group [start, end) of changed lines in this file; `go` the matching group in the other.
  const g = { start: 0, end: 0 };
  const go = { start: 0, end: 0 };
  const groupInit = (changes: Uint8Array, grp: { start: number; end: number }, len: number) => {
    grp.start = 0;
    grp.end = 0;
    while (grp.end < len && changes[grp.end]) grp.end++;
  };
  const groupNext = (changes: Uint8Array, grp: { start: number; end: number }, len: number): boolean => {
    if (grp.end === len) return false;
    grp.start = grp.end + 1;
    grp.end = grp.start;
    while (grp.end < len && changes[grp.end]) grp.end++;
    return true;
  };
  const groupPrevious = (changes: Uint8Array, grp: { start: number; end: number }): boolean => {
    if (grp.start === 0) return false;
    grp.end = grp.start - 1;
    grp.start = grp.end;
    while (grp.start > 0 && changes[grp.start - 1]) grp.start--;
    return true;
  };
  const slideDown = (): boolean => {
    if (g.end < n && rec[g.start] === rec[g.end]) {
      changed[g.start++] = 0;
      changed[g.end++] = 1;
      while (g.end < n && changed[g.end]) g.end++;
      return true;
    }
    return false;
  };
  const slideUp = (): boolean => {
    if (g.start > 0 && rec[g.start - 1] === rec[g.end - 1]) {
      changed[--g.start] = 1;
      changed[--g.end] = 0;
      while (g.start > 0 && changed[g.start - 1]) g.start--;
      return true;
    }
    return false;
  };

  groupInit(changed, g, n);
  groupInit(otherChanged, go, otherLength);
  for (;;) {
    if (g.end !== g.start) {
      let groupSize: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        groupSize = g.end - g.start;
        endMatchingOther = -1;
        while (slideUp()) groupPrevious(otherChanged, go);
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        for (;;) {
          if (!slideDown()) break;
          groupNext(otherChanged, go, otherLength);
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (groupSize !== g.end - g.start);
      if (g.end !== earliestEnd && endMatchingOther !== -1) {
        while (go.end === go.start) {
          slideUp();
          groupPrevious(otherChanged, go);
        }
      }
    }
    if (!groupNext(changed, g, n)) break;
    groupNext(otherChanged, go, otherLength);
  }
}

function hunksFromMarks(n: number, m: number, changedA: Uint8Array, changedB: Uint8Array): Hunk[] {
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if ((i < n && changedA[i]) || (j < m && changedB[j])) {
      const aStart = i;
      const bStart = j;
      while (i < n && changedA[i]) i++;
      while (j < m && changedB[j]) j++;
      hunks.push({ aStart, aEnd: i, bStart, bEnd: j });
    } else {
      i++;
      j++;
    }
  }
  return hunks;
}
