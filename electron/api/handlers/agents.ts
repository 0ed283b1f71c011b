import type { MemoryCore, NotesService } from '../../memory/types.js';
import { exportScope, importArchive } from '../../agents/archive/export-import.js';
import { importMnemopi } from '../../agents/mnemopi/import-mnemopi.js';
import { retain } from '../../agents/retain/retain.js';
import type { ApiHandlers } from '../dispatch.js';

/** What the agents handlers need; the handler table's context provides it. */
export interface AgentsHandlerContext {
  core: MemoryCore;
  notes: NotesService;
  /** The directory the process works in (the project label for retain when no project is open). */
  cwd?: string;
  env?: Record<string, string | undefined>;
}

export type AgentsHandlers = Pick<
  ApiHandlers,
  'agents.retain' | 'agents.export' | 'agents.import' | 'agents.importMnemopi'
>;

export function createAgentsHandlers(ctx: AgentsHandlerContext): AgentsHandlers {
  return {
    'agents.retain': async (input) =>
      retain(
        {
          core: ctx.core,
          notes: ctx.notes,
          cwd: ctx.cwd ?? process.cwd(),
        },
        input,
      ),
    'agents.export': (input) => exportScope(ctx.core, input),
    'agents.import': (input) => importArchive(ctx.core, input),
    'agents.importMnemopi': (input) => importMnemopi(ctx.core, input),
  };
}
