import fc from 'fast-check';
import type { NoteContent } from '../../shared/note.js';
import { NOTE_TYPES } from '../../shared/note.js';

/**
 * fast-check generators for the merge properties: documents over a small set of lines (so diffs
 * meet repeated lines and ambiguous alignments) and edits of a base, so local and cloud are related.
 */
export const lineArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('', '- item', '# Title', 'alpha', 'beta', 'gamma', 'delta') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }).map((s) => s.replace(/[\r\n]/g, '')) },
);

/** Lines joined with LF or CRLF, with or without a final newline. */
export function joinArb(lines: fc.Arbitrary<string[]>): fc.Arbitrary<string> {
  return fc.tuple(lines, fc.boolean(), fc.nat(9)).map(([ls, finalNewline, crlf]) => {
    if (ls.length === 0) return '';
    const nl = crlf === 0 ? '\r\n' : '\n';
    return ls.join(nl) + (finalNewline ? nl : '');
  });
}

interface Edit {
  at: number;
  remove: number;
  insert: string[];
}
const editArb: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(40),
  remove: fc.nat(2),
  insert: fc.array(lineArb, { maxLength: 3 }),
});

function applyEdits(base: readonly string[], edits: readonly Edit[]): string[] {
  const out = [...base];
  for (const e of edits) out.splice(e.at % (out.length + 1), e.remove, ...e.insert);
  return out;
}

/** A base and two edited copies (as line arrays). */
export const relatedLinesArb = fc
  .tuple(
    fc.array(lineArb, { maxLength: 14 }),
    fc.array(editArb, { maxLength: 3 }),
    fc.array(editArb, { maxLength: 3 }),
  )
  .map(([base, l, c]) => ({ base, local: applyEdits(base, l), cloud: applyEdits(base, c) }));

/** A base text and two edited copies; each may end with or without a newline and use CRLF. */
export const relatedTextsArb = relatedLinesArb.chain(({ base, local, cloud }) =>
  fc.record({
    base: joinArb(fc.constant(base)),
    local: joinArb(fc.constant(local)),
    cloud: joinArb(fc.constant(cloud)),
  }),
);

const tagArb = fc.constantFrom('deploy', 'ops', 'api', 'Api', 'runbook', 'team');
const noteFieldsArb = fc.record({
  summary: fc.constantFrom('Deploy notes', 'How we deploy', 'Runbook'),
  type: fc.option(fc.constantFrom(...NOTE_TYPES), { nil: undefined }),
  tags: fc.uniqueArray(tagArb, { maxLength: 4 }),
});

function toNote(
  fields: { summary: string; type: NoteContent['type']; tags: string[] },
  body: string,
): NoteContent {
  return fields.type === undefined
    ? { summary: fields.summary, tags: fields.tags, body }
    : { summary: fields.summary, type: fields.type, tags: fields.tags, body };
}

/** Three related notes; each may also be null (deleted / absent) now and then. */
export const relatedNotesArb = fc
  .tuple(relatedTextsArb, noteFieldsArb, noteFieldsArb, noteFieldsArb, fc.nat(11), fc.nat(11), fc.nat(11))
  .map(([texts, fb, fl, fc_, nb, nl, nc]) => ({
    base: nb === 0 ? null : toNote(fb, texts.base),
    local: nl === 0 ? null : toNote(nl % 3 === 1 ? fb : fl, texts.local),
    cloud: nc === 0 ? null : toNote(nc % 3 === 1 ? fb : fc_, texts.cloud),
  }));
