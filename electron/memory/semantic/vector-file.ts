import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../atomic-write.js';

/**
 * One scope's note vectors on this machine (`memory-vectors/<scope key>.json`): per note id the key
 * of the text it was embedded from and the unit-length vector (float32, base64). Vectors of another
 * endpoint or model (`space`) are never compared, so a file of another space reads as empty. Like
 * the usage counts, the file is a cache: anything unreadable is rebuilt by embedding again.
 */
const VectorFileSchema = z.object({
  version: z.literal(1),
  space: z.string(),
  notes: z.record(z.string(), z.tuple([z.string(), z.string()])),
});

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

function encode(v: Float32Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}

function decode(s: string): Float32Array {
  const b = Buffer.from(s, 'base64');
  // Copied: a Buffer may share a pool whose offset is not 4-aligned.
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

export async function readVectorFile(file: string, space: string): Promise<Map<string, NoteVector>> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw err;
  }
  try {
    const parsed = VectorFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success || parsed.data.space !== space) return new Map();
    return new Map(
      Object.entries(parsed.data.notes).map(([id, [key, v]]) => [id, { key, vector: decode(v) }]),
    );
  } catch {
    return new Map();
  }
}

export async function writeVectorFile(
  file: string,
  space: string,
  vectors: ReadonlyMap<string, NoteVector>,
): Promise<void> {
  const notes: Record<string, [string, string]> = {};
  for (const [id, v] of vectors) notes[id] = [v.key, encode(v.vector)];
  await writeFileAtomic(file, JSON.stringify({ version: 1, space, notes }));
}
