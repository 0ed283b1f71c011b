import { z } from 'zod';
import { SEALED_OBJECT_MIN_BYTES } from '../../../shared/sealed-size.js';
import { contentHash } from '../../../shared/content-hash.js';
import { parseNote } from '../../../shared/note-format.js';
import { keyedHash, keyedNoteId, type AccountKeys, type ScopeLabel } from './account-keys.js';
import { open, seal } from './aead.js';
import { fromBase64Url, fromUtf8, systemRandom, toBase64Url, utf8, type RandomSource } from './bytes.js';
import { EncryptionError } from './errors.js';
import { pad, unpad } from './padding.js';

/**
 * What the server stores instead of a note file and a manifest entry's names.
 *
 * Object (a revision's content): base64url of XChaCha20-Poly1305 under `keys.object` of the note
 * file padded to a power of two (≥ 512 bytes), associated data
 *   "memdesk:object:v1\0<scope>\0<keyed id>\0<keyed hash>".
 * Record (`meta` on a manifest entry): the same under `keys.meta` of the JSON
 * `{id, hash, typed?, seen}` (hash null for a deletion; `seen` below) padded to ≥ 256 bytes,
 * associated data
 *   "memdesk:record:v1\0<scope>\0<keyed id>\0<keyed hash or "deleted">".
 * Opening checks the tag, then that the plaintext names the same id and hash that the server files
 * it under; an object or record moved to another note, scope or hash therefore fails as `tampered`.
 * A `SealedKind` says, for each of the two, its key, its padding and its associated data's label.
 */
interface SealedKind {
  key: 'object' | 'meta';
  minBytes: number;
  label: 'object' | 'record';
}

const OBJECT: SealedKind = { key: 'object', minBytes: SEALED_OBJECT_MIN_BYTES, label: 'object' };
const RECORD: SealedKind = { key: 'meta', minBytes: 256, label: 'record' };

/** "memdesk:<label>:v1\0<scope>\0<keyed id>\0<keyed hash or "deleted">". */
function aad(kind: SealedKind, scope: ScopeLabel, keyedId: string, keyedHashHex: string | null): Uint8Array {
  return utf8(`memdesk:${kind.label}:v1\0${scope}\0${keyedId}\0${keyedHashHex ?? 'deleted'}`);
}

function tampered(what: string): EncryptionError {
  return new EncryptionError(
    'tampered',
    `${what} from the sync server did not pass its integrity check (altered, damaged, or moved from another note); it was not written into any note`,
  );
}

export interface PlainObject {
  id: string;
  hash: string;
  /** The whole note file. */
  content: string;
}

export interface SealedObject {
  id: string;
  hash: string;
  content: string;
}

export function sealObject(
  keys: AccountKeys,
  scope: ScopeLabel,
  plain: PlainObject,
  random: RandomSource = systemRandom,
): SealedObject {
  const { id, hash, text } = sealNamed(OBJECT, keys, scope, plain, plain.content, random);
  return { id, hash, content: text };
}

/** The note file, after checking it is the one the server filed under this keyed id and hash. */
export function openObject(keys: AccountKeys, scope: ScopeLabel, sealed: SealedObject): PlainObject {
  const content = openNamed(OBJECT, keys, scope, sealed, sealed.content, 'a note');
  const parsed = parseNote(content);
  if (!parsed.ok) throw tampered('a note');
  const hash = contentHash(parsed.note);
  if (
    keyedNoteId(keys, scope, parsed.note.id) !== sealed.id ||
    keyedHash(keys, scope, parsed.note.id, hash) !== sealed.hash
  )
    throw tampered(`note ${parsed.note.id}`);
  return { id: parsed.note.id, hash, content };
}

const RecordSchema = z.object({
  id: z.string(),
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  typed: z.boolean().optional(),
  /**
   * The highest manifest version of the scope the writer had seen when it sealed this record: per
   * note it only grows in an honest history, and it is below the version of any manifest holding
   * the record (seen-versions.ts checks both).
   */
  seen: z.number().int().nonnegative(),
});
export type EntryRecord = z.infer<typeof RecordSchema>;

export interface SealedName {
  id: string;
  hash: string | null;
  meta: string;
}

export function sealRecord(
  keys: AccountKeys,
  scope: ScopeLabel,
  record: EntryRecord,
  random: RandomSource = systemRandom,
): SealedName {
  const { id, hash, text } = sealNamed(RECORD, keys, scope, record, JSON.stringify(record), random);
  return { id, hash, meta: text };
}

export function openRecord(keys: AccountKeys, scope: ScopeLabel, sealed: SealedName): EntryRecord {
  const text = openNamed(RECORD, keys, scope, sealed, sealed.meta, 'a manifest entry');
  let record: EntryRecord;
  try {
    record = RecordSchema.parse(JSON.parse(text));
  } catch {
    throw tampered('a manifest entry');
  }
  const hashMatches =
    record.hash === null
      ? sealed.hash === null
      : sealed.hash === keyedHash(keys, scope, record.id, record.hash);
  if (keyedNoteId(keys, scope, record.id) !== sealed.id || !hashMatches)
    throw tampered(`the manifest entry of note ${record.id}`);
  return record;
}

/**
 * The keyed id and hash the server files a note under (a deletion has no hash), and `text` padded
 * to the kind's size, sealed under its key bound to them, as base64url.
 */
function sealNamed<H extends string | null>(
  kind: SealedKind,
  keys: AccountKeys,
  scope: ScopeLabel,
  note: { id: string; hash: H },
  text: string,
  random: RandomSource,
): { id: string; hash: H; text: string } {
  const id = keyedNoteId(keys, scope, note.id);
  const hash = (note.hash === null ? null : keyedHash(keys, scope, note.id, note.hash)) as H;
  const padded = pad(utf8(text), kind.minBytes);
  return { id, hash, text: toBase64Url(seal(keys[kind.key], padded, aad(kind, scope, id, hash), random)) };
}

/** The text `sealNamed` sealed under these keyed names; `tampered` when it does not open. */
function openNamed(
  kind: SealedKind,
  keys: AccountKeys,
  scope: ScopeLabel,
  names: { id: string; hash: string | null },
  sealed: string,
  what: string,
): string {
  const text = openText(keys[kind.key], sealed, aad(kind, scope, names.id, names.hash));
  if (text === null) throw tampered(what);
  return text;
}

/** The text sealed under `key` bound to `aad`, or null when it does not open (damaged, other key or aad). */
function openText(key: Uint8Array, sealed: string, aad: Uint8Array): string | null {
  const bytes = fromBase64Url(sealed);
  const padded = bytes && open(key, bytes, aad);
  const data = padded && unpad(padded);
  if (!data) return null;
  try {
    return fromUtf8(data);
  } catch {
    return null;
  }
}
