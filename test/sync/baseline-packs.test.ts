import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodePackHeader, encodePack, isPackName } from '../../electron/sync/baseline-packs.js';
import { BaselineStore } from '../../electron/sync/baseline-store.js';

/**
 * The baseline's copies in packs (electron/sync/baseline-packs.ts): a round that stores many copies
 * writes one file; every copy reads back, from this store and from another process's; garbage
 * collection keeps every copy still named; a damaged or vanished pack means missing copies, never
 * wrong content or a thrown round.
 */
let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'memdesk-packs-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

let serial = 0;
function copies(n: number, label = 'note'): Array<{ hash: string; content: string }> {
  return Array.from({ length: n }, (_, i) => {
    const content = `{"id":"${label}-${i}","summary":"s"}\n\nbody ${serial++} 部署 ✓ ${'x'.repeat(i * 37)}\n`;
    return { hash: createHash('sha256').update(content).digest('hex'), content };
  });
}
const names = async (store: BaselineStore): Promise<string[]> => (await fs.readdir(store.objectsDir)).sort();

describe('baseline packs', () => {
  it('many copies go into one pack file and read back here and in a new store (another process)', async () => {
    const store = new BaselineStore(dir, 'user');
    const items = copies(40);
    await store.putObjects([...items, items[0]!]); // a hash given twice is stored once
    const files = await names(store);
    expect(files).toHaveLength(1);
    expect(isPackName(files[0]!)).toBe(true);
    for (const other of [store, new BaselineStore(dir, 'user')]) {
      expect(await other.listObjects()).toEqual(new Set(items.map((i) => i.hash)));
      for (const item of items) {
        expect(await other.getObject(item.hash)).toBe(item.content);
        expect(await other.hasObject(item.hash)).toBe(true);
      }
    }
    // Stored again: nothing new is written.
    await store.putObjects(items);
    expect(await names(store)).toEqual(files);
  });

  it('a few copies are files of their own; a copy already packed is not written again', async () => {
    const store = new BaselineStore(dir, 'user');
    const packed = copies(10);
    await store.putObjects(packed);
    const few = copies(3, 'few');
    await store.putObjects([...few, packed[0]!]);
    await store.putObject(packed[1]!.hash, packed[1]!.content);
    const files = await names(store);
    expect(files.filter(isPackName)).toHaveLength(1);
    expect(files.filter((f) => !isPackName(f)).sort()).toEqual(few.map((f) => f.hash).sort());
    for (const item of [...packed, ...few]) expect(await store.getObject(item.hash)).toBe(item.content);
  });

  it('garbage collection keeps every copy still named: a mostly dead pack is rewritten, a dead one removed', async () => {
    const store = new BaselineStore(dir, 'user');
    const first = copies(20, 'first');
    const second = copies(10, 'second');
    await store.putObjects(first);
    await store.putObjects(second);
    const loose = copies(2, 'loose');
    await store.putObjects(loose);
    // Keep 5 of the first pack (under half), 6 of the second (over half), none of the loose copies.
    const keep = new Set([...first.slice(0, 5), ...second.slice(0, 6)].map((c) => c.hash));
    const removed = await store.collectGarbage(keep);
    expect(removed).toBe(15 + 2);
    for (const store2 of [store, new BaselineStore(dir, 'user')]) {
      expect(await store2.listObjects()).toEqual(new Set([...keep, ...second.slice(6).map((c) => c.hash)]));
      for (const c of [...first.slice(0, 5), ...second])
        expect(await store2.getObject(c.hash)).toBe(c.content);
      for (const c of [...first.slice(5), ...loose]) expect(await store2.getObject(c.hash)).toBeNull();
    }
    expect((await names(store)).filter(isPackName)).toHaveLength(2);

    // Nothing named any more: every pack goes.
    await store.collectGarbage(new Set());
    expect(await names(store)).toEqual([]);
  });

  it('more than eight packs are merged into the largest and one more, nothing kept lost', async () => {
    const store = new BaselineStore(dir, 'user');
    const all: Array<{ hash: string; content: string }> = [];
    for (let p = 0; p < 10; p++) {
      const batch = copies(8 + p, `batch${p}`);
      all.push(...batch);
      await store.putObjects(batch);
    }
    expect((await names(store)).filter(isPackName)).toHaveLength(10);
    const keep = new Set(all.map((c) => c.hash));
    expect(await store.collectGarbage(keep)).toBe(0);
    expect((await names(store)).filter(isPackName)).toHaveLength(2);
    const fresh = new BaselineStore(dir, 'user');
    expect(await fresh.listObjects()).toEqual(keep);
    for (const c of all) expect(await fresh.getObject(c.hash)).toBe(c.content);
  });

  it('a damaged pack holds nothing (its copies are missing, nothing throws) and is collected', async () => {
    const store = new BaselineStore(dir, 'user');
    const items = copies(12);
    await store.putObjects(items);
    const [pack] = await names(store);
    const file = path.join(store.objectsDir, pack!);
    const bytes = await fs.readFile(file);
    for (const damage of [bytes.subarray(0, 30), Buffer.from('not a pack at all'), Buffer.alloc(0)]) {
      await fs.writeFile(file, damage);
      const fresh = new BaselineStore(dir, 'user');
      expect(await fresh.listObjects()).toEqual(new Set());
      expect(await fresh.getObject(items[0]!.hash)).toBeNull();
      expect(await fresh.hasObject(items[0]!.hash)).toBe(false);
    }
    await new BaselineStore(dir, 'user').collectGarbage(new Set(items.map((i) => i.hash)));
    expect(await names(store)).toEqual([]);
  });

  it('a directory named like a pack holds nothing and stops no round', async () => {
    const store = new BaselineStore(dir, 'user');
    const items = copies(9);
    await store.putObjects(items);
    await fs.mkdir(path.join(store.objectsDir, 'pack-0123456789abcdef'));
    const fresh = new BaselineStore(dir, 'user');
    expect(await fresh.listObjects()).toEqual(new Set(items.map((i) => i.hash)));
    expect(await fresh.getObject(items[3]!.hash)).toBe(items[3]!.content);
  });

  it('a pack removed by another process after it was indexed reads as missing', async () => {
    const store = new BaselineStore(dir, 'user');
    const items = copies(9);
    await store.putObjects(items);
    expect(await store.getObject(items[0]!.hash)).toBe(items[0]!.content);
    await fs.rm(store.objectsDir, { recursive: true });
    expect(await store.getObject(items[1]!.hash)).toBeNull();
    expect(await store.hasObject(items[1]!.hash)).toBe(false);
    expect(await store.listObjects()).toEqual(new Set());
    // And is written again when a round stores those copies again.
    await store.putObjects(items);
    expect(await store.getObject(items[1]!.hash)).toBe(items[1]!.content);
  });

  it('a temp file left by a write killed midway is not read as a pack, and is collected', async () => {
    const store = new BaselineStore(dir, 'user');
    const items = copies(9);
    await store.putObjects(items);
    const [pack] = await names(store);
    const leftover = `.${pack}.1234.deadbeef.tmp`;
    await fs.writeFile(
      path.join(store.objectsDir, leftover),
      (await fs.readFile(path.join(store.objectsDir, pack!))).subarray(0, 100),
    );
    expect(await new BaselineStore(dir, 'user').listObjects()).toEqual(new Set(items.map((i) => i.hash)));
    await store.collectGarbage(new Set(items.map((i) => i.hash)));
    expect(await names(store)).toEqual([pack]);
  });

  it('encodePack → decodePackHeader places every copy at its bytes (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.stringMatching(/^[0-9a-f]{64}$/), fc.string({ unit: 'grapheme' })), {
          selector: (t) => t[0],
          maxLength: 30,
        }),
        (pairs) => {
          const items = pairs.map(([hash, content]) => ({ hash, content }));
          const { bytes, index: written } = encodePack(items);
          const headerLength = Number(bytes.subarray(8, 18).toString('latin1'));
          const index = decodePackHeader(
            bytes.subarray(0, 19),
            bytes.subarray(19, 19 + headerLength),
            bytes.length,
          )!;
          expect(index.size).toBe(items.length);
          expect(written).toEqual(index); // what a store keeps for a pack it wrote
          for (const item of items) {
            const place = index.get(item.hash)!;
            expect(bytes.subarray(place.offset, place.offset + place.length).toString('utf8')).toBe(
              item.content,
            );
          }
          // Cut short anywhere in the header or the copies: refused, never misread.
          const cut = Math.max(19, bytes.length - 1);
          if (items.some((i) => i.content.length > 0))
            expect(
              decodePackHeader(bytes.subarray(0, 19), bytes.subarray(19, 19 + headerLength), cut),
            ).toBeNull();
        },
      ),
    );
  });
});
