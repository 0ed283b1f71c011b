import DiffMatchPatch from 'diff-match-patch';

export type DiffLine = { text: string; kind: 'same' | 'changed' | 'removed' };

/**
 * A side's body against the last synced version, line by line: lines this side added or changed
 * are 'changed', lines it removed are shown struck through ('removed'). With no last synced
 * version every line counts as changed.
 */
export function linesAgainstBase(base: string | null, side: string): DiffLine[] {
  if (base === null) return splitLines(side).map((text) => ({ text, kind: 'changed' }));
  const dmp = new DiffMatchPatch();
  const { chars1, chars2, lineArray } = dmp.diff_linesToChars_(base, side);
  const diffs = dmp.diff_main(chars1, chars2, false);
  dmp.diff_charsToLines_(diffs, lineArray);
  const out: DiffLine[] = [];
  for (const [op, text] of diffs) {
    for (const line of splitLines(text))
      out.push({ text: line, kind: op === 0 ? 'same' : op > 0 ? 'changed' : 'removed' });
  }
  return out;
}

/** The base's lines, marked where either side changed or removed them. */
export function baseLines(base: string, sides: ReadonlyArray<string | null>): DiffLine[] {
  const touched = new Set<number>();
  const dmp = new DiffMatchPatch();
  for (const side of sides) {
    if (side === null) continue;
    const { chars1, chars2, lineArray } = dmp.diff_linesToChars_(base, side);
    const diffs = dmp.diff_main(chars1, chars2, false);
    dmp.diff_charsToLines_(diffs, lineArray);
    let i = 0;
    for (const [op, text] of diffs) {
      const n = splitLines(text).length;
      if (op < 0) for (let k = 0; k < n; k++) touched.add(i + k);
      if (op <= 0) i += n;
    }
  }
  return splitLines(base).map((text, i) => ({ text, kind: touched.has(i) ? 'changed' : 'same' }));
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  return text.replace(/\n$/, '').split('\n');
}

export const CONFLICT_MARKER = /^(<{7}|={7}|>{7}|\|{7})( |$)/m;
