import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { WarmAdvertisementSchema, type WarmAdvertisement } from '../../../shared/warm-protocol.js';

/**
 * The advertisement in `file`: `ad` when there is a valid one that only this user can read or
 * write; `problem` (a few words, never its content) when there is a file that is not one; neither
 * when no server is advertised.
 */
export function readAdvertisement(file: string): { ad?: WarmAdvertisement; problem?: string } {
  let text: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const st = fstatSync(fd);
      if (process.platform !== 'win32' && (st.uid !== process.getuid?.() || (st.mode & 0o077) !== 0))
        return { problem: 'advertisement not private to this user' };
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return {}; // none (or gone while read): no server advertised
  }
  try {
    const parsed = WarmAdvertisementSchema.safeParse(JSON.parse(text));
    return parsed.success ? { ad: parsed.data } : { problem: 'advertisement not understood' };
  } catch {
    return { problem: 'advertisement not understood' };
  }
}
