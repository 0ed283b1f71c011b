import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, detectTransport, ipcTransport } from '../../renderer/api/client.js';
import { ApiError, errorFromUnknownBody, isApiError } from '../../renderer/api/errors.js';
import { createHttpTransport } from '../../renderer/api/http-transport.js';
import type { MemoryDeskBridge } from '../../shared/ipc-contract.js';
import { startSeededBridge, type BridgeEnv } from '../bridge/helpers.js';

/** The renderer's API client against the real web bridge: results, and every kind of failure as an ApiError. */
let env: BridgeEnv;
beforeAll(async () => {
  env = await startSeededBridge();
});
afterAll(async () => {
  await env?.close();
});

const client = () => createApiClient(createHttpTransport({ baseUrl: env.base, headers: env.auth }));

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

describe('API client over HTTP', () => {
  it('returns results typed by the API table', async () => {
    const status = await client().call('app.status', {});
    expect(status.counts).toEqual({ project: 11, user: 6 });
    expect(client().transportKind).toBe('http');
  });

  it('turns invalid input into an ApiError with the code and the message, and writes nothing', async () => {
    const before = await fs.readdir(env.projectDir);
    const err = await rejection(client().call('notes.remember', { summary: '', body: 'x' }));
    expect(err.code).toBe('invalid_input');
    expect(err.message).toContain('a summary is required');
    expect(await fs.readdir(env.projectDir)).toEqual(before);
  });

  it('reports not_found and conflict with their codes', async () => {
    expect((await rejection(client().call('notes.get', { id: 'nope-404' }))).code).toBe('not_found');
    const note = await client().call('notes.get', { id: 'tests-real-db-2aa' });
    await client().call('notes.edit', { id: note.id, body: 'changed\n', baseHash: note.hash });
    const stale = await rejection(
      client().call('notes.edit', { id: note.id, body: 'stale\n', baseHash: note.hash }),
    );
    expect(stale.code).toBe('conflict');
    expect(await fs.readFile(path.join(env.projectDir, 'tests-real-db-2aa.md'), 'utf8')).toContain('changed');
  });

  it('says the bridge refused when the secret header is missing', async () => {
    const noSecret = createApiClient(createHttpTransport({ baseUrl: env.base }));
    const err = await rejection(noSecret.call('notes.list', { scope: 'both' }));
    expect(err.code).toBe('refused');
    expect(err.message).toContain('npm run demo');
  });

  it('says the bridge is unreachable when nothing listens', async () => {
    const gone = await startSeededBridge();
    const base = gone.base;
    await gone.close();
    const err = await rejection(
      createApiClient(createHttpTransport({ baseUrl: base })).call('notes.list', { scope: 'both' }),
    );
    expect(err.code).toBe('unavailable');
    expect(err.message).toMatch(/not reachable/);
  });
});

describe('API client over the preload bridge', () => {
  const bridge = (invoke: MemoryDeskBridge['invoke']): MemoryDeskBridge => ({
    invoke,
    archive: async () => ({ ok: true, result: { op: 'cancelled' } }),
    subscribe: () => () => undefined,
    onMenuCommand: () => () => undefined,
    platform: 'linux',
  });

  it('is picked when window.memoryDesk exists, HTTP otherwise', () => {
    expect(detectTransport({ memoryDesk: bridge(async () => ({ ok: true, result: null })) }).kind).toBe(
      'ipc',
    );
    expect(detectTransport({}).kind).toBe('http');
  });

  it('maps error replies and a failing channel to ApiError', async () => {
    const refused = createApiClient(
      ipcTransport(
        bridge(async () => ({
          ok: false,
          error: { code: 'refused', message: 'IPC call from an untrusted frame refused.' },
        })),
      ),
    );
    const e1 = await rejection(refused.call('notes.list', { scope: 'both' }));
    expect([e1.code, e1.message]).toEqual(['refused', 'IPC call from an untrusted frame refused.']);
    const broken = createApiClient(
      ipcTransport(
        bridge(async () => {
          throw new Error('channel closed');
        }),
      ),
    );
    const e2 = await rejection(broken.call('notes.list', { scope: 'both' }));
    expect(e2.code).toBe('unavailable');
    expect(e2.message).toContain('channel closed');
    expect(isApiError(e2, 'unavailable')).toBe(true);
  });
});

describe('errorFromUnknownBody', () => {
  it('keeps a well-formed error, explains anything else', () => {
    expect(errorFromUnknownBody(409, { error: { code: 'conflict', message: 'changed' } }, '')).toMatchObject({
      code: 'conflict',
      message: 'changed',
    });
    expect(errorFromUnknownBody(502, null, '<html>bad gateway</html>')).toMatchObject({
      code: 'internal',
      message: '<html>bad gateway</html> (HTTP 502)',
    });
    expect(errorFromUnknownBody(500, null, '')).toMatchObject({
      code: 'internal',
      message: 'unexpected answer from the bridge (HTTP 500)',
    });
  });
});
