/**
 * 64 bits of FNV-1a over the text's UTF-16 code units, as 16 hex digits: for naming a file after
 * what it belongs to (a project's prompt snapshot, a CLI code cache's variant), not for checking
 * content — a few microseconds and no node:crypto to load (the first steps of the bin avoid it).
 */
export function nameHash(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++)
    h = BigInt.asUintN(64, (h ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}
