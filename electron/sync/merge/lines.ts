import { normalizeNewlines } from '../../../shared/note-format.js';

/**
 * A body seen as lines, without cutting it into strings: line i is text[starts[i], starts[i + 1]).
 * Lines keep their '\n' (after CRLF / CR → LF); only the last can lack one, so whether a text ends
 * with a newline is part of its last line — as in git, changing it is an edit of that line.
 */
export interface LineText {
  text: string;
  /** Start offsets of the lines, plus text.length at the end (length = count + 1). */
  starts: Int32Array;
  count: number;
}

export function toLines(body: string): LineText {
  const text = body.includes('\r') ? normalizeNewlines(body) : body;
  flatten(text);
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  if (text.length > 0 && !text.endsWith('\n')) count++;
  const starts = new Int32Array(count + 1);
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && line < count; i = text.indexOf('\n', i + 1))
    starts[line++] = i + 1;
  starts[count] = text.length;
  return { text, starts, count };
}

/**
 * A string built by concatenation is a tree in V8 (a "cons string"); reading it with charCodeAt in
 * a loop is then several times slower. Converting it to a number flattens it in place once.
 */
function flatten(text: string): void {
  void Number(text);
}

/** Lines [from, to) as one string, newlines included. */
export function sliceLines(lines: LineText, from: number, to: number): string {
  return lines.text.slice(lines.starts[from], lines.starts[to]);
}

/** The lines of a body as separate strings (for tests and small callers). */
export function splitLines(body: string): string[] {
  const lines = toLines(body);
  const out: string[] = [];
  for (let i = 0; i < lines.count; i++) out.push(sliceLines(lines, i, i + 1));
  return out;
}

/**
/** FNV-1a over the UTF-16 units of text[s, e), cut to 30 bits so it stays a small integer (Smi) in V8. */
export function lineHash(text: string, s: number, e: number): number {
  let h = 0x811c9dc5;
  for (let p = s; p < e; p++) h = Math.imul(h ^ text.charCodeAt(p), 0x01000193);
  return h & 0x3fffffff;
}

/**
 * Maps lines to small integers so the diff compares numbers; one table for all texts of a merge.
 * Lines are hashed in place (FNV-1a) and compared against the first line seen with that hash, so
 * no per-line strings are made; a real hash collision falls back to a string-keyed table.
 */
export class LineInterner {
  private readonly byHash = new Map<number, number>();
  private readonly byString = new Map<string, number>();
  private readonly repText: string[] = [];
  private readonly repStart: number[] = [];
  private readonly repEnd: number[] = [];

  intern(lines: LineText): Int32Array {
    const { text, starts, count } = lines;
    const out = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      const s = starts[i]!;
      const e = starts[i + 1]!;
      const h = lineHash(text, s, e);
      let id = this.byHash.get(h);
      if (id === undefined) {
        id = this.newId(text, s, e);
        this.byHash.set(h, id);
      } else if (!this.sameAs(id, text, s, e)) {
        const line = text.slice(s, e);
        id = this.byString.get(line);
        if (id === undefined) {
          id = this.newId(text, s, e);
          this.byString.set(line, id);
        }
      }
      out[i] = id;
    }
    return out;
  }

  private newId(text: string, s: number, e: number): number {
    this.repText.push(text);
    this.repStart.push(s);
    this.repEnd.push(e);
    return this.repText.length - 1;
  }

  private sameAs(id: number, text: string, s: number, e: number): boolean {
    const rt = this.repText[id]!;
    const rs = this.repStart[id]!;
    if (this.repEnd[id]! - rs !== e - s) return false;
    for (let k = 0; k < e - s; k++) if (rt.charCodeAt(rs + k) !== text.charCodeAt(s + k)) return false;
    return true;
  }
}
