/**
 * Note files travel keyed by (id, hash): two notes with identical content (a note copied as a
 * template) have one hash but are two notes, each with its own file.
 */
export function objectKey(id: string, hash: string): string {
  return `${id}\u0000${hash}`;
}
