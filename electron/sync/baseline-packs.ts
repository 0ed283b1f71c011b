import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../memory/atomic-write.js';
import { missingOr, onUnexpectedError } from '../memory/unexpected-error.js';

/**
 * Many baseline copies in one file: `objects/pack-<16 hex>`. A first sync of 5,000 notes stores one
 * pack (one write, one fsync) instead of 5,000 files (each a temp file, its fsync and a rename).
 *
 *   MDPACK1 <header length, 10 digits>\n   19 bytes
 *   {"objects":[[hash, offset, length], …]}  the header: where each copy's UTF-8 bytes are
 *   the copies, back to back                  offsets count from the end of the header
 *
 * A pack is written once (temp file, fsync, rename, directory fsync) and never changed: an index
 * read once stays true for as long as the file exists. Collecting garbage writes the copies still
 * needed into a new pack before the old one is removed. A pack whose header cannot be read holds
 * nothing as far as the store is concerned: its copies are missing, which a round handles (a full
 * listing, docs/sync-engine.md).
 */

const MAGIC = 'MDPACK1 ';
const PREFIX_BYTES = MAGIC.length + 10 + 1;
const PACK_NAME = /^pack-[0-9a-f]{16}$/;
const HASH = /^[0-9a-f]{64}$/;

export const isPackName = (name: string): boolean => PACK_NAME.test(name);

/** Where one copy is in its pack: byte offset after the header, and byte length. */
interface Place {
  offset: number;
  length: number;
}

export type PackIndex = ReadonlyMap<string, Place>;

/** The bytes of a pack holding `items` (each hash once), and its index. */
export function encodePack(items: ReadonlyArray<{ hash: string; content: string }>): {
  bytes: Buffer;
  index: PackIndex;
} {
  const bodies = items.map((i) => Buffer.from(i.content, 'utf8'));
  let offset = 0;
  const entries = items.map((item, n) => {
    const entry = [item.hash, offset, bodies[n]!.length] as const;
    offset += bodies[n]!.length;
    return entry;
  });
  const header = Buffer.from(JSON.stringify({ objects: entries }), 'utf8');
  const prefix = Buffer.from(`${MAGIC}${String(header.length).padStart(10, '0')}\n`, 'latin1');
  const at = PREFIX_BYTES + header.length;
  const index = new Map(entries.map(([hash, o, length]) => [hash, { offset: at + o, length }]));
  return { bytes: Buffer.concat([prefix, header, ...bodies]), index };
}

/** The header length a pack's prefix states (NaN when it is no number). */
const headerLengthOf = (prefix: Buffer): number => Number(prefix.toString('latin1').slice(MAGIC.length, -1));

/** The index of a pack's header, or null when the header is not a pack's (damaged, cut short). */
export function decodePackHeader(prefix: Buffer, header: Buffer | null, fileSize: number): PackIndex | null {
  const text = prefix.toString('latin1');
  if (prefix.length !== PREFIX_BYTES || !text.startsWith(MAGIC) || !text.endsWith('\n')) return null;
  const headerLength = headerLengthOf(prefix);
  if (!Number.isSafeInteger(headerLength) || header === null || header.length !== headerLength) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(header.toString('utf8'));
  } catch {
    return null;
  }
  const objects = (parsed as { objects?: unknown } | null)?.objects;
  if (!Array.isArray(objects)) return null;
  const bodyBytes = fileSize - PREFIX_BYTES - headerLength;
  const index = new Map<string, Place>();
  for (const entry of objects) {
    if (!Array.isArray(entry) || entry.length !== 3) return null;
    const [hash, offset, length] = entry as unknown[];
    if (typeof hash !== 'string' || !HASH.test(hash)) return null;
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length)) return null;
    const [o, l] = [offset as number, length as number];
    if (o < 0 || l < 0 || o + l > bodyBytes) return null;
    index.set(hash, { offset: PREFIX_BYTES + headerLength + o, length: l });
  }
  return index;
}

