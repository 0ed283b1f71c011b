import { OwnerLock } from '../../electron/sync/owner/owner-lock.js';
import { systemClock } from '../../electron/sync/clock.js';

/**
 * A real process contending for the owner lock: `hold-lock.ts LOCKFILE hold|once`. Prints
 * "acquired" or "refused" after one attempt; with `hold` it keeps the lock and renews its
 * heartbeat until killed.
 */
const [file, mode] = process.argv.slice(2);
const lock = new OwnerLock(file!, { clock: systemClock, role: 'mcp' });
const got = lock.tryAcquire();
process.stdout.write(got ? 'acquired\n' : 'refused\n');
if (mode === 'hold' && got) setInterval(() => lock.heartbeat(), 200);
