import { afterEach, describe, expect, it } from 'vitest';
import { CleanupService } from '../../electron/cleanup/cleanup-service.js';
import { MemoryKeyStore } from '../../electron/cleanup/model/key-store.js';
import { normalizeOrigin } from '../../electron/sync/cloud-config.js';
import { sandbox, type Sandbox } from '../cleanup/helpers.js';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

describe('the model API key belongs to its base URL', () => {
  it('changing the URL without entering the key again drops the key', async () => {
    sb = await sandbox();
    const keys = new MemoryKeyStore();
    const svc = new CleanupService({ core: sb.core, keyStore: keys });
    await svc.configureModel({
      baseUrl: 'https://api.example.com/v1',
      model: 'm',
      apiKey: 'sk-real-key-0123456789abcdef',
    });
    expect(await svc.modelStatus()).toMatchObject({ hasApiKey: true });
    // Someone (or a tampered setting) points the model elsewhere: the key does not follow.
    await svc.configureModel({ baseUrl: 'https://collector.example.net/v1', model: 'm' });
    expect(await svc.modelStatus()).toMatchObject({ hasApiKey: false });
    expect(await keys.get()).toBeNull();
    await svc.configureModel({ baseUrl: 'https://api.example.com/v1', model: 'm' });
    expect(await svc.modelStatus()).toMatchObject({ hasApiKey: false });
    // The same URL keeps it (changing only the model name).
    await svc.configureModel({
      baseUrl: 'https://api.example.com/v1',
      model: 'm',
      apiKey: 'sk-real-key-0123456789abcdef',
    });
    await svc.configureModel({ baseUrl: 'https://api.example.com/v1', model: 'bigger' });
    expect(await svc.modelStatus()).toMatchObject({ hasApiKey: true });
  });

  it('a key stored by an older version (plain text) is bound to the URL configured then', async () => {
    sb = await sandbox();
    const keys = new MemoryKeyStore();
    const svc = new CleanupService({ core: sb.core, keyStore: keys });
    await svc.configureModel({ baseUrl: 'https://api.example.com/v1', model: 'm' });
    await keys.set('sk-legacy-key-0123456789abcdef');
    expect(await svc.modelStatus()).toMatchObject({ hasApiKey: true });
    await svc.configureModel({ baseUrl: 'https://other.example.org/v1', model: 'm' });
    expect(await svc.modelStatus()).toMatchObject({ hasApiKey: false });
  });
});

describe('http:// only to this machine', () => {
  it.each([
    ['http://api.example.com/v1', false],
    ['ftp://api.example.com/', false],
    ['http://127.0.0.1:11434/v1', true],
    ['http://localhost:1234/v1', true],
    ['http://[::1]:8080/v1', true],
    ['https://api.example.com/v1', true],
  ])('model base URL %s accepted: %s', async (baseUrl, ok) => {
    sb = await sandbox();
    const svc = new CleanupService({ core: sb.core, keyStore: new MemoryKeyStore() });
    const configured = svc.configureModel({ baseUrl, model: 'm', apiKey: 'k' });
    if (ok) await expect(configured).resolves.toMatchObject({ baseUrl });
    else
      await expect(configured).rejects.toMatchObject({
        code: 'invalid_input',
        message: expect.stringMatching(/https:\/\//),
      });
  });

  it('sync origins: https anywhere, http only on loopback', () => {
    expect(() => normalizeOrigin('http://sync.example.com')).toThrow(/must start with https:\/\//);
    expect(normalizeOrigin('http://127.0.0.1:8787/x')).toBe('http://127.0.0.1:8787');
    expect(normalizeOrigin('https://sync.example.com/')).toBe('https://sync.example.com');
  });
});
