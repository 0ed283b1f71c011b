/**
 * Tags are trimmed, split at commas and whitespace, and de-duplicated (ignoring case, first
 * spelling kept) before a note is saved.
 */
export function normalizeTags(input: string | readonly string[]): string[] {
  const parts = (typeof input === 'string' ? [input] : input).flatMap((t) => t.split(/[,\s]+/));
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const part of parts) {
    const tag = part.trim();
    if (!tag) continue;
    const key = tag.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags;
}
