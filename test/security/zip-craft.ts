import zlib from 'node:zlib';

/**
 * Hand-built zip archives for hostile-input tests: entries whose central directory says what the
 * test wants (a declared size that lies), with raw deflate data supplied by the test.
 */
export interface CraftedEntry {
  name: string;
  /** Raw deflate data (method 8). */
  deflated: Uint8Array;
  declaredSize: number;
}

export function craftZip(entries: CraftedEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(e.deflated.length, 18);
    local.writeUInt32LE(e.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(e.deflated.length, 20);
    central.writeUInt32LE(e.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(e.deflated));
    centrals.push(central, name);
    offset += local.length + name.length + e.deflated.length;
  }
  const dir = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(dir.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, dir, eocd]));
}

/**
 * Raw deflate data for `mib` MiB of zeros, built from one 1 MiB segment repeated: each segment ends
 * in a full flush (byte-aligned, history reset), so copies chain; `03 00` is an empty final block.
 */
export function deflatedZeros(mib: number): Uint8Array {
  const segment = zlib.deflateRawSync(Buffer.alloc(1 << 20), {
    level: 9,
    finishFlush: zlib.constants.Z_FULL_FLUSH,
  });
  return new Uint8Array(Buffer.concat([...Array<Buffer>(mib).fill(segment), Buffer.from([0x03, 0x00])]));
}
