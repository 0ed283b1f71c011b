import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * A process's start time as the system records it, or null where it cannot be read. A pid names
 * the same process only while this value stays the same: after the owner dies its pid can be
 * given to an unrelated process, which then has another start time. How it is read depends on
 * the platform (each is one string; only equality is ever asked of it):
 *   - Linux: field 22 of /proc/<pid>/stat (clock ticks since boot);
 *   - Windows: the process's creation time from PowerShell (Get-Process), in .NET ticks (UTC);
 *   - macOS, the BSDs and any other Unix: `ps -o lstart=` (to the second).
 */
export function processStart(pid: number, platform: NodeJS.Platform = process.platform): string | null {
  if (platform === 'linux') return procStatStart(pid);
  if (platform === 'win32') return windowsStart(pid);
  return psStart(pid);
}

export function procStatStart(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // the process is gone (or no /proc): callers then go by pid and heartbeat
  }
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * `ps -o lstart= -p PID` in the C locale and UTC, e.g. `Mon Nov 30 23:49:57 2026`, as seconds
 * since 1970 (`ps:1796082597`). An answer in another shape (a ps with its own format) is kept as
 * its words, which are just as stable for one process. Its resolution is one second: a pid
 * reused within the second its owner died is caught by the lock's heartbeat instead.
 */
export function psStart(pid: number): string | null {
  const out = run('ps', ['-o', 'lstart=', '-p', String(pid)]);
  return out === null ? null : parseLstart(out);
}

export function parseLstart(out: string): string | null {
  const words = out.trim().split(/\s+/);
  if (words.length === 0 || words[0] === '') return null;
  const [, mon, day, time, year] = words;
  const month = MONTHS.indexOf(mon ?? '');
  const hms = /^(\d{1,2}):(\d{2}):(\d{2})$/.exec(time ?? '');
  if (words.length === 5 && month >= 0 && hms && /^\d{1,2}$/.test(day ?? '') && /^\d{4}$/.test(year ?? ''))
    return `ps:${Date.UTC(Number(year), month, Number(day), Number(hms[1]), Number(hms[2]), Number(hms[3])) / 1000}`;
  return `ps:${words.join(' ')}`;
}

/**
 * PowerShell ships with every supported Windows; wmic, the older way, is being removed. Not run on
 * Windows by this project's CI (it has none): only parseWindowsStart is tested, on the output
 * shapes Microsoft documents.
 */
export function windowsStart(pid: number): string | null {
  return parseWindowsStart(
    run('powershell.exe', [
      '-NoProfile',
      '-NonInteractive',
      '-Command',
      `(Get-Process -Id ${pid} -ErrorAction Stop).StartTime.ToUniversalTime().Ticks`,
    ]),
  );
}

/**
 * What the command above prints: a DateTime's Ticks (an Int64: 100 ns since 0001-01-01, printed as
 * bare digits in every culture) and a line end, CRLF on Windows — maybe after a byte-order mark
 * when the console's output encoding is UTF-8 with one. Anything else is no answer: an error
 * (no such process, access denied to a system process's start time) leaves stdout empty and
 * fails the command, which `run` already turns into null.
 */
export function parseWindowsStart(out: string | null): string | null {
  const ticks = out?.replace(/^\uFEFF/, '').trim() ?? '';
  return /^\d{1,19}$/.test(ticks) ? `win:${ticks}` : null;
}

/** A short system command's output, or null when it fails (the process is gone, no such tool). */
function run(command: string, args: string[]): string | null {
  try {
    return execFileSync(command, args, {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' },
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
      windowsHide: true,
    });
  } catch {
    return null;
  }
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
