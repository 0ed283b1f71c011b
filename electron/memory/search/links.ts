/** `[[id]]` links in a body, in order of first appearance, without duplicates (compared exactly). */
export function linkIds(body: string): string[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const m of body.matchAll(/\[\[([^[\]\n|]+?)(?:\|[^[\]\n]*)?\]\]/g)) {
    const id = m[1]!.trim();
    if (!id || seen.has(id)) continue;
    seen.add(id);
    ids.push(id);
  }
  return ids;
}
