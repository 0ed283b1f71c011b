import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex, utf8 } from './bytes.js';

/**
 * The keys one account's 32-byte master key yields, each for one job (HKDF-SHA256, salt
 * "memdesk:e2ee:v1", info the purpose), so no key is ever used for two things:
 * - `object`, `meta`: XChaCha20-Poly1305 keys for note files and manifest entries' sealed records;
 * - `name`, `hash`: HMAC-SHA256 keys for the note ids, project ids and content hashes the server sees.
 * `keyId` (HMAC(master, "memdesk:key-id:v1"), 16 bytes hex) names the master key without revealing
 * it: it is stored in the keyring and ties this device's sync state to the key it was made with.
 */
export interface AccountKeys {
  keyId: string;
  object: Uint8Array;
  meta: Uint8Array;
  name: Uint8Array;
  hash: Uint8Array;
}

const SALT = utf8('memdesk:e2ee:v1');

export function deriveAccountKeys(master: Uint8Array): AccountKeys {
  if (master.length !== 32) throw new Error('the master key is 32 bytes');
  const sub = (purpose: string): Uint8Array => hkdf(sha256, master, SALT, utf8(purpose), 32);
  return {
    keyId: masterKeyId(master),
    object: sub('object'),
    meta: sub('meta'),
    name: sub('name'),
    hash: sub('hash'),
  };
}

export function masterKeyId(master: Uint8Array): string {
  return toHex(hmac(sha256, master, utf8('memdesk:key-id:v1')).subarray(0, 16));
}

/**
 * The scope as every keyed name and associated data spells it: `user`, or `project:<real id>`.
 * Binding it means an object or entry copied into another scope does not open there.
 */
export type ScopeLabel = 'user' | `project:${string}`;

function keyed(key: Uint8Array, ...parts: string[]): string {
  return toHex(hmac(sha256, key, utf8(parts.join('\0'))));
}

/** The project id the server sees (64 hex: a valid ProjectIdSchema value). */
export function keyedProjectId(keys: AccountKeys, projectId: string): string {
  return keyed(keys.name, 'project', projectId);
}

/** The note id the server sees (64 hex: a valid note id, lower case, so no case twins arise). */
export function keyedNoteId(keys: AccountKeys, scope: ScopeLabel, noteId: string): string {
  return keyed(keys.name, 'note', scope, noteId);
}

/**
 * The content hash the server sees (64 hex, so it passes ContentHashSchema). It keys scope, note id
 * and content, so two notes with equal contents show the server unrelated hashes (and across
 * accounts nothing is shared). `have` in a snapshot therefore names (note, version) pairs.
 */
export function keyedHash(keys: AccountKeys, scope: ScopeLabel, noteId: string, contentHash: string): string {
  return keyed(keys.hash, 'hash', scope, noteId, contentHash);
}
