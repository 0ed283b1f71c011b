import { Inflate } from 'fflate';

/**
 * A bounded zip reader: the central directory is parsed first, then each chosen entry is inflated
 * in small steps that stop as soon as it yields more than its declared size or the archive's
 * remaining budget. (fflate's unzipSync keeps inflating past a lying header: a 1 MB entry that
 * declares 10 bytes inflated 1 GiB.) The count of bytes inflated is returned so tests can assert on
 * work done rather than on time.
 */
export interface ZipEntryInfo {
  name: string;
  /** The uncompressed size the central directory declares. */
  declaredSize: number;
  compressedSize: number;
  method: number;
  localHeaderOffset: number;
}

/** Compressed bytes fed to the inflater per step: at most ~1 MiB of output per step (deflate tops out near 1:1032). */
const STEP = 1024;

export class ZipFormatError extends Error {}

function u16(d: Uint8Array, at: number): number {
  return d[at]! | (d[at + 1]! << 8);
}
function u32(d: Uint8Array, at: number): number {
  return (d[at]! | (d[at + 1]! << 8) | (d[at + 2]! << 16) | (d[at + 3]! << 24)) >>> 0;
}

export function listZipEntries(data: Uint8Array, maxEntries: number): ZipEntryInfo[] {
  // The end-of-central-directory record sits in the last 22 + 65535 (comment) bytes.
  let eocd = -1;
  for (let at = data.length - 22; at >= Math.max(0, data.length - 22 - 0xffff); at--) {
    if (u32(data, at) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new ZipFormatError('no end of central directory (not a zip file)');
  const count = u16(data, eocd + 10);
  const dirOffset = u32(data, eocd + 16);
  if (count === 0xffff || dirOffset === 0xffffffff)
    throw new ZipFormatError('zip64 archives are not supported');
  const entries: ZipEntryInfo[] = [];
  let at = dirOffset;
  for (let i = 0; i < Math.min(count, maxEntries + 1); i++) {
    if (at + 46 > data.length || u32(data, at) !== 0x02014b50)
      throw new ZipFormatError('damaged central directory');
    const nameLength = u16(data, at + 28);
    const extraLength = u16(data, at + 30);
    const commentLength = u16(data, at + 32);
    if (at + 46 + nameLength > data.length) throw new ZipFormatError('damaged central directory');
    entries.push({
      name: new TextDecoder().decode(data.subarray(at + 46, at + 46 + nameLength)),
      method: u16(data, at + 10),
      compressedSize: u32(data, at + 20),
      declaredSize: u32(data, at + 24),
      localHeaderOffset: u32(data, at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

export type InflateOutcome =
  { ok: true; bytes: Uint8Array; inflated: number } | { ok: false; reason: string; inflated: number };

/** Inflates one entry, stopping past `min(declaredSize, budget)` bytes of output. */
export function inflateEntry(data: Uint8Array, entry: ZipEntryInfo, budget: number): InflateOutcome {
  const at = entry.localHeaderOffset;
  if (at + 30 > data.length || u32(data, at) !== 0x04034b50)
    return { ok: false, reason: 'refused: damaged (no local header)', inflated: 0 };
  const start = at + 30 + u16(data, at + 26) + u16(data, at + 28);
  const end = start + entry.compressedSize;
  if (end > data.length)
    return { ok: false, reason: 'refused: damaged (the entry is cut short)', inflated: 0 };
  const raw = data.subarray(start, end);
  const limit = Math.min(entry.declaredSize, budget);
  if (entry.method === 0) {
    if (raw.length !== entry.declaredSize)
      return {
        ok: false,
        reason: 'refused: damaged (stored size differs from the declared size)',
        inflated: 0,
      };
    return { ok: true, bytes: raw.slice(), inflated: raw.length };
  }
  if (entry.method !== 8)
    return { ok: false, reason: `refused: compression method ${entry.method} is not supported`, inflated: 0 };
  const chunks: Uint8Array[] = [];
  let inflated = 0;
  let done = false;
  const inflater = new Inflate((chunk, final) => {
    inflated += chunk.length;
    if (inflated <= limit) chunks.push(chunk);
    if (final) done = true;
  });
  try {
    for (let pos = 0; pos < raw.length && inflated <= limit; pos += STEP) {
      const end = Math.min(pos + STEP, raw.length);
      inflater.push(raw.subarray(pos, end), end === raw.length);
    }
  } catch (err) {
    return { ok: false, reason: `refused: damaged (${(err as Error).message})`, inflated };
  }
  if (inflated > limit) {
    return {
      ok: false,
      reason:
        limit < entry.declaredSize
          ? 'refused: the archive inflates past its total budget (zip bomb?)'
          : `refused: inflates past its declared ${entry.declaredSize} bytes (zip bomb?)`,
      inflated,
    };
  }
  if (!done || inflated !== entry.declaredSize)
    return { ok: false, reason: 'refused: damaged (inflated size differs from the declared size)', inflated };
  const bytes = new Uint8Array(inflated);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.length;
  }
  return { ok: true, bytes, inflated };
}
