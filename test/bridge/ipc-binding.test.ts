import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandlerContext } from '../../electron/api/context.js';
import { createAppRoot } from '../../electron/app/app-root.js';
import { createHandlers } from '../../electron/api/handlers.js';
import {
  bindIpc,
  EventBroadcaster,
  makeSenderCheck,
  type IpcInvokeEventLike,
  type IpcMainLike,
} from '../../electron/transports/ipc/bind.js';
import {
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  type InvokeReply,
  type MainMessage,
} from '../../shared/ipc-contract.js';
import { defaultSeedDirs, seedSampleNotes } from '../../electron/demo/seed.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * The IPC binding over the real handler table and core. Electron's ipcMain is the one thing that
 * cannot run here: this stand-in records handle() registrations with the same shape.
 */
class IpcMainStandIn implements IpcMainLike {
  handlers = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<unknown>>();
  handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => Promise<unknown>) {
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  call(url: string | null, method: unknown, input: unknown): Promise<InvokeReply> {
    const h = this.handlers.get(INVOKE_CHANNEL);
    if (!h) throw new Error('not bound');
    return h(
      { senderFrame: url === null ? null : { url }, sender: { id: 1 } },
      method,
      input,
    ) as Promise<InvokeReply>;
  }
}

const RENDERER = 'file:///app/.vite/renderer/main_window/index.html';
let root: string;
let ctx: HandlerContext;
let projectDir: string;
const ipc = new IpcMainStandIn();
let unbind: () => void;

beforeAll(async () => {
  root = await tempDir('ipc');
  const dirs = defaultSeedDirs(path.join(root, 'home'), path.join(root, 'project'));
  projectDir = dirs.projectMemoryDir;
  await seedSampleNotes(dirs);
  ({ ctx } = await createAppRoot({ home: path.join(root, 'home'), env: {} }).open({
    projectRoot: path.join(root, 'project'),
  }));
  const handlers = createHandlers(ctx);
  unbind = bindIpc(ipc, {
    handlers: () => handlers,
    isTrustedSender: makeSenderCheck((u) => u === RENDERER),
  });
});
afterAll(async () => {
  await ctx?.core.close();
  await fs.rm(root, { recursive: true, force: true });
});

describe('IPC binding', () => {
  it('answers the renderer through the one generic channel', async () => {
    const reply = await ipc.call(RENDERER, 'notes.list', { scope: 'user' });
    expect(reply.ok).toBe(true);
    if (reply.ok) expect((reply.result as { notes: unknown[] }).notes.length).toBe(6);
  });

  it('refuses calls from frames that are not the renderer (and from no frame)', async () => {
    for (const url of ['https://evil.example/', 'file:///tmp/other.html', null]) {
      const reply = await ipc.call(url, 'notes.list', {});
      expect(reply).toEqual({
        ok: false,
        error: { code: 'refused', message: 'IPC call from an untrusted frame refused.' },
      });
    }
  });

  it('validates every input with the API table and changes nothing on bad input', async () => {
    const before = await fs.readFile(path.join(projectDir, 'build-commands-1b0.md'), 'utf8');
    const bad = await ipc.call(RENDERER, 'notes.edit', { id: 'build-commands-1b0', type: 'nonsense' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('invalid_input');
      expect(bad.error.message).toMatch(/^notes\.edit: type/);
    }
    expect(await fs.readFile(path.join(projectDir, 'build-commands-1b0.md'), 'utf8')).toBe(before);
    const notString = await ipc.call(RENDERER, 42, {});
    expect(notString.ok).toBe(false);
  });

  it('reports a stale edit as a conflict and keeps the newer file', async () => {
    const note = await ipc.call(RENDERER, 'notes.get', { id: 'build-commands-1b0' });
    if (!note.ok) throw new Error(note.error.message);
    const hash = (note.result as { hash: string }).hash;
    const first = await ipc.call(RENDERER, 'notes.edit', {
      id: 'build-commands-1b0',
      body: 'first edit\n',
      baseHash: hash,
    });
    expect(first.ok).toBe(true);
    const stale = await ipc.call(RENDERER, 'notes.edit', {
      id: 'build-commands-1b0',
      body: 'stale edit\n',
      baseHash: hash,
    });
    expect(stale.ok).toBe(false);
    if (!stale.ok) expect(stale.error.code).toBe('conflict');
    expect(await fs.readFile(path.join(projectDir, 'build-commands-1b0.md'), 'utf8')).toContain('first edit');
  });

  it('unbinds', () => {
    unbind();
    expect(ipc.handlers.has(INVOKE_CHANNEL)).toBe(false);
  });
});

describe('EventBroadcaster', () => {
  it('sends events and menu commands on the one event channel and forgets destroyed windows', () => {
    const got: Array<[string, MainMessage]> = [];
    let destroyed = false;
    const b = new EventBroadcaster();
    b.add({ id: 1, isDestroyed: () => destroyed, send: (channel, message) => got.push([channel, message]) });
    b.event({ type: 'notes.changed', scope: 'project', ids: ['a'] });
    b.command('note.save');
    expect(got).toEqual([
      [EVENT_CHANNEL, { kind: 'event', event: { type: 'notes.changed', scope: 'project', ids: ['a'] } }],
      [EVENT_CHANNEL, { kind: 'command', command: 'note.save' }],
    ]);
    destroyed = true;
    b.command('find');
    expect(got).toHaveLength(2);
  });
});
