import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash } from '../../shared/content-hash.js';
import { parseNote, serializeNote } from '../../shared/note-format.js';
import { NOTE_TYPES, type Note } from '../../shared/note.js';
import { normalizeTags } from '../../shared/tags.js';
import { extractLinks } from '../../electron/memory/links.js';
import { fastParseNote } from '../../electron/memory/fast-parse.js';
import { fastContentHash } from '../../electron/memory/hash.js';

const idArb = fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,30}[a-z0-9_-]$/);
const textArb = fc.string({ unit: 'grapheme', maxLength: 200 });
const noteArb: fc.Arbitrary<Note> = fc.record(
  {
    id: idArb,
    summary: textArb,
    type: fc.constantFrom(...NOTE_TYPES),
    tags: fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 6 }),
    createdAt: fc.integer({ min: 0, max: 4_000_000_000_000 }),
    updatedAt: fc.integer({ min: 0, max: 4_000_000_000_000 }),
    body: textArb,
    extra: fc.dictionary(
      fc.stringMatching(/^x-[a-z]{1,8}$/),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown),
    ),
  },
  { requiredKeys: ['id', 'summary', 'tags', 'createdAt', 'updatedAt', 'body'] },
);

function normalized(n: Note): Note {
  const { extra, ...rest } = n;
  return {
    ...rest,
    body: rest.body.replace(/\r\n?/g, '\n'),
    ...(extra && Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

describe('properties', () => {
  it('frontmatter round-trips: parse(serialize(note)) is the note (bodies with LF newlines)', () => {
    fc.assert(
      fc.property(noteArb, (n) => {
        const parsed = parseNote(serializeNote(n));
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(parsed.note).toEqual(normalized(n));
      }),
      { numRuns: 300 },
    );
  });

  it('serialising is stable and CRLF / BOM do not change what is read or the hash', () => {
    fc.assert(
      fc.property(noteArb, (n) => {
        const text = serializeNote(n);
        const again = parseNote(text);
        if (!again.ok) throw new Error(again.reason);
        expect(serializeNote({ ...again.note, createdAt: n.createdAt, updatedAt: n.updatedAt })).toBe(text);
        const crlf = parseNote('\uFEFF' + text.replace(/\n/g, '\r\n'));
        if (!crlf.ok) throw new Error(crlf.reason);
        expect(contentHash(crlf.note)).toBe(contentHash(again.note));
      }),
      { numRuns: 200 },
    );
  });

  it('tag normalisation: trimmed, no commas or whitespace inside, unique ignoring case, idempotent, order kept', () => {
    const tagInput = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.array(fc.string({ maxLength: 15 }), { maxLength: 8 }),
    );
    fc.assert(
      fc.property(tagInput, (input) => {
        const tags = normalizeTags(input);
        for (const t of tags) {
          expect(t).toBe(t.trim());
          expect(t).not.toMatch(/[,\s]/);
          expect(t.length).toBeGreaterThan(0);
        }
        expect(new Set(tags.map((t) => t.toLowerCase())).size).toBe(tags.length);
        expect(normalizeTags(tags)).toEqual(tags);
        expect(normalizeTags(tags.join(', '))).toEqual(tags);
      }),
      { numRuns: 500 },
    );
  });

  it('links: every [[id]] written with a valid id is found once, in order', () => {
    fc.assert(
      fc.property(
        fc.array(idArb, { maxLength: 6 }),
        fc.array(
          fc.string({ maxLength: 20 }).filter((s) => !/[[\]]/.test(s)),
          { maxLength: 7 },
        ),
        (ids, fillers) => {
          const body =
            ids.map((id, i) => `${fillers[i] ?? ''}[[${id}]]`).join(' ') + (fillers[ids.length] ?? '');
          expect(extractLinks(body)).toEqual([...new Set(ids)]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('fast paths agree with the shared reference', () => {
  it('fastParseNote gives exactly what parseNote gives, on valid and broken input', () => {
    const broken = fc.oneof(
      noteArb.map((n) => serializeNote(n)),
      noteArb.map((n) => serializeNote(n).replace('"summary":', '"summary":1,"x":')),
      noteArb.map((n) => serializeNote(n).replace(/"tags":\[/, '"tags":[1,')),
      noteArb.map((n) => serializeNote(n).replace(/\n---\n/, '\n--- \n')),
      noteArb.map((n) => '\uFEFF' + serializeNote(n).replace(/\n/g, '\r\n')),
      fc.string({ maxLength: 80 }).map((s) => `---\n${s}\n---\n`),
      fc.string({ maxLength: 80 }),
    );
    fc.assert(
      fc.property(broken, (text) => {
        expect(fastParseNote(text)).toEqual(parseNote(text));
      }),
      { numRuns: 500 },
    );
  });

  it('fastContentHash equals contentHash', () => {
    fc.assert(
      fc.property(noteArb, fc.boolean(), (n, crlf) => {
        const content = { ...n, body: crlf ? n.body.replace(/\n/g, '\r\n') : n.body };
        expect(fastContentHash(content)).toBe(contentHash(content));
        const { type: _t, ...untyped } = content;
        expect(fastContentHash(untyped)).toBe(contentHash(untyped));
      }),
      { numRuns: 300 },
    );
  });
});
