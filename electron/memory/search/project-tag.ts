import type { Scope } from '../../../shared/note.js';

/**
 * Project-true retain (`memory.retain.scoping: per-project-tagged`): a fact retained in project A lives in the
 * user scope tagged `project:a`. In project B, recall, search and the memory index leave out user
 * notes tagged only for other projects; untagged user notes stay visible everywhere, and project
 * notes live in their own project's directory anyway. Labels and tags compare ignoring case (retain
 * writes them lower-cased; a hand-written `project:Shop` still meets `shop`).
 */
export const PROJECT_TAG_PREFIX = 'project:';

export function hiddenInProject(
  note: { scope: Scope; tags: readonly string[] },
  projectLabel: string | undefined,
): boolean {
  if (projectLabel === undefined || note.scope !== 'user') return false;
  const own = PROJECT_TAG_PREFIX + projectLabel.toLowerCase();
  let taggedElsewhere = false;
  for (const tag of note.tags) {
    const lower = tag.toLowerCase();
    if (!lower.startsWith(PROJECT_TAG_PREFIX)) continue;
    if (lower === own) return false;
    taggedElsewhere = true;
  }
  return taggedElsewhere;
}
