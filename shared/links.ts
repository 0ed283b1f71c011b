/**
 * The one `[[id]]` link syntax (core, cleanup, search and the editor): `[[id]]` and
 * `[[id|label]]`, on one line. Group 1 is the id (trim it), group 2 the `|label` part if any.
 * Global: use it with `matchAll`/`replace`, or copy it (`new RegExp(WIKI_LINK)`) for `exec` loops.
 */
export const WIKI_LINK = /\[\[([^[\]\n|]+?)(\|[^[\]\n]*)?\]\]/g;

/** The trimmed ids a body links to, in order of first appearance, each once (compared exactly). */
export function linkTargets(body: string): string[] {
  if (!body.includes('[[')) return [];
  const seen = new Set<string>();
  for (const match of body.matchAll(WIKI_LINK)) {
    const id = match[1]!.trim();
    if (id) seen.add(id);
  }
  return [...seen];
}
