import type { AppEvent } from '../../shared/events.js';
import type { CleanupDeps } from '../cleanup/background.js';
import { createMemoryCore } from '../memory/core.js';
import { createNotesService } from '../memory/notes-service.js';
import type { MemoryCore, NotesService } from '../memory/types.js';

/**
 * What the handler table is built on. Areas that need more services (sync, cleanup) add optional
 * fields here and build them in `createApiContext`.
 */
export interface HandlerContext {
  core: MemoryCore;
  notes: NotesService;
  /** The directory the process works in. */
  cwd: string;
  env: Record<string, string | undefined>;
  /** 待整理's key store and sync link (the desktop app passes a safeStorage key store). */
  cleanup?: CleanupDeps;
  /**
   * Shows a sign-in page to the person in the system browser (RFC 8252: never an embedded page).
   * The app passes shell.openExternal; the CLI prints the URL. Without it, sign-in is refused.
   */
  openExternal?: (url: string) => Promise<void> | void;
}

export interface ApiContextOptions {
  home: string;
  projectRoot?: string;
  now?: () => number;
  emit?: (event: AppEvent) => void;
  env?: Record<string, string | undefined>;
  watch?: boolean;
  lockTimeoutMs?: number;
  cwd?: string;
}

export async function createApiContext(opts: ApiContextOptions): Promise<HandlerContext> {
  const env = opts.env ?? process.env;
  const core = await createMemoryCore({
    home: opts.home,
    env,
    ...(opts.projectRoot !== undefined ? { projectRoot: opts.projectRoot } : {}),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.emit ? { emit: opts.emit } : {}),
    ...(opts.watch ? { watch: true } : {}),
    ...(opts.lockTimeoutMs !== undefined ? { lockTimeoutMs: opts.lockTimeoutMs } : {}),
  });
  return { core, notes: createNotesService(core), cwd: opts.cwd ?? process.cwd(), env };
}
