import { normalizeNewlines } from '../../../shared/note-format.js';

/**
 * Splits a body into lines that keep their '\n' (after CRLF / CR → LF). Only the last line can lack
 * one, so whether a text ends with a newline is part of its last line — as in git, changing it is an
 * edit of that line.
 */
export function splitLines(text: string): string[] {
  const normal = normalizeNewlines(text);
  const lines: string[] = [];
  let start = 0;
  while (start < normal.length) {
    const nl = normal.indexOf('\n', start);
    if (nl < 0) {
      lines.push(normal.slice(start));
      break;
    }
    lines.push(normal.slice(start, nl + 1));
    start = nl + 1;
  }
  return lines;
}

/** Maps lines to small integers so the diff compares numbers; one table for all texts of a merge. */
export class LineInterner {
  private readonly ids = new Map<string, number>();

  intern(lines: readonly string[]): Int32Array {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      let id = this.ids.get(line);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(line, id);
      }
      out[i] = id;
    }
    return out;
  }
}
