import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { afterResolving, following, type ConflictRef } from '../../renderer/sync/conflict-store.js';
import { baseLines, CONFLICT_MARKER, linesAgainstBase } from '../../renderer/sync/diff.js';
import { formatBytes } from '../../renderer/sync/format.js';
import { syncUiEn, syncUiZh } from '../../renderer/sync/strings.js';
import { relabelMarkers } from '../../renderer/sync/markers.js';
import { mergeText, MARKER_BASE, MARKER_CLOUD, MARKER_LOCAL } from '../../electron/sync/merge/index.js';

const refs: ConflictRef[] = [
  { id: 'a', scope: 'user' },
  { id: 'b', scope: 'user' },
  { id: 'b', scope: 'project' },
  { id: 'c', scope: 'project' },
];

describe('conflict navigation keeps the person’s place', () => {
  it('after resolving, the next one in the list is shown (the one before at the end, none when it was the last)', () => {
    expect(afterResolving(refs, refs[0]!)).toEqual(refs[1]);
    expect(afterResolving(refs, refs[1]!)).toEqual(refs[2]); // same id, other scope: a different conflict
    expect(afterResolving(refs, refs[3]!)).toEqual(refs[2]);
    expect(afterResolving([refs[0]!], refs[0]!)).toBeNull();
    // Already gone from the list (another device resolved it): start from the top.
    expect(afterResolving(refs, { id: 'zz', scope: 'user' })).toEqual(refs[0]);
  });

  it('"next conflict" wraps around', () => {
    expect(following(refs, refs[3]!)).toEqual(refs[0]);
    expect(following(refs, null)).toEqual(refs[0]);
    expect(following([], null)).toBeNull();
  });
});

describe('three-pane highlighting', () => {
  const base = 'one\ntwo\nthree\n';
  it('marks the lines a side changed and the ones it removed, against the last synced version', () => {
    const local = linesAgainstBase(base, 'one\nTWO here\nthree\n');
    expect(local).toEqual([
      { text: 'one', kind: 'same' },
      { text: 'two', kind: 'removed' },
      { text: 'TWO here', kind: 'changed' },
      { text: 'three', kind: 'same' },
    ]);
    expect(linesAgainstBase(null, 'x\ny').every((l) => l.kind === 'changed')).toBe(true);
  });

  it('marks the base lines either side touched', () => {
    const marked = baseLines(base, ['one\nTWO\nthree\n', 'one\ntwo\nthree\nfour\n', null]);
    expect(marked.map((l) => l.kind)).toEqual(['same', 'changed', 'same']);
  });

  it('recognises conflict markers only at the start of a line', () => {
    expect(CONFLICT_MARKER.test('a\n<<<<<<< this computer\nb')).toBe(true);
    expect(CONFLICT_MARKER.test('a\n=======\nb')).toBe(true);
    expect(CONFLICT_MARKER.test('a <<<<<<< b')).toBe(false);
    expect(CONFLICT_MARKER.test('========== a long rule')).toBe(false);
  });
});

describe('conflict markers in the page’s language', () => {
  const relabel = (text: string, labels: typeof syncUiEn.markerLabels) =>
    EditorState.create({ doc: text })
      .update({ changes: relabelMarkers(text, labels) })
      .state.doc.toString();

  it('the English labels are the ones the core writes', () => {
    expect(MARKER_LOCAL).toBe(`<<<<<<< ${syncUiEn.markerLabels.local}`);
    expect(MARKER_BASE).toBe(`||||||| ${syncUiEn.markerLabels.base}`);
    expect(MARKER_CLOUD).toBe(`>>>>>>> ${syncUiEn.markerLabels.cloud}`);
  });

  it('relabels a core draft in Chinese and back; both still read as markers; text around is untouched', () => {
    const merged = mergeText('a\nb\nc\n', 'a\nB here\nc\n', 'a\nb there\nc\n');
    expect(merged.clean).toBe(false);
    const zh = relabel(merged.text, syncUiZh.markerLabels);
    expect(zh).toContain('<<<<<<< 这台电脑\nB here\n||||||| 上次同步\nb\n=======\nb there\n>>>>>>> 云端\n');
    expect(zh.startsWith('a\n')).toBe(true);
    expect(CONFLICT_MARKER.test(zh)).toBe(true);
    expect(relabel(zh, syncUiEn.markerLabels)).toBe(merged.text);
  });

  it('leaves a marker line the person labelled themselves, and a label mid-line', () => {
    const text = '<<<<<<< mine\nx <<<<<<< this computer\n>>>>>>> cloud\n';
    expect(relabel(text, syncUiZh.markerLabels)).toBe(
      '<<<<<<< mine\nx <<<<<<< this computer\n>>>>>>> 云端\n',
    );
  });
});

describe('sync strings', () => {
  it('English and Chinese have the same keys, and the seed’s terms verbatim', () => {
    const keys = (o: object, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'object' ? keys(v as object, `${p}${k}.`) : [`${p}${k}`],
      );
    expect(keys(syncUiZh).sort()).toEqual(keys(syncUiEn).sort());
    expect(syncUiZh.turnOff).toBe('关闭云同步');
    expect(syncUiZh.syncNow).toBe('立即同步');
    expect(syncUiEn.turnOff).toContain('关闭云同步');
    expect(syncUiEn.rateLimited).toContain('too often and will retry');
    expect(syncUiEn.enc.lineOff).toContain('not end-to-end encrypted');
    expect(syncUiZh.enc.lineOff).toContain('不是端到端加密');
  });

  it('formats plan sizes', () => {
    expect(formatBytes(32768)).toBe('32 KiB');
    expect(formatBytes(128 * 1024 * 1024)).toBe('128 MiB');
    expect(formatBytes(500)).toBe('500 B');
  });
});
