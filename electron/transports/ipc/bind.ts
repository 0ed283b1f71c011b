import type { AppEvent } from '../../../shared/events.js';
import { invokeApi, type ApiHandlers } from '../../api/dispatch.js';
import { trustedReply } from './trusted-reply.js';
import {
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  type InvokeReply,
  type MainMessage,
  type MenuCommand,
} from '../../../shared/ipc-contract.js';

/**
 * The API table bound to Electron's ipcMain. Written against small structural interfaces so it runs
 * (and is tested) in plain Node; electron/main passes the real ipcMain and webContents.
 */

export interface IpcSenderFrame {
  url: string;
}

export interface IpcInvokeEventLike {
  senderFrame: IpcSenderFrame | null;
  sender: { id: number };
}

export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<unknown>,
  ): void;
  removeHandler(channel: string): void;
}

export interface WebContentsLike {
  id: number;
  isDestroyed(): boolean;
  send(channel: string, message: MainMessage): void;
}

export interface IpcBindingOptions {
  /** The current handler table; a function so opening another project swaps it without rebinding. */
  handlers: () => ApiHandlers;
  /** True for frames that load our renderer (checked on every call). */
  isTrustedSender: (event: IpcInvokeEventLike) => boolean;
}

export async function handleInvoke(
  opts: IpcBindingOptions,
  event: IpcInvokeEventLike,
  method: unknown,
  input: unknown,
): Promise<InvokeReply> {
  return trustedReply(opts.isTrustedSender(event), async () => {
    if (typeof method !== 'string') throw new TypeError('the method must be a string');
    return invokeApi(opts.handlers(), method, input);
  });
}

export function bindIpc(ipcMain: IpcMainLike, opts: IpcBindingOptions): () => void {
  ipcMain.handle(INVOKE_CHANNEL, (event, method, input) => handleInvoke(opts, event, method, input));
  return () => ipcMain.removeHandler(INVOKE_CHANNEL);
}

/** A sender is trusted when its frame's URL is the renderer's own origin (dev server or file://). */
export function makeSenderCheck(
  isRendererUrl: (url: string) => boolean,
): (event: IpcInvokeEventLike) => boolean {
  return (event) => {
    const url = event.senderFrame?.url;
    return typeof url === 'string' && isRendererUrl(url);
  };
}

/** Fans main → renderer messages out to every live window. */
export class EventBroadcaster {
  private readonly targets = new Set<WebContentsLike>();

  add(target: WebContentsLike): () => void {
    this.targets.add(target);
    return () => this.targets.delete(target);
  }

  private send(message: MainMessage): void {
    for (const t of this.targets) {
      if (t.isDestroyed()) this.targets.delete(t);
      else t.send(EVENT_CHANNEL, message);
    }
  }

  event(event: AppEvent): void {
    this.send({ kind: 'event', event });
  }

  command(command: MenuCommand): void {
    this.send({ kind: 'command', command });
  }
}
