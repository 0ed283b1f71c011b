import type { MemoryCore } from '../memory/types.js';
import { projectLabel } from './retain/bank-scope.js';

const labels = new WeakMap<MemoryCore, Promise<string | undefined>>();

/**
 * The label of the open project — the same one retain tags facts with (`project:<label>`) — that
 * recall, search and the memory index filter by, so project B never sees project A's tagged facts.
 * undefined when no project is open (the app's user-only view): nothing is filtered then. Worked
 * out once per core (it reads the git metadata under the project).
 */
export function projectFilterLabel(core: MemoryCore): Promise<string | undefined> {
  let label = labels.get(core);
  if (!label) {
    label = core.project ? projectLabel(core.project.root) : Promise.resolve(undefined);
    labels.set(core, label);
  }
  return label;
}
