import fs from 'node:fs/promises';
import path from 'node:path';
import { createAgentsHandlers } from '../../electron/api/handlers/agents.js';
import { createMemoryCore } from '../../electron/memory/core.js';
import { createNotesService } from '../../electron/memory/notes-service.js';
import type { MemoryCore, NotesService } from '../../electron/memory/types.js';
import { tempDir } from '../support/temp-dir.js';

/** A real core on real temp directories, with an injected clock. */
export interface Harness {
  tmp: string;
  home: string;
  projectRoot: string;
  core: MemoryCore;
  notes: NotesService;
  handlers: ReturnType<typeof createAgentsHandlers>;
  clock: { now: number };
  close(): Promise<void>;
}

export async function makeHarness(
  opts: { projectName?: string; env?: Record<string, string | undefined>; withProject?: boolean } = {},
): Promise<Harness> {
  const tmp = await tempDir('agents');
  const home = path.join(tmp, 'home');
  const projectRoot = path.join(tmp, opts.projectName ?? 'My Project');
  await fs.mkdir(projectRoot, { recursive: true });
  await fs.mkdir(home, { recursive: true });
  const clock = { now: 1_780_000_000_000 };
  const env = opts.env ?? {};
  const core = await createMemoryCore({
    home,
    ...(opts.withProject === false ? {} : { projectRoot }),
    now: () => clock.now,
    env,
  });
  if (opts.withProject !== false) await core.registerProject();
  const notes = createNotesService(core);
  const handlers = createAgentsHandlers({ core, notes, cwd: projectRoot, env });
  return {
    tmp,
    home,
    projectRoot,
    core,
    notes,
    handlers,
    clock,
    close: async () => {
      await core.close();
      await fs.rm(tmp, { recursive: true, force: true });
    },
  };
}

export async function mdFiles(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.md')).sort();
}
