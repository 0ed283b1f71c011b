import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scopeKeyHash, stableScopeKey } from '../../electron/sync/scope-key.js';
import { SyncTargetsStore } from '../../electron/sync/sync-targets.js';
import { FileTokenStore } from '../../electron/sync/token-store.js';
import { readCloudUrl, writeCloudUrl } from '../../electron/sync/cloud-config.js';
import { tempDir } from './harness.js';

describe('plugins.json, cloud.json and the token file', () => {
  it('defines stableScopeKey and keys scopes by its sha256', () => {
    expect(stableScopeKey({ scope: 'user' })).toBe('memory:user');
    expect(stableScopeKey({ scope: 'project', projectId: 'abc123' })).toBe('memory:project:abc123');
    expect(scopeKeyHash({ scope: 'user' })).toMatch(/^[0-9a-f]{64}$/);
    expect(() => stableScopeKey({ scope: 'project' })).toThrow(/registered project id/);
  });

  it('keeps every other key of plugins.json, binds a scope once, and never rebinds it', async () => {
    const dir = await tempDir('plugins');
    const file = path.join(dir, 'plugins.json');
    const original = {
      theme: 'dark',
      runtimePlugins: [
        { id: 'other', enabled: true },
        { id: 'memory', config: { keep: 1 } },
      ],
    };
    await fs.writeFile(file, JSON.stringify(original));
    const store = new SyncTargetsStore(file);
    const key = scopeKeyHash({ scope: 'user' });
    await store.setEnabled([key], false);
    expect(await store.bind(key, { userId: 'u1', origin: 'https://a.example' })).toEqual({
      userId: 'u1',
      origin: 'https://a.example',
      enabled: false,
    });
    expect(await store.bind(key, { userId: 'u2', origin: 'https://b.example' })).toMatchObject({
      userId: 'u1',
    });
    const data = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(data.theme).toBe('dark');
    expect(data.runtimePlugins[0]).toEqual({ id: 'other', enabled: true });
    expect(data.runtimePlugins[1].config.keep).toBe(1);
    expect(data.runtimePlugins[1].config.syncTargets[key]).toEqual({
      userId: 'u1',
      origin: 'https://a.example',
      enabled: false,
    });
  });

  it('refuses a malformed plugins.json with a message and does not rewrite it', async () => {
    const dir = await tempDir('plugins-bad');
    const file = path.join(dir, 'plugins.json');
    await fs.writeFile(file, '{ "runtimePlugins": [ broken');
    const store = new SyncTargetsStore(file);
    await expect(store.setEnabled([scopeKeyHash({ scope: 'user' })], false)).rejects.toThrow(
      /not valid JSON.*not rewritten/,
    );
    expect(await fs.readFile(file, 'utf8')).toBe('{ "runtimePlugins": [ broken');
    await fs.writeFile(file, '{ "runtimePlugins": 5 }');
    await expect(store.get('x')).rejects.toThrow(/runtimePlugins must be a list/);
  });

  it('keeps the token in a 0600 file and the URL (no secret) in cloud.json; bad URLs are refused', async () => {
    const dir = await tempDir('tokens');
    const tokens = new FileTokenStore(path.join(dir, 'credentials', 'sync-token.json'));
    await tokens.set('https://a.example', 'secret-token');
    expect((await fs.stat(tokens.file)).mode & 0o777).toBe(0o600);
    expect(await tokens.get('https://a.example')).toBe('secret-token');
    await tokens.clear('https://a.example');
    expect(await tokens.get('https://a.example')).toBeNull();
    const cloud = path.join(dir, 'cloud.json');
    await writeCloudUrl(cloud, 'https://sync.example/');
    expect(await readCloudUrl(cloud)).toBe('https://sync.example/');
    await fs.writeFile(cloud, '{"url": "not a url"}');
    await expect(readCloudUrl(cloud)).rejects.toThrow(/"url" must be a URL/);
  });
});
