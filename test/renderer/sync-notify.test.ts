import { describe, expect, it } from 'vitest';
import { ConflictTracker } from '../../electron/main/sync-conflict-tracker.js';

describe('conflict notifications: only conflicts that are new since the last list', () => {
  it('is quiet about what waited at start, names new ones once, and again after one came back', () => {
    const t = new ConflictTracker();
    const a = { id: 'a', scope: 'user' };
    const b = { id: 'b', scope: 'user' };
    const bProject = { id: 'b', scope: 'project' };
    expect(t.update([a])).toEqual([]);
    expect(t.update([a, b])).toEqual([b]);
    expect(t.update([a, b])).toEqual([]);
    expect(t.update([a, b, bProject])).toEqual([bProject]);
    expect(t.update([a])).toEqual([]);
    expect(t.update([a, b])).toEqual([b]);
  });
});
