import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiInput, ApiOutput } from '../../shared/api.js';
import { createAppRoot } from '../../electron/app/app-root.js';
import { invokeApi } from '../../electron/api/dispatch.js';
import { createHandlers } from '../../electron/api/handlers.js';
import { SEMANTIC_WEIGHT } from '../../electron/memory/search/fusion.js';
import {
  embeddingsKeyPath,
  embeddingsSettingsPath,
  readEmbeddingsSettings,
} from '../../electron/memory/semantic/settings.js';
import { startStandInEmbeddings, STAND_IN_DIMS } from '../semantic/stand-in-embeddings.js';
import type { StandInServer } from '../semantic/stand-in-embeddings.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * The semantic recall settings API (the app's panel calls these): read, save (the key in its own
 * owner-only file, never returned), test a connection against a stand-in embeddings server (up,
 * down, 401, wrong dimensions, wrong path), and the vector store's status.
 */
type Method =
  | 'semantic.settings'
  | 'semantic.configure'
  | 'semantic.testConnection'
  | 'semantic.status'
  | 'notes.search'
  | 'notes.remember';

let tmp: string;
let home: string;
let project: string;
let server: StandInServer;
let keyed: StandInServer;
let app: Awaited<ReturnType<typeof open>>;
const KEY = 'sk-stand-in-0123456789';

async function open() {
  const { ctx } = await createAppRoot({ home, env: {} }).open({ projectRoot: project });
  const handlers = createHandlers(ctx);
  return {
    call: <M extends Method>(method: M, input: Partial<ApiInput<M>>) =>
      invokeApi(handlers, method, input) as Promise<ApiOutput<M>>,
    close: () => ctx.core.close(),
  };
}

async function fileText(file: string): Promise<string | null> {
  return fs.readFile(file, 'utf8').catch(() => null);
}

