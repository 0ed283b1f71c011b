import type { ApiOutput } from '../../shared/api.js';
import type { MemoryCore } from '../memory/types.js';
import { PROJECT_TAG_PREFIX } from '../memory/search/index.js';
import { projectFilterLabel } from './project-filter.js';

type Tagged = ApiOutput<'agents.connections'>['taggedForProjects'];

/**
 * User notes tagged for projects (`project:<label>`), by label, and whether the open project hides
 * them — the one-off check `memdesk info` shows: which facts only some projects see.
 */
export async function notesTaggedForProjects(
  core: MemoryCore,
): Promise<{ projectLabel: string | null; taggedForProjects: Tagged }> {
  const here = (await projectFilterLabel(core)) ?? null;
  const byLabel = new Map<string, Array<{ id: string; summary: string }>>();
  for (const note of core.store('user')?.list() ?? []) {
    for (const tag of note.tags) {
      const lower = tag.toLowerCase();
      if (!lower.startsWith(PROJECT_TAG_PREFIX)) continue;
      const label = lower.slice(PROJECT_TAG_PREFIX.length);
      byLabel.set(label, [...(byLabel.get(label) ?? []), { id: note.id, summary: note.summary }]);
    }
  }
  const taggedForProjects = [...byLabel]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([label, notes]) => ({ label, hiddenHere: here !== null && label !== here, notes }));
  return { projectLabel: here, taggedForProjects };
}
