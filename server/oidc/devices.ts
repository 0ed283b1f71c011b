import { z } from 'zod';
import { userSegment } from '../storage-keys.js';
import { PreconditionFailedError, type StorageAdapter } from '../storage/storage.js';

/**
 * Signed-in devices of the built-in provider: one per sign-in (its id is the provider's grant
 * id, which every access token carries as `did`), stored under `auth/devices/<account>/`.
 * Revoking marks the record (the list keeps it, dated) — the provider's grant and refresh
 * tokens are destroyed by the caller.
 */
const DeviceRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  lastSeenAt: z.number().nullable(),
  revokedAt: z.number().nullable(),
});
export type DeviceRecord = z.infer<typeof DeviceRecordSchema>;

function devicesPrefix(sub: string): string {
  return `auth/devices/${userSegment(sub)}/`;
}

function deviceKey(sub: string, id: string): string {
  return `${devicesPrefix(sub)}${userSegment(id)}.json`;
}

export class DeviceStore {
  constructor(private readonly storage: StorageAdapter) {}

  async create(sub: string, id: string, name: string, now: number): Promise<DeviceRecord> {
    const record: DeviceRecord = { id, name, createdAt: now, lastSeenAt: null, revokedAt: null };
    await this.storage.put(deviceKey(sub, id), JSON.stringify(record), { ifNoneMatch: '*' });
    return record;
  }

  async get(sub: string, id: string): Promise<DeviceRecord | null> {
    const stored = await this.storage.get(deviceKey(sub, id));
    return stored ? DeviceRecordSchema.parse(JSON.parse(stored.body.toString('utf8'))) : null;
  }

  async list(sub: string): Promise<DeviceRecord[]> {
    const keys = await this.storage.list(devicesPrefix(sub));
    const records = await Promise.all(
      keys.map(async (key) => {
        const stored = await this.storage.get(key);
        return stored ? DeviceRecordSchema.parse(JSON.parse(stored.body.toString('utf8'))) : null;
      }),
    );
    return records.filter((r): r is DeviceRecord => r !== null).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Applies `change` with a compare-and-swap; null when there is no such device. */
  async update(
    sub: string,
    id: string,
    change: (record: DeviceRecord) => DeviceRecord,
  ): Promise<DeviceRecord | null> {
    for (;;) {
      const stored = await this.storage.get(deviceKey(sub, id));
      if (!stored) return null;
      const next = change(DeviceRecordSchema.parse(JSON.parse(stored.body.toString('utf8'))));
      try {
        await this.storage.put(deviceKey(sub, id), JSON.stringify(next), { ifMatch: stored.etag });
        return next;
      } catch (err) {
        if (!(err instanceof PreconditionFailedError)) throw err;
      }
    }
  }
}
