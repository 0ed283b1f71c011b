import { promises as fs } from 'node:fs';
import { endianness } from 'node:os';
import { crc32 } from 'node:zlib';
import { z } from '../../../shared/zod-mini.js';
import { writeFileAtomic } from '../atomic-write.js';

/**
 * One scope's note vectors on this machine (`memory-vectors/<scope key>.vec`), binary:
 *
 *   "MDVEC\n"  u32 header length  header JSON {format, version, space, dims, count, endian}
 *   count × record: u16 id bytes, id, u16 key bytes, key, dims × float32, u32 CRC-32 of the
 *   record's bytes before it
 *
 * Float32 in the writer's byte order (the header says which; another order reads as empty), so
 * 10,000 notes × 768 dimensions take ~31 MB instead of ~41 MB of base64 JSON, and load with one
 * copy per vector instead of a parse. Vectors of another endpoint or model (`space`) are never
 * compared, so a file of another space reads as empty. Like the usage counts, the file is a cache:
 * never a wrong answer — a record whose CRC or length does not match is dropped (its note is
 * embedded again), and a bad header drops the file. Written atomically. The JSON files of the
 * first version (`<scope key>.json`) are read once and replaced by the binary file.
 */
const MAGIC = Buffer.from('MDVEC\n', 'latin1');
const VERSION = 2;
const HeaderSchema = z.object({
  format: z.literal('memdesk-vectors'),
  version: z.literal(VERSION),
  space: z.string(),
  dims: z.int().check(z.gte(1), z.lte(65_536)),
  count: z.int().check(z.gte(0)),
  endian: z.enum(['LE', 'BE']),
});
/** The first version's JSON file: per note id [key, base64 float32]. */
const LegacyFileSchema = z.object({
  version: z.literal(1),
  space: z.string(),
  notes: z.record(z.string(), z.tuple([z.string(), z.string()])),
});
const HEADER_MAX = 64 * 1024;

export interface NoteVector {
  /** What the vector was computed from (see semantic-recall.ts `textKey`). */
  key: string;
  vector: Float32Array;
}

export function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  const len = Math.sqrt(n);
  if (len > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / len;
  return v;
}

/** `<stem>.vec` for `<stem>.vec` or a legacy `<stem>.json`. */
function legacyPath(file: string): string {
  return file.replace(/\.vec$/, '.json');
}

async function readOptional(file: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The vectors of `space` in a binary file; the records that check out (see above). */
export function decodeVectors(buf: Buffer, space: string): Map<string, NoteVector> {
  const out = new Map<string, NoteVector>();
  if (buf.length < MAGIC.length + 4 || !buf.subarray(0, MAGIC.length).equals(MAGIC)) return out;
  const headerLength = buf.readUInt32LE(MAGIC.length);
  const start = MAGIC.length + 4;
  if (headerLength > HEADER_MAX || start + headerLength > buf.length) return out;
  let header;
  try {
    header = HeaderSchema.safeParse(JSON.parse(buf.toString('utf8', start, start + headerLength)));
  } catch {
    return out;
  }
  if (!header.success) return out;
  const { dims, count, endian } = header.data;
  if (header.data.space !== space || endian !== endianness()) return out;
  let o = start + headerLength;
  for (let r = 0; r < count; r++) {
    const recordStart = o;
    if (o + 2 > buf.length) break;
    const idBytes = buf.readUInt16LE(o);
    o += 2 + idBytes;
    if (o + 2 > buf.length) break;
    const keyBytes = buf.readUInt16LE(o);
    const keyStart = o + 2;
    o = keyStart + keyBytes + dims * 4;
    if (o + 4 > buf.length) break; // truncated: the rest is embedded again
    const crcOk = crc32(buf.subarray(recordStart, o)) === buf.readUInt32LE(o);
    o += 4;
    if (!crcOk) continue; // a damaged record: its note is embedded again
    const id = buf.toString('utf8', recordStart + 2, recordStart + 2 + idBytes);
    const key = buf.toString('utf8', keyStart, keyStart + keyBytes);
    const vector = new Float32Array(dims);
    // Copied: the record's offset in the file need not be 4-aligned.
    Buffer.from(vector.buffer).set(buf.subarray(keyStart + keyBytes, keyStart + keyBytes + dims * 4));
    out.set(id, { key, vector });
  }
  return out;
}

/** The binary file's bytes for `vectors` (all of one dimension; others are left out). */
export function encodeVectors(space: string, vectors: ReadonlyMap<string, NoteVector>): Buffer {
  const dims = vectors.values().next().value?.vector.length ?? 1;
  const kept = [...vectors].filter(([, v]) => v.vector.length === dims);
  const header = Buffer.from(
    JSON.stringify({
      format: 'memdesk-vectors',
      version: VERSION,
      space,
      dims,
      count: kept.length,
      endian: endianness(),
    }),
    'utf8',
  );
  const parts: Buffer[] = [MAGIC, u32(header.length), header];
  for (const [id, v] of kept) {
    const idBuf = Buffer.from(id, 'utf8');
    const keyBuf = Buffer.from(v.key, 'utf8');
    const record = Buffer.concat([
      u16(idBuf.length),
      idBuf,
      u16(keyBuf.length),
      keyBuf,
      Buffer.from(v.vector.buffer, v.vector.byteOffset, v.vector.byteLength),
    ]);
    parts.push(record, u32(crc32(record)));
  }
  return Buffer.concat(parts);
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

function decodeLegacy(text: string, space: string): Map<string, NoteVector> {
  try {
    const parsed = LegacyFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success || parsed.data.space !== space) return new Map();
    return new Map(
      Object.entries(parsed.data.notes).map(([id, [key, v]]) => {
        const b = Buffer.from(v, 'base64');
        const vector = new Float32Array(Math.floor(b.length / 4));
        Buffer.from(vector.buffer).set(b.subarray(0, vector.length * 4));
        return [id, { key, vector }];
      }),
    );
  } catch {
    return new Map();
  }
}

/**
 * The vectors in `file` (`<scope key>.vec`) of `space`; empty when absent or unusable. A legacy
 * JSON file beside it is migrated: its vectors written to `file`, then it is removed.
 */
export async function readVectorFile(file: string, space: string): Promise<Map<string, NoteVector>> {
  const buf = await readOptional(file);
  if (buf) return decodeVectors(buf, space);
  const legacy = await readOptional(legacyPath(file));
  if (!legacy) return new Map();
  const vectors = decodeLegacy(legacy.toString('utf8'), space);
  if (vectors.size > 0) await writeVectorFile(file, space, vectors);
  await fs.rm(legacyPath(file), { force: true });
  return vectors;
}

export async function writeVectorFile(
  file: string,
  space: string,
  vectors: ReadonlyMap<string, NoteVector>,
): Promise<void> {
  await writeFileAtomic(file, encodeVectors(space, vectors));
}
