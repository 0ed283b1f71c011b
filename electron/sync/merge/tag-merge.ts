/**
 * Tags merge as sets: what either side added stays, what either side removed goes. Tags are compared
 * exactly (a change of spelling is a remove plus an add); the result keeps this computer's order,
 * then the cloud's additions in the cloud's order. Spellings that differ only in case (both sides
 * added "work" / "Work") collapse to one, as saving a note does; the one that sorts first is kept,
 * so the result does not depend on which side is which. Tag order carries no meaning: the content
 * hash sorts tags.
 */
export function mergeTags(
  base: readonly string[],
  local: readonly string[],
  cloud: readonly string[],
): string[] {
  const inBase = new Set(base);
  const inLocal = new Set(local);
  const inCloud = new Set(cloud);
  const keep = (tag: string): boolean => {
    const added = !inBase.has(tag) && (inLocal.has(tag) || inCloud.has(tag));
    const removed = inBase.has(tag) && (!inLocal.has(tag) || !inCloud.has(tag));
    return added || (inBase.has(tag) && !removed);
  };
  const byKey = new Map<string, string>(); // lower-case key → spelling kept, in first-seen order
  for (const tag of [...local, ...cloud]) {
    if (!keep(tag)) continue;
    const key = tag.toLowerCase();
    const kept = byKey.get(key);
    if (kept === undefined || tag < kept) byKey.set(key, tag);
  }
  return [...byKey.values()];
}
