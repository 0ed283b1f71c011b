import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  ARCHIVE_LIMITS,
  buildArchive,
  entryProblem,
  readArchive,
} from '../../electron/agents/archive/zip-format.js';

const note = (id: string, body = 'body') =>
  strToU8(`---\n{"id":"${id}","summary":"s","tags":[],"createdAt":1,"updatedAt":2}\n---\n${body}`);

/** Sets the uncompressed size of one entry (local and central headers) to `size`: a lying header. */
function lieAboutSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  const nameAt = (at: number, len: number) => Buffer.from(out.subarray(at, at + len)).toString('utf8');
  for (let i = 0; i + 46 <= out.length; i++) {
    const sig = view.getUint32(i, true);
    if (sig === 0x04034b50 && nameAt(i + 30, view.getUint16(i + 26, true)) === name)
      view.setUint32(i + 22, size, true);
    if (sig === 0x02014b50 && nameAt(i + 46, view.getUint16(i + 28, true)) === name)
      view.setUint32(i + 24, size, true);
  }
  return out;
}

describe('export zip format', () => {
  it('round-trips bytes exactly, BOM and CRLF included', () => {
    const odd = strToU8('\uFEFF---\r\n{"summary":"s","id":"odd-1"}\r\n---\r\nbody\r\n');
    const zip = buildArchive(
      'user',
      [
        { id: 'a-1', bytes: note('a-1') },
        { id: 'odd-1', bytes: odd },
      ],
      1000,
    );
    const read = readArchive(zip);
    expect(read.refused).toEqual([]);
    expect(read.manifest?.scope).toBe('user');
    expect(read.notes.map((n) => n.id)).toEqual(['a-1', 'odd-1']);
    expect(Buffer.compare(Buffer.from(read.notes[1]!.bytes), Buffer.from(odd))).toBe(0);
  });

  it('names: traversal, absolute paths, other files and bad ids are refused', () => {
    expect(entryProblem('notes/ok-1.md')).toBeNull();
    expect(entryProblem('../evil.md')).toMatch(/leaves the archive/);
    expect(entryProblem('notes/../../evil.md')).toMatch(/leaves the archive/);
    expect(entryProblem('/etc/passwd')).toMatch(/leaves the archive/);
    expect(entryProblem('C:/x.md')).toMatch(/leaves the archive/);
    expect(entryProblem('notes\\x.md')).toMatch(/leaves the archive/);
    expect(entryProblem('notes/sub/x.md')).toMatch(/not a note/);
    expect(entryProblem('run.sh')).toMatch(/not a note/);
    expect(entryProblem('notes/con.md')).toMatch(/reserved/);
    expect(entryProblem('notes/-x.md')).toMatch(/not a valid note id/);
  });

  it('a crafted zip: bad entries refused with a message, good ones kept', () => {
    const zip = zipSync({
      'notes/good-1.md': note('good-1'),
      '../escape.md': note('escape'),
      'notes/../../x.md': note('x'),
      'script.sh': strToU8('rm -rf /'),
      'notes/': new Uint8Array(0),
    });
    const read = readArchive(zip);
    expect(read.manifest).toBeNull();
    expect(read.notes.map((n) => n.entry)).toEqual(['notes/good-1.md']);
    expect(read.refused.map((r) => r.entry).sort()).toEqual([
      '../escape.md',
      'notes/../../x.md',
      'script.sh',
    ]);
  });

  it('zip bombs: oversized entries are refused before inflating', () => {
    const bomb = new Uint8Array(ARCHIVE_LIMITS.maxEntryBytes + 1024); // zeros: compresses to a few KB
    const zip = zipSync({ 'notes/bomb-1.md': bomb, 'notes/fine-1.md': note('fine-1') }, { level: 9 });
    expect(zip.length).toBeLessThan(64 * 1024);
    const read = readArchive(zip);
    expect(read.notes.map((n) => n.id)).toEqual(['fine-1']);
    expect(read.refused[0]?.reason).toMatch(/zip bomb/);

    const total = readArchive(
      zipSync({ 'notes/a-1.md': new Uint8Array(600), 'notes/b-1.md': new Uint8Array(600) }),
      {
        ...ARCHIVE_LIMITS,
        maxTotalBytes: 1000,
      },
    );
    expect(total.notes).toHaveLength(1);
    expect(total.refused[0]?.reason).toMatch(/inflate to more than 1000/);

    const many = readArchive(
      zipSync({ 'notes/a-1.md': note('a-1'), 'notes/b-1.md': note('b-1'), 'notes/c-1.md': note('c-1') }),
      { ...ARCHIVE_LIMITS, maxEntries: 2 },
    );
    expect(many.notes).toHaveLength(2);
    expect(many.refused[0]?.reason).toMatch(/more than 2 entries/);
  });

  it('a header that lies about the size is refused once inflating passes it', () => {
    const big = note('liar-1', 'x'.repeat(100_000));
    const zip = lieAboutSize(buildArchive('user', [{ id: 'liar-1', bytes: big }], 1), 'notes/liar-1.md', 50);
    const read = readArchive(zip);
    expect(read.manifest).not.toBeNull();
    expect(read.notes).toEqual([]);
    expect(read.refused).toEqual([
      { entry: 'notes/liar-1.md', reason: expect.stringMatching(/inflates past its declared 50 bytes/) },
    ]);
  });

  it('damaged notes (checksum mismatch) are refused; garbage is not a zip', () => {
    const zip = buildArchive('project', [{ id: 'a-1', bytes: note('a-1') }], 1);
    const read = readArchive(zip);
    const tampered = zipSync({
      'memdesk-export.json': strToU8(JSON.stringify(read.manifest)),
      'notes/a-1.md': note('a-1', 'changed'),
    });
    const t = readArchive(tampered);
    expect(t.notes).toEqual([]);
    expect(t.refused[0]?.reason).toMatch(/damaged/);
    expect(() => readArchive(strToU8('PK but not really a zip file at all'))).toThrow(/not a readable zip/);
  });
});
