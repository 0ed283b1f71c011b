import { describe, expect, it } from 'vitest';
import { buildIndexText, EMPTY_INDEX_GUIDANCE } from '../../electron/memory/search/index.js';

describe('buildIndexText', () => {
  it('lists one line per note, most recently updated first', () => {
    const r = buildIndexText([
      { id: 'old', scope: 'project', summary: 'Old note', updatedAt: 1 },
      { id: 'new', scope: 'user', type: 'user', summary: 'New\nnote  with\tspaces', updatedAt: 3 },
      { id: 'mid', scope: 'project', type: 'feedback', summary: 'Middle', updatedAt: 2 },
    ]);
    expect(r).toEqual({
      text: '- new [user, user]: New note with spaces\n- mid [project, feedback]: Middle\n- old [project]: Old note',
      shown: 3,
      omitted: 0,
    });
  });

  it('stops at indexChars and counts the rest, never exceeding the limit', () => {
    const notes = Array.from({ length: 200 }, (_, i) => ({
      id: `note-${i}`,
      scope: 'project' as const,
      summary: `Summary number ${i} with a few words`,
      updatedAt: i,
    }));
    for (const limit of [4000, 1000, 300]) {
      const r = buildIndexText(notes, limit);
      expect(r.text.length).toBeLessThanOrEqual(limit);
      expect(r.shown + r.omitted).toBe(200);
      expect(r.omitted).toBeGreaterThan(0);
      expect(r.text.split('\n')).toHaveLength(r.shown + 1);
      expect(r.text.split('\n')[0]).toBe('- note-199 [project]: Summary number 199 with a few words');
      expect(
        r.text.endsWith(`… and ${r.omitted} more notes not shown (search them with the memory tool).`),
      ).toBe(true);
    }
    expect(buildIndexText(notes).shown).toBeGreaterThan(50); // default 4000 characters
  });

  it('shows the two lines of guidance when there are no notes at all', () => {
    const r = buildIndexText([]);
    expect(r).toEqual({ text: EMPTY_INDEX_GUIDANCE, shown: 0, omitted: 0 });
    expect(r.text.split('\n')).toHaveLength(2);
    expect(r.text).toMatch(/remember/);
  });
});
