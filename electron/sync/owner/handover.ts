import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { processIsAlive, processStart } from './process-identity.js';
import { unlessMissing } from '../../memory/unexpected-error.js';

/** procStart as in the owner lock: a pid reused by another process does not keep the request. */
const HandoverSchema = z.object({ pid: z.number().int(), procStart: z.string().nullable() });

/**
 * The desktop app owns sync whenever it runs: it keeps the sign-in in safeStorage, which no other
 * process can read, and shows the rounds' status. Started while another process owns sync, it
 * leaves this request; the owner hands over on its next heartbeat and, like every other process,
 * leaves the lock alone while a live process's request is waiting.
 */
export function askHandover(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, JSON.stringify({ pid: process.pid, procStart: processStart(process.pid) }));
  renameSync(temp, file);
}

/** The pid of a live process other than this one waiting for the lock, or null. */
export function handoverWaiting(file: string): number | null {
  let request: z.infer<typeof HandoverSchema>;
  try {
    const parsed = HandoverSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) return null;
    request = parsed.data;
  } catch (err) {
    unlessMissing(err, 'sync handover: read'); // missing: nobody is waiting
    return null;
  }
  const { pid, procStart } = request;
  if (pid === process.pid || !processIsAlive(pid)) return null;
  const start = processStart(pid);
  return procStart !== null && start !== null && start !== procStart ? null : pid;
}

/** The request is met (the app owns sync) or withdrawn (it exits). */
export function clearHandover(file: string): void {
  try {
    const parsed = HandoverSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success && parsed.data.pid === process.pid) unlinkSync(file);
  } catch (err) {
    unlessMissing(err, 'sync handover: clear'); // missing: no request to withdraw
  }
}
