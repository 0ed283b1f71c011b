import { readFileSync } from 'node:fs';

/**
 * A process's start time as the kernel records it (Linux: field 22 of /proc/<pid>/stat, clock
 * ticks since boot), or null where it cannot be read. A pid names the same process only while
 * this value stays the same: after the owner dies its pid can be given to an unrelated process,
 * which then has another start time.
 */
export function processStart(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // no /proc (not Linux) or the process is gone: callers then go by pid and heartbeat
  }
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
