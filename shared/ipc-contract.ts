import type { ApiInput, ApiMethodName, ApiOutput } from './api.js';
import type { AppEvent } from './events.js';
import type { ArchiveRequest } from './note-archives.js';

/**
 * The contract between the main process, the preload script and the renderer. One generic invoke
 * channel for the whole API table, one channel for everything main pushes (change events and menu
 * commands). Type-only for the renderer; the preload and the ipc binding use the channel names.
 */
export const INVOKE_CHANNEL = 'memory-desk:invoke';
export const EVENT_CHANNEL = 'memory-desk:event';

/** Menu items whose work happens in the page (the shortcuts live in the native menu). */
export const MENU_COMMANDS = [
  'note.new',
  'note.save',
  'find',
  'sync.now',
  'project.changed',
  'conflicts.open',
] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];

/** What travels on EVENT_CHANNEL. */
export type MainMessage = { kind: 'event'; event: AppEvent } | { kind: 'command'; command: MenuCommand };

/** What invoke resolves to: errors travel as data, so their code survives the IPC boundary. */
export type InvokeReply =
  { ok: true; result: unknown } | { ok: false; error: { code: string; message: string; details?: unknown } };

/** `window.memoryDesk`, exposed by electron/preload.ts. */
export interface MemoryDeskBridge {
  invoke<M extends ApiMethodName>(method: M, input: ApiInput<M>): Promise<InvokeReply>;
  subscribe(listener: (event: AppEvent) => void): () => void;
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
  /**
   * Export / import a scope as a zip through the system's file dialog (shared/note-archives.ts):
   * resolves to an ArchiveOutcome, or an error, as invoke does.
   */
  archive(request: ArchiveRequest): Promise<InvokeReply>;
  /** 'darwin' | 'win32' | 'linux' — for showing ⌘ or Ctrl. */
  platform: string;
}

export type { ApiOutput };
