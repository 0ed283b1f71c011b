import type { AppEvent } from '../../shared/events.js';
import type { InvokeReply, MenuCommand } from '../../shared/ipc-contract.js';
import type { ArchiveRequest } from '../../shared/note-archives.js';

/** How the API client reaches the handler table: the preload bridge (desktop) or HTTP (web demo). */
export interface Transport {
  readonly kind: 'ipc' | 'http';
  invoke(method: string, input: unknown): Promise<InvokeReply>;
  /** Export / import a scope as a zip: the system's file dialog (desktop), a download / file input (web). */
  archive(request: ArchiveRequest): Promise<InvokeReply>;
  subscribe(listener: (event: AppEvent) => void): () => void;
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
  /** Connection state of the event stream, for the "reconnecting" notice. */
  onConnectionChange?(listener: (connected: boolean) => void): () => void;
}
