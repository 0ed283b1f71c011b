import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDeviceKey } from '../../electron/sync/crypto/device-key.js';
import {
  changeEncryptionPassphrase,
  encryptionStatus,
  turnEncryptionOn,
  unlockEncryption,
  type EncryptionDeps,
} from '../../electron/sync/crypto/encryption-ops.js';
import { startDevice, startTestServer, type Device, type TestServer } from '../sync/harness.js';

/**
 * End-to-end encryption with the real sync engine and the real server on loopback: one device turns
 * it on, another keeps its notes untouched until it unlocks, then both sync sealed. scrypt runs at
 * 2^10 here (kdf.ts: 2^17 in use) to keep the test quick.
 */
let server: TestServer;
const devices: Device[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const d of devices) await d.close();
  await server.close();
});

function depsOf(d: Device): EncryptionDeps {
  return {
    accounts: d.engine.accounts,
    keys: d.engine.keys,
    logN: 10,
    async syncAll() {
      const result = await d.sync();
      const round = d.svc.lastRound;
      const error = d.svc.error
        ? { code: d.svc.error.code, message: d.svc.error.message }
        : result.outcome === 'ok'
          ? null
          : { code: result.outcome, message: 'did not sync' };
      return [
        { scope: 'user' as const, pushed: round?.pushed ?? 0, pulled: round?.pulled.added ?? 0, error },
      ];
    },
  };
}

async function stored(): Promise<string> {
  const parts: string[] = [];
  for (const key of await server.storage.list(''))
    parts.push(key, (await server.storage.get(key))!.body.toString('utf8'));
  return parts.join('\n');
}

async function device(name: string): Promise<Device> {
  const d = await startDevice(name, server, { token: await server.token('alice') });
  devices.push(d);
  return d;
}

describe('end-to-end encryption across devices', () => {
  it('on, locked second device untouched, unlock, sync both ways, change passphrase, recovery code', async () => {
    const a = await device('a');
    const b = await device('b');
    await a.write('harbour-plan', 'Meet the harbourmaster on Thursday about berth seventeen.\n', {
      summary: 'Harbour berth negotiation',
      tags: ['logistics'],
    });
    await a.write('menu-ideas', 'Saffron risotto, fennel salad.\n', { summary: 'Dinner menu ideas' });
    expect((await a.sync()).outcome).toBe('ok');
    expect((await b.sync()).outcome).toBe('ok');
    expect(b.ids()).toEqual(['harbour-plan', 'menu-ideas']);
    expect(await stored()).toContain('harbourmaster');

    const on = await turnEncryptionOn(depsOf(a), 'correct horse battery');
    expect(on.recoveryCode).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){7}$/);
    expect(on.scopes.map((s) => s.error)).toEqual([null]);
    expect(on.scopes[0]!.pushed).toBe(2);
    expect(on.purgedObjects).toBeGreaterThan(0);
    const everything = await stored();
    for (const word of ['harbour', 'berth', 'Saffron', 'menu-ideas', 'logistics', 'Dinner'])
      expect(everything).not.toContain(word);
    expect(await encryptionStatus(depsOf(a))).toMatchObject({
      accountEncrypted: true,
      unlocked: true,
      reuploadPending: false,
    });

    // B has no key: the server refuses it, and nothing of B's changes.
    await b.write('menu-ideas', 'Saffron risotto, fennel salad, lemon tart.\n', {
      summary: 'Dinner menu ideas',
    });
    expect((await b.sync()).outcome).not.toBe('ok');
    expect(b.svc.error?.code).toBe('account_encrypted');
    expect(b.ids()).toEqual(['harbour-plan', 'menu-ideas']);

    // A wrong passphrase writes nothing.
    await expect(unlockEncryption(depsOf(b), { passphrase: 'wrong horse battery' })).rejects.toMatchObject({
      failure: 'wrong_passphrase',
    });
    expect(await readDeviceKey(b.engine.keys, (await b.engine.accounts.origin())!)).toBeNull();

    // Unlocked, B syncs as a first sync against the sealed copy (its baseline starts over): the
    // edit it made while locked differs from the cloud with no common base, so it is a conflict
    // with both sides kept — never a silent overwrite either way.
    const unlocked = await unlockEncryption(depsOf(b), { passphrase: 'correct horse battery' });
    expect(unlocked.keyId).toBe(on.keyId);
    expect(unlocked.scopes[0]!.error).toBeNull();
    expect((await b.svc.conflicts()).map((c) => c.id)).toEqual(['menu-ideas']);
    expect(b.get('menu-ideas')?.body).toContain('lemon tart');
    expect(b.get('harbour-plan')?.body).toContain('berth seventeen');

    await a.write('tide-table', 'High water 06:40.\n');
    expect((await a.sync()).outcome).toBe('ok');
    expect((await b.sync()).outcome).toBe('ok');
    expect(b.get('tide-table')?.body).toBe('High water 06:40.\n');
    expect(await stored()).not.toContain('tide-table');

    // Changing the passphrase re-wraps only: B keeps syncing with the key it holds.
    await changeEncryptionPassphrase(depsOf(a), 'correct horse battery', 'staple tuned anew');
    await b.write('tide-table', 'High water 06:40, low 12:55.\n');
    expect((await b.sync()).outcome).toBe('ok');
    const c = await device('c');
    await expect(unlockEncryption(depsOf(c), { passphrase: 'correct horse battery' })).rejects.toMatchObject({
      failure: 'wrong_passphrase',
    });
    await unlockEncryption(depsOf(c), { passphrase: 'staple tuned anew' });
    expect(c.get('tide-table')?.body).toBe('High water 06:40, low 12:55.\n');
    const d = await device('d');
    await unlockEncryption(depsOf(d), { recoveryCode: on.recoveryCode!.toLowerCase() });
    expect(d.ids()).toEqual(['harbour-plan', 'menu-ideas', 'tide-table']);
  });
});
