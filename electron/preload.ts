import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { AppEvent } from '../shared/events.js';
import { ARCHIVE_CHANNEL } from '../shared/note-archives.js';
import {
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  type MainMessage,
  type MemoryDeskBridge,
  type MenuCommand,
} from '../shared/ipc-contract.js';

/**
 * The only thing the sandboxed renderer gets: one generic invoke and two listeners over one event
 * channel. No ipcRenderer, no Node. The main process validates every call (invokeApi) and its sender.
 */
function listen(filter: (message: MainMessage) => void): () => void {
  const wrapped = (_event: IpcRendererEvent, message: MainMessage) => filter(message);
  ipcRenderer.on(EVENT_CHANNEL, wrapped);
  return () => {
    ipcRenderer.removeListener(EVENT_CHANNEL, wrapped);
  };
}

const bridge: MemoryDeskBridge = {
  invoke: (method, input) => ipcRenderer.invoke(INVOKE_CHANNEL, method, input),
  subscribe: (listener: (event: AppEvent) => void) =>
    listen((m) => {
      if (m.kind === 'event') listener(m.event);
    }),
  onMenuCommand: (listener: (command: MenuCommand) => void) =>
    listen((m) => {
      if (m.kind === 'command') listener(m.command);
    }),
  // The request is checked in main (strict schema: a scope, never a path).
  archive: (request) => ipcRenderer.invoke(ARCHIVE_CHANNEL, request),
  platform: process.platform,
};

contextBridge.exposeInMainWorld('memoryDesk', bridge);
