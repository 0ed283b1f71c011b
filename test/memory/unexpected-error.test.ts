import { promises as fs } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  missingOr,
  onUnexpectedError,
  setUnexpectedErrorLog,
  unexpectedErrors,
  unlessMissing,
} from '../../electron/memory/unexpected-error.js';
import { secretFree } from '../../shared/secret-free.js';
import { runCli } from '../../electron/transports/cli/run.js';
import { tempDir } from '../support/temp-dir.js';

/** An error as Node's fs raises it (errno code set). */
const fsError = (code: string) => Object.assign(new Error(`${code}: raised by the test`), { code });

async function cli(argv: string[], cwd: string): Promise<{ code: number; stdout: string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stdin.end('');
  const code = await runCli({ argv, stdin, stdout, stderr: new PassThrough(), env: { HOME: cwd }, cwd });
  return { code, stdout: out };
}

describe('the unexpected-error sink', () => {
  it('counts every report, logs each distinct error once, and keeps the latest', async () => {
    const log = path.join(await tempDir('unexpected'), 'logs', 'unexpected-errors.log');
    setUnexpectedErrorLog(log);
    const before = unexpectedErrors().count;
    for (let i = 0; i < 3; i++) onUnexpectedError(fsError('EIO'), 'test: same place');
    onUnexpectedError('a thrown string', 'test: other place');
    const after = unexpectedErrors();
    expect(after.count - before).toBe(4);
    expect(after.log).toBe(log);
    expect(after.recent.slice(-2)).toEqual([
      { where: 'test: same place', message: 'Error EIO: EIO: raised by the test' },
      { where: 'test: other place', message: 'a thrown string' },
    ]);
    const lines = (await fs.readFile(log, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\dT[\d:.]+Z test: same place: Error EIO: EIO: raised by the test$/,
    );
    setUnexpectedErrorLog(null);
  });

  it('a missing file is the expected case: not reported; any other failure is', () => {
    const before = unexpectedErrors().count;
    unlessMissing(fsError('ENOENT'), 'test: missing');
    expect(missingOr('fallback', 'test: missing')(fsError('ENOTDIR'))).toBe('fallback');
    expect(unexpectedErrors().count).toBe(before);
    expect(missingOr(null, 'test: denied')(fsError('EACCES'))).toBeNull();
    expect(unexpectedErrors().count).toBe(before + 1);
    expect(unexpectedErrors().recent.at(-1)?.where).toBe('test: denied');
  });

  it('logs no credentials: URL user info and queries, Authorization values, key=… values, long tokens', () => {
    const jwt =
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSIsImV4cCI6MTd9.c2lnbmF0dXJlLWJ5dGVzLWhlcmUtMTIzNDU2Nzg5MA';
    const out = secretFree(
      `GET https://ann:hunter2@sync.example.com/v1/notes?access_token=abc failed; Authorization: Bearer ${jwt}; api_key=sk-live-123 in /home/ann/.oharness/memory-sync/state.json`,
    );
    for (const secret of ['hunter2', 'access_token=abc', jwt, 'sk-live-123', 'eyJ'])
      expect(out).not.toContain(secret);
    expect(out).toContain('https://[redacted]@sync.example.com/v1/notes?[redacted]');
    expect(out).toContain('/home/ann/.oharness/memory-sync/state.json');
  });

  it('a real one reaches `memdesk info`: a usage file the core cannot read (a directory) during recall', async () => {
    const base = await tempDir('unexpected-cli');
    const home = path.join(base, 'home');
    const project = path.join(base, 'project');
    await fs.mkdir(project, { recursive: true });
    const g = ['--home', home, '--project', project];
    expect(
      (await cli([...g, 'remember', '--summary', 'Deploys freeze on Friday', '--type', 'user'], project))
        .code,
    ).toBe(0);
    await fs.mkdir(path.join(home, 'memory-usage', 'user.json'), { recursive: true });
    for (let i = 0; i < 2; i++)
      expect((await cli([...g, 'recall', 'when do deploys freeze?'], project)).code).toBe(0);
    const info = await cli([...g, 'info'], project);
    expect(info.code).toBe(0);
    const log = path.join(home, 'logs', 'unexpected-errors.log');
    expect(info.stdout).toMatch(
      new RegExp(`unexpected errors: \\d+ \\(logged in ${log.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`),
    );
    expect(info.stdout).toMatch(/ {2}usage: read: Error EISDIR: /);
    const json = JSON.parse((await cli([...g, '--json', 'info'], project)).stdout) as {
      unexpectedErrors: { count: number; log: string };
    };
    expect(json.unexpectedErrors.log).toBe(log);
    // Logged once, however often it happened.
    const logged = (await fs.readFile(log, 'utf8')).split('\n').filter((l) => l.includes('usage: read'));
    expect(logged).toHaveLength(1);
    setUnexpectedErrorLog(null);
  }, 60_000);
});
