import { WIKI_LINK as LINK } from '../../shared/links.js';
import { noteIdKey } from '../../shared/note-id.js';

/*
 * Rewriting `[[id]]` links in a body, with the syntax the core derives links from
 * (shared/links.ts): `[[id]]` and `[[id|label]]`, the id trimmed, compared ignoring case
 * (ids equal ignoring case name one note).
 */

/** Points every link to one of `from` (ids) at `to`; returns the new body and how many links changed. */
export function repointLinks(
  body: string,
  from: readonly string[],
  to: string,
): { body: string; count: number } {
  if (!body.includes('[[')) return { body, count: 0 };
  const keys = new Set(from.map(noteIdKey));
  let count = 0;
  const out = body.replace(LINK, (whole, id: string, label: string | undefined) => {
    if (!keys.has(noteIdKey(id.trim()))) return whole;
    count++;
    return `[[${to}${label ?? ''}]]`;
  });
  return { body: out, count };
}

/**
 * Removes the brackets of links to ids not in `allowed` (untrusted model output may invent links):
 * `[[made-up]]` → `made-up`, `[[made-up|the label]]` → `the label`.
 */
export function unbracketUnknownLinks(
  body: string,
  allowed: Iterable<string>,
): { body: string; removed: string[] } {
  const keys = new Set([...allowed].map(noteIdKey));
  const removed: string[] = [];
  const out = body.replace(LINK, (whole, id: string, label: string | undefined) => {
    const trimmed = id.trim();
    if (keys.has(noteIdKey(trimmed))) return whole;
    removed.push(trimmed);
    return label ? label.slice(1) : trimmed;
  });
  return { body: out, removed };
}
