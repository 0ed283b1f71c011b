import type { StartExtraction } from '../agents/extract/detached.js';
import type { ExtractModel } from '../agents/extract/extract.js';
import type { SetupDeps } from '../agents/setup/setup.js';
import type { CleanupDeps } from '../cleanup/background.js';
import type { MemoryCore, NotesService } from '../memory/types.js';
import type { SyncRoundReport } from '../../shared/api/sync.js';
import type { DeletesDecision } from '../sync/round-report.js';
import type { SyncEngine } from '../sync/sync-engine.js';
import type { SyncService } from '../sync/sync-service.js';

/**
 * What the handler table is built on: one open project's services, built by the composition root
 * (electron/app/open-project.ts) and passed in explicitly — handlers reach for no process-global.
 */
export interface HandlerContext {
  core: MemoryCore;
  notes: NotesService;
  /** The directory the process works in. */
  cwd: string;
  env: Record<string, string | undefined>;
  /** This core's link to the process's sync engine. */
  sync: CoreSync;
  /** 待整理's key store, its link to sync, and (in long-running processes) the shared service. */
  cleanup: CleanupDeps;
  /** What the agents handlers (hooks, extraction, setup) are built on. */
  agents: AgentsServices;
  /**
   * Shows a sign-in page to the person in the system browser (RFC 8252: never an embedded page).
   * The app passes shell.openExternal; the CLI prints the URL. Without it, sign-in is refused.
   */
  openExternal?: (url: string) => Promise<void> | void;
}

export interface AgentsServices {
  /** Extraction's model, or null when none is set up. */
  extractModel(): Promise<ExtractModel | null>;
  /** Runs extraction in a process of its own, so a hook answers at once. */
  startExtraction: StartExtraction;
  /** What `setup` and `connections` read and write: OHARNESS_HOME, the environment, the clock. */
  setup: SetupDeps;
}

export interface CoreSync {
  /**
   * The process's sync engine with this core's directories attached. Built on the first call, so a
   * CLI command that never syncs never loads the engine.
   */
  engine(): Promise<SyncEngine>;
  /**
   * 立即同步: one round now for each of the services (this core's, attached), by the home's sync
   * owner when another process owns sync, else here. What each round did, by directory key.
   */
  roundNow(services: SyncService[], deletes?: DeletesDecision): Promise<Map<string, SyncRoundReport>>;
  /**
   * Runs an encryption change holding the home's sync: no other process of the home runs a round
   * meanwhile (electron/sync/owner/sync-hold.ts). Refused while another process holds it.
   */
  holdRounds<T>(change: () => Promise<T>): Promise<T>;
}
