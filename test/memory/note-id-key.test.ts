import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { noteIdKey } from '../../shared/note-id.js';

describe('noteIdKey', () => {
  it('is NFC and lowercase for any id, including ids that take its shortcut (lowercase ASCII)', () => {
    const ascii = fc.string({ unit: fc.constantFrom(...'aAzZ09._-éÉ'.split('')), maxLength: 12 });
    // Decomposed letters (e + U+0301) and letters whose lowercase differs outside ASCII (İ, Σ, Å).
    const unicode = fc.string({
      unit: fc.constantFrom('a', 'E', 'e\u0301', 'İ', 'Σ', 'Å', '数', '-'),
      maxLength: 8,
    });
    fc.assert(
      fc.property(fc.oneof(ascii, unicode, fc.string({ unit: 'grapheme' })), (id) => {
        expect(noteIdKey(id)).toBe(id.normalize('NFC').toLowerCase());
      }),
      { numRuns: 500 },
    );
  });
});
