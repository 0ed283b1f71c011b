/**
 * Note ids name files (`<id>.md`) on macOS, Windows and Linux and appear in `[[id]]` links, so they
 * are restricted to letters, digits, `-`, `_` and `.`, start with a letter or digit, are NFC, and
 * avoid Windows' reserved device names. Two ids equal ignoring case name the same file on the
 * default macOS and Windows file systems, so `noteIdKey` is what uniqueness is checked against.
 */
export const MAX_NOTE_ID_LENGTH = 128;
/**
 * File names are limited to 255 bytes, and an id appears in longer names than `<id>.md`: the atomic
 * write's temp file `.<id>.md.<pid>.<8 hex>.tmp`, a backup's `<stamp>-<id>-<6 hex>.json` and its
 * temp file (id + 57 bytes with a 10-digit pid). 192 bytes of UTF-8 leaves room for all of them:
 * 128 ASCII characters, but only 64 CJK characters.
 */
export const MAX_NOTE_ID_BYTES = 192;

const encoder = new TextEncoder();
export function utf8Bytes(text: string): number {
  return encoder.encode(text).length;
}

const RESERVED = /^(con|prn|aux|nul|com[0-9\u00B9\u00B2\u00B3]|lpt[0-9\u00B9\u00B2\u00B3])(\..*)?$/i;
const ALLOWED = /^[\p{L}\p{N}][\p{L}\p{N}\p{M}._-]*$/u;

/** Returns null when the id is acceptable, otherwise the reason it is not. */
export function noteIdProblem(id: string): string | null {
  if (id.length === 0) return 'the id is empty';
  if (id.length > MAX_NOTE_ID_LENGTH) return `the id is longer than ${MAX_NOTE_ID_LENGTH} characters`;
  const bytes = utf8Bytes(id);
  if (bytes > MAX_NOTE_ID_BYTES)
    return `the id is ${bytes} bytes in UTF-8, over ${MAX_NOTE_ID_BYTES} (its file names, with their temporary and backup forms, must fit the 255-byte limit; Chinese, Japanese and Korean characters take 3 bytes each)`;
  if (id.normalize('NFC') !== id) return 'the id is not in Unicode NFC form';
  if (!ALLOWED.test(id)) {
    return 'the id may only contain letters, digits, "-", "_" and ".", and must start with a letter or digit';
  }
  if (id.endsWith('.')) return 'the id must not end with a dot';
  if (RESERVED.test(id)) return `"${id}" is a reserved file name on Windows`;
  return null;
}

/** Ids that are their own key: lowercase ASCII is unchanged by NFC and by lowercasing. */
const OWN_KEY = /^[a-z0-9._-]*$/;

export function noteIdKey(id: string): string {
  // The id itself, not an equal copy: a Map keyed by it then hashes the string once per note
  // rather than once per lookup (a cold open keys 10,000 notes into several maps).
  return OWN_KEY.test(id) ? id : id.normalize('NFC').toLowerCase();
}

/** A readable id from a summary: a slug of its first words plus a short random suffix. */
export function generateNoteId(summary: string, random: () => number = Math.random): string {
  const slug = summary
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .split('-')
    .slice(0, 5)
    .join('-')
    .slice(0, 60)
    .replace(/-+$/, '')
    .normalize('NFC');
  // 60 CJK characters are 180 bytes: leave room for the suffix and a retry counter.
  const fitted = fitBytes(slug, MAX_NOTE_ID_BYTES - 12).replace(/-+$/, '');
  const suffix = Math.floor(random() * 0xfff)
    .toString(16)
    .padStart(3, '0');
  return fitted ? `${fitted}-${suffix}` : `note-${suffix}`;
}

/** The longest prefix of `text` (whole code points) of at most `maxBytes` UTF-8 bytes. */
export function fitBytes(text: string, maxBytes: number): string {
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    const n = utf8Bytes(ch);
    if (bytes + n > maxBytes) break;
    out += ch;
    bytes += n;
  }
  return out;
}
