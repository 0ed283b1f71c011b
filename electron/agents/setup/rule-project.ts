import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../shared/errors.js';
import { createMemoryCore } from '../../memory/core.js';
import type { MemoryCore } from '../../memory/types.js';
import { memoryPrompt } from '../recall/agent-recall.js';
import type { SetupProject } from './setup.js';

/**
 * The project Cursor's rule is for: the open project, or a folder the person chose (the Agents
 * page lists the projects that have a rule and takes any other folder). Another folder's prompt is
 * built by a core opened for it and closed again, so the rule lists that project's notes and
 * applies that project's tag filter, as `memdesk --project DIR setup cursor --project-rule` would.
 * Removing a rule needs no prompt, nor the folder to still exist (a project moved away is
 * forgotten all the same).
 */
export async function ruleProject(
  core: MemoryCore,
  env: Record<string, string | undefined>,
  chosen: { root: string | undefined; removing: boolean },
): Promise<SetupProject> {
  const open = core.project?.root ?? null;
  const openPrompt = async () => (await memoryPrompt(core)).prompt;
  if (chosen.root === undefined || (open !== null && path.resolve(open) === path.resolve(chosen.root)))
    return { root: open, prompt: openPrompt };
  const root = chosen.root;
  if (!path.isAbsolute(root))
    throw new AppError('invalid_input', `a project folder is an absolute path: ${root}`);
  if (!chosen.removing && !(await fs.stat(root).catch(() => null))?.isDirectory())
    throw new AppError('invalid_input', `no such folder: ${root}`);
  return {
    root: path.resolve(root),
    prompt: async () => {
      const other = await createMemoryCore({ home: core.home, projectRoot: root, env, now: core.now });
      try {
        return (await memoryPrompt(other)).prompt;
      } finally {
        await other.close();
      }
    },
  };
}
