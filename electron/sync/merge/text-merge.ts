import { diffLines, type Hunk } from './line-diff.js';
import { LineInterner, sliceLines, toLines, type LineText } from './lines.js';
import { MARKER_BASE, MARKER_CLOUD, MARKER_LOCAL, MARKER_SEPARATOR } from './markers.js';
import type { TextConflict, TextMergeResult } from './types.js';

/** A change one side made: base lines [start, end) became that side's lines [sideStart, sideEnd). */
interface SideHunk {
  side: 0 | 1; // 0 = local, 1 = cloud
  start: number;
  end: number;
  sideStart: number;
  sideEnd: number;
}

/**
 * The conservative line-wise three-way merge (diff3). Each side is diffed against the base; changes
 * that touch — overlap, or sit on adjacent lines, or an insertion right before / after / inside
 * the other side's change — are grouped into one region. A region changed by one side takes that
 * side; a region both sides changed to the same lines is clean; anything else is a conflict. Plain
 * diff3 would combine edits on adjacent lines; the rule here (R-SYNC-MERGE) does not.
 *
 * CRLF / CR are normalised to LF first. The final newline belongs to the last line (see docs/merge.md).
 */
export function mergeText(base: string, local: string, cloud: string): TextMergeResult {
  const baseLines = toLines(base);
  const localLines = toLines(local);
  const cloudLines = toLines(cloud);
  const interner = new LineInterner();
  const b = interner.intern(baseLines);
  const l = interner.intern(localLines);
  const c = interner.intern(cloudLines);

  const changes = sortedChanges(diffLines(b, l), diffLines(b, c));
  const out: string[] = [];
  const hunks: TextConflict[] = [];
  let lineNo = 1; // the 1-based line number the next output line will have
  const emit = (lines: LineText, from: number, to: number) => {
    if (from < to) out.push(sliceLines(lines, from, to));
    lineNo += to - from;
  };

  let basePos = 0;
  let i = 0;
  while (i < changes.length) {
    // Group every change that touches the region so far (overlapping or adjacent).
    const first = changes[i]!;
    let start = first.start;
    let end = first.end;
    const group: SideHunk[] = [first];
    i++;
    while (i < changes.length && changes[i]!.start <= end) {
      const next = changes[i]!;
      end = Math.max(end, next.end);
      start = Math.min(start, next.start);
      group.push(next);
      i++;
    }
    emit(baseLines, basePos, start);
    basePos = end;

    const fromLocal = group.filter((h) => h.side === 0);
    const fromCloud = group.filter((h) => h.side === 1);
    if (fromCloud.length === 0) {
      const [s, e] = sideRange(fromLocal, start, end);
      emit(localLines, s, e);
      continue;
    }
    if (fromLocal.length === 0) {
      const [s, e] = sideRange(fromCloud, start, end);
      emit(cloudLines, s, e);
      continue;
    }
    const [ls, le] = sideRange(fromLocal, start, end);
    const [cs, ce] = sideRange(fromCloud, start, end);
    if (sameLines(l, ls, le, c, cs, ce)) {
      emit(localLines, ls, le);
      continue;
    }
    const conflict: TextConflict = {
      markerLine: lineNo,
      local: sliceLines(localLines, ls, le),
      base: sliceLines(baseLines, start, end),
      cloud: sliceLines(cloudLines, cs, ce),
    };
    hunks.push(conflict);
    lineNo += pushConflict(out, conflict);
  }
  emit(baseLines, basePos, baseLines.count);

  const text = out.join('');
  return hunks.length === 0 ? { clean: true, text } : { clean: false, text, hunks };
}

/**
 * A two-way draft for a note with no baseline copy: lines both sides share stay, every region where
 * they differ becomes a conflict (markers without the `|||||||` section, since there is no base).
 */
export function mergeTextWithoutBase(local: string, cloud: string): TextMergeResult {
  const localLines = toLines(local);
  const cloudLines = toLines(cloud);
  const interner = new LineInterner();
  const l = interner.intern(localLines);
  const c = interner.intern(cloudLines);
  const out: string[] = [];
  const hunks: TextConflict[] = [];
  let lineNo = 1;
  let li = 0;
  for (const h of diffLines(l, c)) {
    if (li < h.aStart) out.push(sliceLines(localLines, li, h.aStart));
    lineNo += h.aStart - li;
    const conflict: TextConflict = {
      markerLine: lineNo,
      local: sliceLines(localLines, h.aStart, h.aEnd),
      base: null,
      cloud: sliceLines(cloudLines, h.bStart, h.bEnd),
    };
    hunks.push(conflict);
    lineNo += pushConflict(out, conflict);
    li = h.aEnd;
  }
  if (li < localLines.count) out.push(sliceLines(localLines, li, localLines.count));
  const text = out.join('');
  return hunks.length === 0 ? { clean: true, text } : { clean: false, text, hunks };
}

/** Appends one conflict block; returns how many lines it took. */
function pushConflict(out: string[], conflict: TextConflict): number {
  let lines = 0;
  const section = (marker: string, text: string) => {
    out.push(marker + '\n');
    lines++;
    if (text === '') return;
    // A side whose last line has no newline still needs the next marker on a line of its own.
    out.push(text.endsWith('\n') ? text : text + '\n');
    lines += countNewlines(text) + (text.endsWith('\n') ? 0 : 1);
  };
  section(MARKER_LOCAL, conflict.local);
  if (conflict.base !== null) section(MARKER_BASE, conflict.base);
  section(MARKER_SEPARATOR, conflict.cloud);
  out.push(MARKER_CLOUD + '\n');
  return lines + 1;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

function sortedChanges(local: Hunk[], cloud: Hunk[]): SideHunk[] {
  const toSide =
    (side: 0 | 1) =>
    (h: Hunk): SideHunk => ({
      side,
      start: h.aStart,
      end: h.aEnd,
      sideStart: h.bStart,
      sideEnd: h.bEnd,
    });
  const all = [...local.map(toSide(0)), ...cloud.map(toSide(1))];
  // By start; at equal starts the insertion (empty range) first, so it groups with what follows.
  all.sort((x, y) => x.start - y.start || x.end - y.end || x.side - y.side);
  return all;
}

/** The lines one side has for base region [start, end), given that side's changes inside it. */
function sideRange(hunks: readonly SideHunk[], start: number, end: number): [number, number] {
  const first = hunks[0]!;
  const last = hunks[hunks.length - 1]!;
  return [first.sideStart - (first.start - start), last.sideEnd + (end - last.end)];
}

function sameLines(x: Int32Array, xs: number, xe: number, y: Int32Array, ys: number, ye: number): boolean {
  if (xe - xs !== ye - ys) return false;
  for (let k = 0; k < xe - xs; k++) if (x[xs + k] !== y[ys + k]) return false;
  return true;
}
