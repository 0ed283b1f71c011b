import { serializeNote } from '../../shared/note-format.js';
import type { Note } from '../../shared/note.js';

/**
 * Generators for the fuzz test: note files mutated in their frontmatter, body, encoding and size,
 * and byte-level mutations of zip archives and SQLite banks. All driven by a seeded PRNG.
 */
export type Rand = () => number;

export const int = (rand: Rand, n: number): number => Math.floor(rand() * n);
export const pick = <T>(rand: Rand, items: readonly T[]): T => items[int(rand, items.length)]!;

const WORDS = ['deploy', 'staging', '部署', 'release', 'ключ', 'naïve', 'emoji 🚀', 'tab\there', 'x'];
const ODD = [
  '\u0000',
  '\uFEFF',
  '\u202E',
  '\u200B',
  '\uD800',
  '\uDFFF',
  '\r',
  '\r\n',
  '---',
  '\n---\n',
  '"',
  '\\',
  '{',
  '}',
];

function text(rand: Rand, max: number): string {
  let s = '';
  const n = int(rand, max);
  for (let i = 0; i < n; i++) s += rand() < 0.15 ? pick(rand, ODD) : `${pick(rand, WORDS)} `;
  return s;
}

function baseNote(rand: Rand, i: number): Note {
  return {
    id: `note-${i.toString(36)}`,
    summary: text(rand, 8) || 'summary',
    ...(rand() < 0.7 ? { type: pick(rand, ['user', 'feedback', 'project', 'reference'] as const) } : {}),
    tags: Array.from({ length: int(rand, 4) }, () => pick(rand, WORDS)),
    createdAt: int(rand, 2_000_000_000_000),
    updatedAt: int(rand, 2_000_000_000_000),
    body: text(rand, 40),
  };
}

const FRONTMATTER_VALUES: unknown[] = [
  null,
  42,
  -1e308,
  'x'.repeat(5000),
  [],
  {},
  { nested: { deeper: [1, 2, { a: null }] } },
  ['a', 1, null],
  true,
  '../../etc/passwd',
  'con',
  '\u0000',
];
const KEYS = [
  'id',
  'summary',
  'type',
  'tags',
  'createdAt',
  'updatedAt',
  '__proto__',
  'constructor',
  'extra',
  '',
];

/** One mutated note file (as a string; encoding mutations are applied by `encode`). */
export function mutatedNoteText(rand: Rand, i: number): string {
  const note = baseNote(rand, i);
  let out = serializeNote(note);
  const frontmatter = (): Record<string, unknown> | null => {
    try {
      return JSON.parse(out.slice(4, out.indexOf('\n---'))) as Record<string, unknown>;
    } catch {
      return null; // an earlier mutation broke it already
    }
  };
  const mutations = 1 + int(rand, 3);
  for (let m = 0; m < mutations; m++) {
    switch (int(rand, 12)) {
      case 0: {
        // a key set to a value of the wrong kind
        const fm = frontmatter();
        if (!fm) break;
        fm[pick(rand, KEYS)] = pick(rand, FRONTMATTER_VALUES);
        out = `---\n${JSON.stringify(fm)}\n---\n${note.body}`;
        break;
      }
      case 1: {
        // a key removed
        const fm = frontmatter();
        if (!fm) break;
        delete fm[pick(rand, KEYS)];
        out = `---\n${JSON.stringify(fm)}\n---\n${note.body}`;
        break;
      }
      case 2:
        out = out.slice(0, int(rand, out.length + 1)); // truncated anywhere
        break;
      case 3: {
        const at = int(rand, out.length + 1);
        out = out.slice(0, at) + pick(rand, ODD) + out.slice(at); // a stray character
        break;
      }
      case 4:
        out = out.replace(/\n/g, pick(rand, ['\r\n', '\r', '\n\n'])); // line endings
        break;
      case 5:
        out = `\uFEFF${out}`;
        break;
      case 6:
        out = out.replace('---', pick(rand, ['--', '----', ' ---', '---x', ''])); // a broken fence
        break;
      case 7:
        out += '\n---\n' + text(rand, 10); // a fence inside the body
        break;
      case 8:
        out = `---\n${'['.repeat(int(rand, rand() < 0.02 ? 20_000 : 500))}\n---\n`; // deep nesting
        break;
      case 9:
        out = `${out}${'y'.repeat(rand() < 0.02 ? 200_000 : int(rand, 4000))}`; // large, now and then very
        break;
      case 10:
        out = `---\n{"id":"a","summary":"s","id":"b","tags":[]}\n---\nduplicate keys\n`;
        break;
      default:
        out = '';
    }
  }
  return out;
}

/** Bytes for a note file in an odd encoding now and then (UTF-16, Latin-1, raw noise). */
export function encode(rand: Rand, text: string): Uint8Array {
  switch (int(rand, 10)) {
    case 0:
      return new Uint8Array(Buffer.from(`\uFEFF${text}`, 'utf16le'));
    case 1:
      return new Uint8Array(Buffer.from(text, 'latin1'));
    case 2: {
      const bytes = new Uint8Array(Buffer.from(text, 'utf8'));
      for (let k = 0; k < 3 && bytes.length; k++) bytes[int(rand, bytes.length)] = int(rand, 256);
      return bytes;
    }
    default:
      return new Uint8Array(Buffer.from(text, 'utf8'));
  }
}

/** A byte-level mutation: flips, a truncation, a copied block, or 32-bit fields overwritten. */
export function mutateBytes(rand: Rand, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data);
  switch (int(rand, 5)) {
    case 0:
      for (let k = 0; k < 1 + int(rand, 8); k++) out[int(rand, out.length)] = int(rand, 256);
      return out;
    case 1:
      return out.slice(0, int(rand, out.length));
    case 2: {
      const from = int(rand, out.length);
      const to = int(rand, out.length);
      const len = int(rand, 64);
      out.copyWithin(to, from, from + len);
      return out;
    }
    case 3: {
      // sizes and offsets: a 32-bit little-endian field somewhere set to 0, small or huge
      const view = new DataView(out.buffer);
      for (let k = 0; k < 1 + int(rand, 4); k++) {
        const at = int(rand, Math.max(1, out.length - 4));
        view.setUint32(at, pick(rand, [0, 1, 10, 0x7fffffff, 0xffffffff, int(rand, 1 << 20)]), true);
      }
      return out;
    }
    default:
      return new Uint8Array(
        Buffer.concat([Buffer.from(out), Buffer.from(out.slice(0, int(rand, out.length)))]),
      );
  }
}
