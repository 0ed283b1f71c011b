import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../shared/map-limit.js';

describe('mapLimit (the one bounded-concurrency helper)', () => {
  it('keeps order, never runs more than the limit at once, and uses the limit when there is work', async () => {
    let running = 0;
    let peak = 0;
    const items = Array.from({ length: 40 }, (_, i) => i);
    const out = await mapLimit(items, 6, async (i) => {
      running++;
      peak = Math.max(peak, running);
      // Later items finish first: order must still follow the input.
      await new Promise((r) => setImmediate(r));
      if (i % 2) await new Promise((r) => setImmediate(r));
      running--;
      return i * i;
    });
    expect(out).toEqual(items.map((i) => i * i));
    expect(peak).toBe(6);
    expect(await mapLimit([], 4, async () => 1)).toEqual([]);
  });

  it('rejects with the first failure', async () => {
    await expect(
      mapLimit([1, 2, 3], 2, async (i) => {
        if (i === 2) throw new Error('item 2 failed');
        return i;
      }),
    ).rejects.toThrow('item 2 failed');
  });
});
