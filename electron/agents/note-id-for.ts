import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { generateNoteId } from '../../shared/note-id.js';

/**
 * A deterministic, readable id for content that has no id yet (retain, Mnemopi import): the slug of
 * the summary plus a suffix taken from the content's sha256, so the same fact gets the same id on
 * every machine. `attempt` picks another suffix when the first is taken by a different note.
 */
export function noteIdFor(summary: string, content: string, attempt = 0): string {
  const hex = bytesToHex(sha256(utf8ToBytes(content)));
  const start = (attempt * 6) % (hex.length - 6);
  const fraction = parseInt(hex.slice(start, start + 6), 16) / 0x1000000;
  const id = generateNoteId(summary, () => fraction);
  return attempt < 10 ? id : `${id}-${attempt}`;
}

/** The first candidate id not taken (`isTaken` checks ids equal ignoring case). */
export function freeNoteIdFor(summary: string, content: string, isTaken: (id: string) => boolean): string {
  for (let attempt = 0; ; attempt++) {
    const id = noteIdFor(summary, content, attempt);
    if (!isTaken(id)) return id;
  }
}