beforeAll(async () => {
  tmp = await tempDir('semantic-settings');
  home = path.join(tmp, 'home');
  project = path.join(tmp, 'project');
  await fs.mkdir(project, { recursive: true });
  server = await startStandInEmbeddings();
  keyed = await startStandInEmbeddings({ apiKey: KEY });
  app = await open();
  for (const [summary, body] of [
    ['Car maintenance plan', 'Change the oil every 10,000 km.'],
    ['Watering the garden', 'Twice a week in summer.'],
  ])
    await app.call('notes.remember', { summary, body, type: 'user' });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await server?.close();
  await keyed?.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('semantic recall settings API', { timeout: 60_000 }, () => {
  it('is off by default, with nothing stored', async () => {
    expect(await app.call('semantic.settings', {})).toEqual({
      enabled: false,
      baseUrl: null,
      model: null,
      hasApiKey: false,
      active: false,
      weight: null,
      defaultWeight: SEMANTIC_WEIGHT,
    });
    expect(await app.call('semantic.status', {})).toMatchObject({
      active: false,
      embedded: 0,
      updatedAt: null,
    });
  });

  it('refuses to turn on without URL and model, or with plain http to another machine, changing nothing', async () => {
    await expect(
      app.call('semantic.configure', { enabled: true, baseUrl: null, model: 'm' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(
      app.call('semantic.configure', { enabled: true, baseUrl: 'http://192.0.2.1/v1', model: 'm' }),
    ).rejects.toThrow(/https:\/\//);
    await expect(
      app.call('semantic.configure', { enabled: true, baseUrl: 'not a url', model: 'm' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
    });
    expect(await fileText(embeddingsSettingsPath(home))).toBeNull();
  });

  it('tests a connection without saving it: up, down, 401, wrong path', async () => {
    expect(await app.call('semantic.testConnection', { baseUrl: server.baseUrl, model: 'stand-in' })).toEqual(
      {
        ok: true,
        dimensions: STAND_IN_DIMS,
      },
    );
    const gone = await startStandInEmbeddings();
    await gone.close();
    expect(
      await app.call('semantic.testConnection', { baseUrl: gone.baseUrl, model: 'stand-in' }),
    ).toMatchObject({
      ok: false,
      problem: 'down',
    });
    expect(
      await app.call('semantic.testConnection', { baseUrl: keyed.baseUrl, model: 'stand-in' }),
    ).toMatchObject({
      ok: false,
      problem: 'unauthorized',
      message: expect.stringMatching(/401/),
    });
    expect(
      await app.call('semantic.testConnection', { baseUrl: keyed.baseUrl, model: 'stand-in', apiKey: KEY }),
    ).toMatchObject({ ok: true });
    expect(
      await app.call('semantic.testConnection', {
        baseUrl: server.baseUrl.replace(/\/v1$/, ''),
        model: 'stand-in',
      }),
    ).toMatchObject({ ok: false, problem: 'http', message: expect.stringMatching(/404/) });
    expect(await fileText(embeddingsSettingsPath(home))).toBeNull();
  });

  it('saves: the key in an owner-only file of its own, never returned; a new URL without a key drops it', async () => {
    const out = await app.call('semantic.configure', {
      enabled: true,
      baseUrl: keyed.baseUrl,
      model: 'stand-in',
      apiKey: KEY,
    });
    expect(out).toEqual({
      enabled: true,
      baseUrl: keyed.baseUrl,
      model: 'stand-in',
      hasApiKey: true,
      active: true,
      weight: null,
      defaultWeight: SEMANTIC_WEIGHT,
    });
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(await fileText(embeddingsSettingsPath(home))).not.toContain(KEY);
    expect((await fileText(embeddingsKeyPath(home)))?.trim()).toBe(KEY);
    if (process.platform !== 'win32')
      expect((await fs.stat(embeddingsKeyPath(home))).mode & 0o777).toBe(0o600);
    // The stored key is used for a test of the saved URL.
    expect(
      await app.call('semantic.testConnection', { baseUrl: keyed.baseUrl, model: 'stand-in' }),
    ).toMatchObject({
      ok: true,
    });
    // Saving again without a key keeps it; another URL drops it (a key goes only where it was entered for).
    await app.call('semantic.configure', { enabled: false, baseUrl: keyed.baseUrl, model: 'stand-in' });
    expect((await app.call('semantic.settings', {})).hasApiKey).toBe(true);
    await app.call('semantic.configure', { enabled: true, baseUrl: server.baseUrl, model: 'stand-in' });
    expect(await app.call('semantic.settings', {})).toMatchObject({ hasApiKey: false, active: true });
    expect(await fileText(embeddingsKeyPath(home))).toBeNull();
  });

  it('status counts the notes embedded once a search ran; a model answering another size is caught', async () => {
    const hits = await app.call('notes.search', { query: 'automobile servicing' });
    expect(hits.notes.map((h) => h.summary)).toContain('Car maintenance plan');
    const status = await app.call('semantic.status', {});
    expect(status).toMatchObject({ active: true, embedded: 2, downSince: null });
    expect(status.notes).toBeGreaterThanOrEqual(2);
    expect(status.updatedAt).not.toBeNull();
    server.dimensions = 32;
    try {
      expect(
        await app.call('semantic.testConnection', { baseUrl: server.baseUrl, model: 'stand-in' }),
      ).toMatchObject({
        ok: false,
        problem: 'dimensions',
        message: expect.stringMatching(/32.*64/),
      });
    } finally {
      server.dimensions = STAND_IN_DIMS;
    }
  });

  it('status says when the endpoint is down; saving again tries it at once', async () => {
    const gone = await startStandInEmbeddings();
    await gone.close();
    await app.call('semantic.configure', { enabled: true, baseUrl: gone.baseUrl, model: 'stand-in' });
    const hits = await app.call('notes.search', { query: 'automobile servicing' });
    expect(hits.notice).toMatch(/semantic recall is off/);
    expect((await app.call('semantic.status', {})).downSince).not.toBeNull();
    await app.call('semantic.configure', { enabled: true, baseUrl: server.baseUrl, model: 'stand-in' });
    expect((await app.call('semantic.status', {})).downSince).toBeNull();
    const again = await app.call('notes.search', { query: 'automobile servicing' });
    expect(again.notice).toBeUndefined();
    expect(again.notes[0]?.summary).toBe('Car maintenance plan');
  });

  it("keeps a share of meaning only for the model it was set for; null or another model gives the default", async () => {
    const on = { enabled: true, baseUrl: server.baseUrl, model: 'stand-in' } as const;
    expect((await app.call('semantic.configure', { ...on, weight: 0.3 })).weight).toBe(0.3);
    expect((await readEmbeddingsSettings(home)).weight).toBe(0.3);
    // Saved again without a share (the switch, the key): the share stays with its model.
    expect((await app.call('semantic.configure', { ...on, enabled: false })).weight).toBe(0.3);
    expect((await app.call('semantic.configure', on)).weight).toBe(0.3);
    // Another model: a share measured for one model says nothing of another.
    expect((await app.call('semantic.configure', { ...on, model: 'other-model' })).weight).toBeNull();
    expect((await readEmbeddingsSettings(home)).weight).toBeUndefined();
    // So does another endpoint serving the same model name.
    await app.call('semantic.configure', { ...on, weight: 0.2 });
    const moved = await app.call('semantic.configure', { ...on, baseUrl: keyed.baseUrl });
    expect(moved.weight).toBeNull();
    // A share given with a new model is that model's; null is the default.
    expect((await app.call('semantic.configure', { ...on, model: 'other-model', weight: 0.4 })).weight).toBe(0.4);
    expect((await app.call('semantic.configure', { ...on, model: 'other-model', weight: null })).weight).toBeNull();
    await expect(app.call('semantic.configure', { ...on, weight: 1.5 })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await app.call('semantic.configure', on);
  });
});
