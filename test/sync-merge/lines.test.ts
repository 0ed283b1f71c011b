import { describe, expect, it } from 'vitest';
import { LineInterner, lineHash, splitLines, toLines } from '../../electron/sync/merge/lines.js';

describe('lines', () => {
  it('splits after each newline, keeping it; CRLF and lone CR become LF; the last line may lack one', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a')).toEqual(['a']);
    expect(splitLines('a\r\nb\rc\n')).toEqual(['a\n', 'b\n', 'c\n']);
    expect(splitLines('\n\nx')).toEqual(['\n', '\n', 'x']);
    expect(toLines('a\nb').count).toBe(2);
  });

  it('gives equal lines the same id and different lines different ids, even when their hashes collide', () => {
    // Two different lines with the same 30-bit hash, found once by a birthday search over `line ${i}\n`.
    const [x, y] = ['line 69888\n', 'line 571866\n'];
    expect(lineHash(x, 0, x.length)).toBe(lineHash(y, 0, y.length));
    const interner = new LineInterner();
    const ids = interner.intern(toLines(x + y + x + y + 'z\n'));
    expect(ids[0]).not.toBe(ids[1]);
    expect([ids[2], ids[3]]).toEqual([ids[0], ids[1]]);
    expect(new Set(ids).size).toBe(3);
  });
});
