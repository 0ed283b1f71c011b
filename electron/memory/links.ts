import { noteIdProblem } from '../../shared/note-id.js';

/**
 * `[[id]]` links, derived from a body at every load and never stored. `[[id|label]]` counts as a
 * link to `id`. Text that is not a valid note id (`[[new:1]]`, `[[ two words ]]`) is not a link.
 */
const LINK = /\[\[([^[\]\n|]+?)(?:\|[^[\]\n]*)?\]\]/g;

export function extractLinks(body: string): string[] {
  if (!body.includes('[[')) return [];
  const seen = new Set<string>();
  const links: string[] = [];
  for (const match of body.matchAll(LINK)) {
    const id = match[1]!.trim();
    if (seen.has(id) || noteIdProblem(id) !== null) continue;
    seen.add(id);
    links.push(id);
  }
  return links;
}
