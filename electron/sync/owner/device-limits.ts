import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { unlessMissing } from '../../memory/unexpected-error.js';

const DeviceLimitsSchema = z.object({
  /** Start times of the device's sync requests in the budget's window. */
  starts: z.array(z.number()),
  /** A 429 pauses every directory of every process of the device until then. */
  pausedUntil: z.number().nullable(),
});
export type DeviceLimits = z.infer<typeof DeviceLimitsSchema>;

const EMPTY: DeviceLimits = { starts: [], pausedUntil: null };

/**
 * The request budget and 429 pause of the device, in one small file every process of the home
 * reads (memory-sync/owner/device-limits.json), so ≈ 20 requests a minute and a Retry-After hold
 * for the app, the web bridge, MCP servers and CLI runs together. Read and written synchronously:
 * the scheduler asks for it in synchronous code, and it is a few hundred bytes. Writers are
 * rounds, which run one at a time across the home's processes (the rounds lock), so a
 * read-modify-write is not interleaved with another's.
 */
export class DeviceLimitsFile {
  constructor(readonly file: string) {}

  read(): DeviceLimits {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      unlessMissing(err, 'device limits: read'); // missing: no round has been limited yet
      return EMPTY;
    }
    try {
      const parsed = DeviceLimitsSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : EMPTY;
    } catch {
      // Written whole by rename: a damaged file only loses the window, which then starts afresh.
      return EMPTY;
    }
  }

  update(change: (current: DeviceLimits) => DeviceLimits): DeviceLimits {
    const next = change(this.read());
    mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temp, JSON.stringify(next));
    renameSync(temp, this.file);
    return next;
  }
}
