/** Frontmatter keys this app does not know (an agent's own), as a note carries them. */
export type ExtraKeys = Readonly<Record<string, unknown>> | undefined;

/**
 * Foreign frontmatter keys merge key by key, three-way: a key changed (added, edited, removed) on
 * one side only takes that side's value; a key both sides changed to the same value takes it; a
 * key edited on one side and removed on the other keeps the edit; a key both sides edited
 * differently keeps this computer's value (a clean merge backs up both
 * versions first, so the cloud's value is in a backup). Values compare by their JSON. The result is
 * undefined when no key is left, so a note without foreign keys stays without them.
 */
export function mergeExtra(
  base: ExtraKeys,
  local: ExtraKeys,
  cloud: ExtraKeys,
): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const keys = new Set([
    ...Object.keys(base ?? {}),
    ...Object.keys(local ?? {}),
    ...Object.keys(cloud ?? {}),
  ]);
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  for (const key of [...keys].sort()) {
    const b = base?.[key];
    const l = local?.[key];
    const c = cloud?.[key];
    // Changed on both sides: an edit wins over a removal (as for whole notes), else this computer's.
    const value = same(l, b) ? c : same(c, b) ? l : (l ?? c);
    if (value !== undefined) out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
