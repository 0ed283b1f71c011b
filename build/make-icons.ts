/**
 * Generates the app icons electron-builder needs (build/icon.png 1024², build/icons/<n>x<n>.png,
 * build/icon.ico, build/icon.icns) from one drawing, with no image tools: PNG via zlib, ICO and
 * ICNS as containers of PNGs (both formats allow PNG payloads). Run: npx tsx build/make-icons.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** RGBA of the icon at (x, y) in a size×size image: a blue rounded square with a white note and lines. */
function pixel(x: number, y: number, size: number): [number, number, number, number] {
  const u = (x + 0.5) / size;
  const v = (y + 0.5) / size;
  const inset = 0.06;
  const r = 0.2;
  const cx = Math.min(Math.max(u, inset + r), 1 - inset - r);
  const cy = Math.min(Math.max(v, inset + r), 1 - inset - r);
  const d = Math.hypot(u - cx, v - cy);
  if (d > r) return [0, 0, 0, 0];
  const edge = Math.min(1, (r - d) * size);
  // The note: a white card with a folded corner and three lines.
  const inNote =
    u > 0.27 && u < 0.73 && v > 0.22 && v < 0.78 && !(u > 0.61 && v < 0.34 && u - 0.61 > v - 0.22);
  if (inNote) {
    const line =
      [0.42, 0.52, 0.62].some((ly) => Math.abs(v - ly) < 0.018) && u > 0.34 && u < (v > 0.6 ? 0.56 : 0.66);
    return line ? [47, 111, 222, 255] : [255, 255, 255, 255];
  }
  const shade = Math.round(40 * v);
  return [47 - Math.round(shade / 3), 111 - shade, 222 - shade, Math.round(255 * edge)];
}

export function makePng(size: number): Buffer {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel(x, y, size);
      const o = y * (size * 4 + 1) + 1 + x * 4;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
      raw[o + 3] = a;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function makeIco(pngs: Array<{ size: number; png: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(pngs.length, 4);
  let offset = 6 + 16 * pngs.length;
  const entries = pngs.map(({ size, png }) => {
    const e = Buffer.alloc(16);
    e[0] = size >= 256 ? 0 : size;
    e[1] = size >= 256 ? 0 : size;
    e.writeUInt16LE(1, 4); // planes
    e.writeUInt16LE(32, 6); // bpp
    e.writeUInt32LE(png.length, 8);
    e.writeUInt32LE(offset, 12);
    offset += png.length;
    return e;
  });
  return Buffer.concat([header, ...entries, ...pngs.map((p) => p.png)]);
}

/** ICNS with PNG payloads: ic07 128, ic08 256, ic09 512, ic10 1024 (512@2x). */
export function makeIcns(pngs: Map<number, Buffer>): Buffer {
  const types: Array<[string, number]> = [
    ['ic07', 128],
    ['ic08', 256],
    ['ic09', 512],
    ['ic10', 1024],
  ];
  const parts = types.map(([type, size]) => {
    const png = pngs.get(size)!;
    const h = Buffer.alloc(8);
    h.write(type, 0, 'ascii');
    h.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([h, png]);
  });
  const body = Buffer.concat(parts);
  const h = Buffer.alloc(8);
  h.write('icns', 0, 'ascii');
  h.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([h, body]);
}

const sizes = [16, 32, 48, 64, 128, 256, 512, 1024];
const pngs = new Map(sizes.map((s) => [s, makePng(s)]));
mkdirSync(path.join(here, 'icons'), { recursive: true });
for (const [s, png] of pngs) if (s <= 512) writeFileSync(path.join(here, 'icons', `${s}x${s}.png`), png);
writeFileSync(path.join(here, 'icon.png'), pngs.get(1024)!);
writeFileSync(
  path.join(here, 'icon.ico'),
  makeIco([16, 32, 48, 64, 128, 256].map((size) => ({ size, png: pngs.get(size)! }))),
);
writeFileSync(path.join(here, 'icon.icns'), makeIcns(pngs));
console.log('wrote build/icon.png, build/icon.ico, build/icon.icns, build/icons/*.png');
