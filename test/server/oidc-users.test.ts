import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { AccountStore } from '../../server/oidc/accounts.js';
import { FsStorage } from '../../server/storage/fs-storage.js';
import { REPO } from './child-process.js';
import { tempDir } from './helpers.js';
import { rgwBucket } from './rgw.js';

/** `sync-server user add|list|disable` in a child process, on the filesystem and on Ceph RGW. */
const run = promisify(execFile);
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

async function syncServer(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
      cwd: REPO,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function passwordFile(dir: string, password: string): Promise<string> {
  const file = path.join(dir, 'password.txt');
  await fs.writeFile(file, `${password}\n`, { mode: 0o600 });
  return file;
}

describe('sync-server user', () => {
  it('adds, lists and disables accounts on the filesystem; refuses what it cannot do with words', async () => {
    const dir = await tempDir('users-');
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    const data = path.join(dir, 'data');
    const file = await passwordFile(dir, 'a long enough password');

    const added = await syncServer(['user', 'add', 'alice', '--password-file', file, '--data', data]);
    expect(added, added.stderr).toMatchObject({ code: 0, stdout: 'added alice\n' });
    const twice = await syncServer(['user', 'add', 'alice', '--password-file', file, '--data', data]);
    expect(twice).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/already an account named "alice"/),
    });
    const noFile = await syncServer(['user', 'add', 'carol', '--data', data]);
    expect(noFile).toMatchObject({ code: 2, stderr: expect.stringMatching(/--password-file FILE/) });

    // The stored account holds a scrypt hash, never the password.
    const stored = await fs.readFile(path.join(data, 'auth', 'accounts', 'alice.json'), 'utf8');
    expect(stored).not.toContain('a long enough password');
    expect(JSON.parse(stored).passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    const accounts = new AccountStore(new FsStorage(data));
    expect(await accounts.authenticate('alice', 'a long enough password')).toMatchObject({ ok: true });
    expect(await accounts.authenticate('alice', 'a wrong password!')).toEqual({ ok: false, reason: 'wrong' });

    expect((await syncServer(['user', 'list', '--data', data])).stdout).toBe('alice\tfree\tactive\n');
    const disabled = await syncServer(['user', 'disable', 'alice', '--data', data]);
    expect(disabled.stdout).toMatch(/disabled alice: it can no longer sign in, refresh or sync/);
    expect((await syncServer(['user', 'list', '--data', data])).stdout).toMatch(/^alice\tfree\tdisabled 20/);
    expect(await accounts.authenticate('alice', 'a long enough password')).toEqual({
      ok: false,
      reason: 'disabled',
    });
    // The same store the command runs on refuses these with the words it prints (spawns are slow here).
    await expect(accounts.add('bob', 'short')).rejects.toThrow(/at least 10 characters/);
    await expect(accounts.add('Bob/..', 'a long enough password')).rejects.toThrow(
      /not a usable account name/,
    );
    await expect(accounts.disable('nobody')).rejects.toThrow(/no account named "nobody"/);
  }, 300_000);

  it('keeps accounts in S3 storage (Ceph RGW) with --s3', async () => {
    const rgw = await rgwBucket();
    cleanups.push(rgw.cleanup);
    const dir = await tempDir('users-s3-');
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    const env = {
      OHARNESS_SYNC_S3_BUCKET: rgw.options.bucket,
      OHARNESS_SYNC_S3_ENDPOINT: rgw.options.endpoint!,
      OHARNESS_SYNC_S3_REGION: rgw.options.region!,
      OHARNESS_SYNC_S3_ACCESS_KEY_ID: rgw.options.accessKeyId!,
      OHARNESS_SYNC_S3_SECRET_ACCESS_KEY: rgw.options.secretAccessKey!,
      OHARNESS_SYNC_S3_FORCE_PATH_STYLE: '1',
    };
    const file = await passwordFile(dir, 'another long password');
    const added = await syncServer(
      ['user', 'add', 'dana', '--password-file', file, '--plan', 'paid', '--s3'],
      env,
    );
    expect(added, added.stderr).toMatchObject({ code: 0 });
    expect((await syncServer(['user', 'disable', 'dana', '--s3'], env)).code).toBe(0);
    expect((await syncServer(['user', 'list', '--s3'], env)).stdout).toMatch(/^dana\tpaid\tdisabled /);
    expect(await new AccountStore(rgw.make()).get('dana')).toMatchObject({ name: 'dana', plan: 'paid' });
  }, 300_000);
});
