import type { ApiInput, ApiMethodName, ApiOutput } from '../../shared/api.js';
import type { AppEvent } from '../../shared/events.js';
import type { MemoryDeskBridge, MenuCommand } from '../../shared/ipc-contract.js';
import type { ArchiveOutcome, ArchiveRequest } from '../../shared/note-archives.js';
import { ApiError } from './errors.js';
import { BRIDGE_SECRET_HEADER } from '../../shared/web-bridge.js';
import { takeBridgeSecret } from './bridge-secret.js';
import { createHttpTransport } from './http-transport.js';
import type { Transport } from './transport.js';

/**
 * The renderer's one way to the core. Which transport carries a call (preload IPC or the HTTP web
 * bridge) is decided here and nowhere else.
 */
export interface ApiClient {
  readonly transportKind: Transport['kind'];
  call<M extends ApiMethodName>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>>;
  /** Export / import a scope as a zip; the person picks the file (shared/note-archives.ts). */
  archive(request: ArchiveRequest): Promise<ArchiveOutcome>;
  subscribe(listener: (event: AppEvent) => void): () => void;
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
  onConnectionChange(listener: (connected: boolean) => void): () => void;
}

export function createApiClient(transport: Transport): ApiClient {
  return {
    transportKind: transport.kind,
    async call(method, input) {
      let reply;
      try {
        reply = await transport.invoke(method, input);
      } catch (err) {
        throw new ApiError('unavailable', `${method} could not be sent: ${(err as Error).message}`);
      }
      if (!reply || typeof reply !== 'object') throw new ApiError('internal', `${method}: empty answer`);
      if (reply.ok) return reply.result as ApiOutput<typeof method>;
      throw new ApiError(reply.error.code, reply.error.message, reply.error.details);
    },
    async archive(request) {
      let reply;
      try {
        reply = await transport.archive(request);
      } catch (err) {
        throw new ApiError('unavailable', `${request.op} could not be sent: ${(err as Error).message}`);
      }
      if (reply.ok) return reply.result as ArchiveOutcome;
      throw new ApiError(reply.error.code, reply.error.message, reply.error.details);
    },
    subscribe: (listener) => transport.subscribe(listener),
    onMenuCommand: (listener) => transport.onMenuCommand(listener),
    onConnectionChange: (listener) => transport.onConnectionChange?.(listener) ?? (() => undefined),
  };
}

export function ipcTransport(bridge: MemoryDeskBridge): Transport {
  return {
    kind: 'ipc',
    invoke: (method, input) => bridge.invoke(method as ApiMethodName, input as never),
    archive: (request) => bridge.archive(request),
    subscribe: (l) => bridge.subscribe(l),
    onMenuCommand: (l) => bridge.onMenuCommand(l),
  };
}

/**
 * The preload bridge when the page runs inside the desktop app, the HTTP bridge otherwise (signed
 * in with the secret from the URL's fragment, see bridge-secret.ts).
 */
export function detectTransport(
  win: { memoryDesk?: MemoryDeskBridge } = globalThis as never,
  secret: () => string | null = takeBridgeSecret,
): Transport {
  if (win.memoryDesk) return ipcTransport(win.memoryDesk);
  const given = secret();
  return createHttpTransport(given ? { headers: { [BRIDGE_SECRET_HEADER]: given } } : {});
}
