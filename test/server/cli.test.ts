import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { killHard, REPO, spawnTs } from './child-process.js';
import { put, PROJECT, SECRET, tempDir, TestClient, tokenFor } from './helpers.js';

const run = promisify(execFile);
const kills: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const k of kills.splice(0)) await k();
});

describe('npm run sync-server', () => {
  it('token prints a token the server started with the same secret accepts', async () => {
    const env = { ...process.env, OHARNESS_SYNC_JWT_SECRET: SECRET };
    const { stdout } = await run(
      'npm',
      ['run', '-s', 'sync-server', '--', 'token', '--user', 'alice', '--plan', 'paid', '--ttl', '2h'],
      { cwd: REPO, env },
    );
    const token = stdout.trim();
    const claims = decodeJwt(token);
    expect(claims.sub).toBe('alice');
    expect(claims.ent).toEqual({ plan: 'paid' });
    expect(claims.exp! - claims.iat!).toBe(7200);

    const dir = await tempDir();
    const child = spawnTs('server/main.ts', ['--host', '127.0.0.1', '--port', '0', '--data', dir], {
      OHARNESS_SYNC_JWT_SECRET: SECRET,
    });
    kills.push(() => killHard(child.child));
    const url = await child.waitFor(/^http:/, 30_000);
    const client = new TestClient(url, token);
    const identity = await client.identity();
    expect(identity.body).toMatchObject({ userId: 'alice', limits: { plan: 'paid' } });
    expect((await client.commit({ scope: PROJECT, puts: [put('a', 'x\n')] })).body.applied).toHaveLength(1);
    expect(child.stderr()).toMatch(/storage: filesystem at/);
    expect(child.stderr()).not.toContain(token);
  }, 60_000);

  it('token without the secret or the user explains what is missing', async () => {
    const env = { ...process.env, OHARNESS_SYNC_JWT_SECRET: '' };
    const [noSecret, noUser] = await Promise.allSettled([
      run('npm', ['run', '-s', 'sync-server', '--', 'token', '--user', 'alice'], { cwd: REPO, env }),
      run('npm', ['run', '-s', 'sync-server', '--', 'token'], {
        cwd: REPO,
        env: { ...env, OHARNESS_SYNC_JWT_SECRET: SECRET },
      }),
    ]);
    expect(noSecret).toMatchObject({
      status: 'rejected',
      reason: { stderr: expect.stringMatching(/OHARNESS_SYNC_JWT_SECRET/) },
    });
    expect(noUser).toMatchObject({
      status: 'rejected',
      reason: { stderr: expect.stringMatching(/--user is required/) },
    });
  }, 60_000);

  it('--s3 without a bucket starts, says so, and answers 503 storage_unavailable', async () => {
    const child = spawnTs('server/main.ts', ['--port', '0', '--s3'], {
      OHARNESS_SYNC_JWT_SECRET: SECRET,
      OHARNESS_SYNC_S3_BUCKET: '',
    });
    kills.push(() => killHard(child.child));
    const url = await child.waitFor(/^http:/, 30_000);
    expect(child.stderr()).toMatch(
      /storage UNAVAILABLE: S3 storage was chosen but OHARNESS_SYNC_S3_BUCKET is not set/,
    );
    const reply = await new TestClient(url, await tokenFor('alice', { now: Date.now() })).snapshot({
      scope: PROJECT,
      sinceVersion: null,
    });
    expect(reply.status).toBe(503);
    expect(reply.body.error).toMatchObject({
      code: 'storage_unavailable',
      message: expect.stringMatching(/OHARNESS_SYNC_S3_BUCKET/),
    });
  }, 60_000);
});
