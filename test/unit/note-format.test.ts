import { describe, expect, it } from 'vitest';
import { parseNote, serializeNote } from '../../shared/note-format.js';
import { contentHash } from '../../shared/content-hash.js';

const sample =
  '---\n{"id":"pricing-borderless-3fa","summary":"Pricing cards use fills, not borders","type":"feedback","tags":["design"],"createdAt":1789000000000,"updatedAt":1789000000000}\n---\nCards are separated by fill. See [[pricing-layout-a91]].\n';

describe('note format', () => {
  it('parses the seed example and serialises it back byte for byte', () => {
    const parsed = parseNote(sample);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.note.id).toBe('pricing-borderless-3fa');
    expect(parsed.note.type).toBe('feedback');
    const { createdAt, updatedAt } = parsed.note;
    expect(serializeNote({ ...parsed.note, createdAt: createdAt!, updatedAt: updatedAt! })).toBe(sample);
  });

  it('accepts a BOM and CRLF line endings', () => {
    const parsed = parseNote('\uFEFF' + sample.replace(/\n/g, '\r\n'));
    expect(parsed.ok && parsed.note.body).toBe('Cards are separated by fill. See [[pricing-layout-a91]].\n');
  });

  it('reports invalid JSON with a reason', () => {
    const parsed = parseNote('---\n{"id": "x", summary}\n---\nbody');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(/not valid JSON/);
  });

  it('hashes type only when present', () => {
    const base = { summary: 's', tags: ['b', 'a'], body: 'x\n' };
    expect(contentHash(base)).toBe(contentHash({ ...base, tags: ['a', 'b'] }));
    expect(contentHash(base)).not.toBe(contentHash({ ...base, type: 'project' }));
  });
});