/** The copies of one baseline's packs, their indexes read once per pack file. */
export class BaselinePacks {
  private readonly indexes = new Map<string, PackIndex>();

  constructor(private readonly objectsDir: string) {}

  /**
   * The indexes of the packs among `names` (the objects directory's listing): read for packs not
   * seen before, forgotten for packs no longer there. A damaged pack has an empty index.
   */
  async refresh(names: readonly string[]): Promise<ReadonlyMap<string, PackIndex>> {
    const packs = names.filter(isPackName);
    const present = new Set(packs);
    for (const name of this.indexes.keys()) if (!present.has(name)) this.indexes.delete(name);
    for (const name of packs) {
      if (this.indexes.has(name)) continue;
      const index = await this.readIndex(name);
      if (index !== undefined) this.indexes.set(name, index);
    }
    return this.indexes;
  }

  /** A copy's content from the first pack holding it, or null (a pack removed meanwhile: null). */
  async read(hash: string): Promise<string | null> {
    for (const [name, index] of this.indexes) {
      const place = index.get(hash);
      if (!place) continue;
      const bytes = await this.readBytes(name, place.offset, place.length);
      if (bytes !== null) return bytes.toString('utf8');
      this.indexes.delete(name);
    }
    return null;
  }

  has(hash: string): boolean {
    for (const index of this.indexes.values()) if (index.has(hash)) return true;
    return false;
  }

  /** Writes `items` as a new pack (atomically, the directory fsynced) and indexes it. */
  async write(items: ReadonlyArray<{ hash: string; content: string }>): Promise<string> {
    const name = `pack-${randomBytes(8).toString('hex')}`;
    const { bytes, index } = encodePack(items);
    await writeFileAtomic(path.join(this.objectsDir, name), bytes);
    this.indexes.set(name, index);
    return name;
  }

  async remove(name: string): Promise<void> {
    this.indexes.delete(name);
    await fs.rm(path.join(this.objectsDir, name), { force: true });
  }

  /** undefined: the pack is gone (removed between the listing and now). */
  private async readIndex(name: string): Promise<PackIndex | undefined> {
    const file = path.join(this.objectsDir, name);
    // Only a regular file is a pack: a directory or a FIFO of that name holds nothing (and a FIFO
    // would block the open).
    const isFile = await fs.lstat(file).then((st) => st.isFile(), missingOr(null, 'baseline: pack'));
    if (isFile === null) return undefined;
    if (!isFile) return new Map();
    const handle = await this.open(name);
    if (!handle) return undefined;
    try {
      const size = (await handle.stat()).size;
      const prefix = Buffer.alloc(Math.min(PREFIX_BYTES, size));
      await handle.read(prefix, 0, prefix.length, 0);
      const headerLength = headerLengthOf(prefix);
      const header =
        Number.isSafeInteger(headerLength) && headerLength >= 0 && PREFIX_BYTES + headerLength <= size
          ? Buffer.alloc(headerLength)
          : null;
      if (header) await handle.read(header, 0, header.length, PREFIX_BYTES);
      const index = decodePackHeader(prefix, header, size);
      if (!index)
        onUnexpectedError(
          new Error(`${name} is not a readable pack: its copies count as missing`),
          'baseline: pack',
        );
      return index ?? new Map();
    } finally {
      await handle.close();
    }
  }

  /** The pack open for reading; null when it is gone. */
  private open(name: string): Promise<fs.FileHandle | null> {
    return fs.open(path.join(this.objectsDir, name), 'r').catch(missingOr(null, 'baseline: open pack'));
  }

  private async readBytes(name: string, offset: number, length: number): Promise<Buffer | null> {
    const handle = await this.open(name);
    if (!handle) return null;
    try {
      const out = Buffer.alloc(length);
      const { bytesRead } = await handle.read(out, 0, length, offset);
      return bytesRead === length ? out : null;
    } finally {
      await handle.close();
    }
  }
}
