import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  parseLstart,
  parseWindowsStart,
  procStatStart,
  processStart,
  psStart,
} from '../../electron/sync/owner/process-identity.js';
import { killHard } from './children.js';

/**
 * The start time that tells a reused pid from its first process, read where /proc does not
 * exist (macOS, the BSDs) with `ps -o lstart=`: run here against real processes (Linux has ps
 * too; CI installs procps when it is missing) and checked against the kernel's own record.
 */
describe('process start time without /proc', { timeout: 60_000 }, () => {
  it('ps gives a live process the start second /proc records for it, the same on every call, and nothing once it is gone', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const pid = child.pid!;
      const first = psStart(pid);
      expect(first).toMatch(/^ps:\d+$/);
      expect(psStart(pid)).toBe(first);
      // The kernel's record: ticks since boot (/proc/<pid>/stat) + boot time (/proc/stat btime).
      const ticks = Number(procStatStart(pid));
      const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))![1]);
      const hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
      const kernelSecond = btime + ticks / hz;
      expect(Math.abs(Number(first!.slice(3)) - kernelSecond)).toBeLessThanOrEqual(1);
      await killHard(child);
      expect(psStart(pid)).toBeNull();
    } finally {
      await killHard(child);
    }
  });

  it('the platform chooses the way: ps on macOS and the BSDs, /proc on Linux', () => {
    expect(processStart(process.pid, 'darwin')).toBe(psStart(process.pid));
    expect(processStart(process.pid, 'freebsd')).toBe(psStart(process.pid));
    expect(processStart(process.pid, 'linux')).toBe(procStatStart(process.pid));
  });

  it("ps's answer is read whatever its spacing; a shape it does not know is kept as its words", () => {
    const utc = Date.UTC(2026, 10, 3, 9, 5, 7) / 1000;
    expect(parseLstart('Tue Nov  3 09:05:07 2026\n')).toBe(`ps:${utc}`);
    expect(parseLstart('  Tue Nov 3 09:05:07 2026')).toBe(`ps:${utc}`);
    expect(parseLstart('Di  3 Nov 09:05:07 2026')).toBe('ps:Di 3 Nov 09:05:07 2026');
    expect(parseLstart('\n')).toBeNull();
  });
});

/**
 * Windows: PowerShell's `(Get-Process -Id PID).StartTime.ToUniversalTime().Ticks`. This machine
 * has no Windows, so the command itself never runs here; its answer is parsed in the shapes
 * Microsoft documents: an Int64 printed as bare digits (Get-Uptime's `Ticks : 7781850000000`),
 * DateTime ticks counting 100 ns from 0001-01-01 (621355968000000000 at 1970-01-01), a CRLF line
 * end, and nothing on stdout when Get-Process fails ("Cannot find a process with the process
 * identifier …" goes to stderr).
 */
describe('process start time on Windows (parser only: not run on Windows)', () => {
  const unixEpochTicks = 621_355_968_000_000_000n;
  const started = BigInt(Date.UTC(2026, 10, 30, 23, 49, 57, 123)) * 10_000n + unixEpochTicks + 4_567n;

  it('reads the ticks PowerShell prints, whatever the line end or a byte-order mark', () => {
    expect(parseWindowsStart(`${started}\r\n`)).toBe(`win:${started}`);
    expect(parseWindowsStart(`${started}\n`)).toBe(`win:${started}`);
    expect(parseWindowsStart(`\uFEFF${started}\r\n`)).toBe(`win:${started}`);
    expect(parseWindowsStart('7781850000000\r\n')).toBe('win:7781850000000');
    // Another start, even 100 ns later, is another process.
    expect(parseWindowsStart(`${started + 1n}\r\n`)).not.toBe(parseWindowsStart(`${started}\r\n`));
  });

  it('anything else is no answer (the lock then goes by pid and heartbeat)', () => {
    expect(parseWindowsStart(null)).toBeNull();
    expect(parseWindowsStart('')).toBeNull();
    expect(parseWindowsStart('\r\n')).toBeNull();
    expect(
      parseWindowsStart('Get-Process : Cannot find a process with the process identifier 4242.\r\n'),
    ).toBeNull();
    expect(parseWindowsStart('Tuesday, June 18, 2019 2:34:56 PM\r\n')).toBeNull();
    expect(parseWindowsStart('5,954,484,981,710,000\r\n')).toBeNull();
  });

  it('where PowerShell cannot be run the start time is unknown, never an error', () => {
    expect(processStart(process.pid, 'win32')).toBeNull();
  });
});
