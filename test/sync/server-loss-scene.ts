import { promises as fs } from 'node:fs';
import { expectOk, startDevice, tempDir, type Device, type TestServer, useTestServer } from './harness.js';

/**
 * The scene of the tests where the cloud loses its history (server-history, server-loss-decisions):
 * one real sync server on loopback for the file, accounts of devices on real temp homes, and the
 * operator's two acts on the server's data — a backup, and its replacement by nothing (wiped) or by
 * an older copy (restored from a backup). Devices opened here are closed with the server.
 */
export interface ServerLossScene {
  /**
   * A new account (user `<user>-<n>`): its token and a way to start devices signed in to it —
   * talking to the server directly, or `via` a fault proxy in front of it.
   */
  account(): Promise<{
    token: string;
    device: (name: string, home?: string, via?: { url: string }) => Promise<Device>;
  }>;
  /**
   * A new account with devices `names` that all hold `notes` (id → body), written on the first and
   * synced by each in turn; `device` starts more devices of that account.
   */
  synced<Names extends string[]>(
    notes: Record<string, string>,
    ...names: Names
  ): Promise<{
    devices: { [K in keyof Names]: Device };
    device: (name: string, home?: string) => Promise<Device>;
  }>;
  /** The server's data as it is now, to restore later (an operator's backup). */
  backupServer(): Promise<string>;
  /** Replaces the server's data: with nothing (wiped) or with an older copy (restored from a backup). */
  replaceServerData(from: string | null): Promise<void>;
  readonly server: TestServer;
}

export function useServerLossScene(user: string): ServerLossScene {
  let server: TestServer | null = null;
  let accounts = 0;
  const open: Device[] = [];
  useTestServer((started) => (server = started), open);
  const running = (): TestServer => {
    if (!server) throw new Error('the server starts before the tests');
    return server;
  };
  const account: ServerLossScene['account'] = async () => {
    const token = await running().token(`${user}-${++accounts}`);
    return {
      token,
      device: async (name, home, via) => {
        const d = await startDevice(name, via ?? running(), { token, ...(home ? { home } : {}) });
        open.push(d);
        return d;
      },
    };
  };
  return {
    get server() {
      return running();
    },
    account,
    synced: async (notes, ...names) => {
      const { device } = await account();
      const devices: Device[] = [];
      for (const name of names) devices.push(await device(name));
      for (const [id, body] of Object.entries(notes)) await devices[0]!.write(id, body);
      for (const d of devices) expectOk(await d.sync());
      return { devices: devices as { [K in keyof typeof names]: Device }, device };
    },
    backupServer: async () => {
      const copy = await tempDir('server-backup');
      await fs.cp(running().dataDir, copy, { recursive: true });
      return copy;
    },
    replaceServerData: async (from) => {
      const dir = running().dataDir;
      for (const name of await fs.readdir(dir))
        await fs.rm(`${dir}/${name}`, { recursive: true, force: true });
      if (from) await fs.cp(from, dir, { recursive: true });
    },
  };
}
