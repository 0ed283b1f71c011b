import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownerPaths } from '../../electron/sync/owner/paths.js';
import { cli } from '../sync/cli-runner.js';
import { tempDir } from '../support/temp-dir.js';
import { CLI_ENTRY, eventually, spawnNode } from './children.js';
import { arrives, holdRoundsLock, readTrace, startMcp, useOwnerScene } from './device.js';

/**
 * `memdesk encryption on` (a real CLI child) while a real `memdesk mcp` owns sync for the home and
 * keeps writing notes: the change holds the home's sync (electron/sync/owner/sync-hold.ts) — the
 * owner runs no round from the change's first round to its last, 立即同步 elsewhere says why it
 * waits, the progress counts every note up to the total, and every note written meanwhile reaches
 * device B sealed once the owner resumes (B unlocks with the passphrase).
 */
const scene = useOwnerScene('enc-hold');

async function trace() {
  return (await readTrace(scene.trace)).filter((l) => l.event === 'round-start' || l.event === 'round-end');
}

describe('encryption on while another process owns sync', { timeout: 600_000 }, () => {
  it('holds the home: no round of the owner during it, nothing lost, progress to the total', async () => {
    const env = { OHARNESS_HOME: scene.a.home, MEMDESK_SYNC_TRACE: scene.trace };
    const mcp = await startMcp(scene.a, 'proj-p', env);
    scene.running.push(mcp);
    await eventually(() => scene.a.ownerPid() === mcp.pid || null, 'the MCP server owns sync');
    for (let i = 0; i < 20; i++) await mcp.remember(`before-${i}`, `marker-before-${i}`);
    const root = scene.a.roots['proj-p']!;
    const synced = await cli([...scene.a.args('proj-p'), 'sync'], root);
    expect(synced.code, synced.stderr).toBe(0);
    const secrets = await tempDir('enc-hold-secrets');
    const pass = path.join(secrets, 'pass.txt');
    await fs.writeFile(pass, 'correct horse battery staple\n', { mode: 0o600 });

    // The test holds the rounds lock first, so the change waits with its hold taken: the owner
    // and 立即同步 meet the hold while the owner's notes keep coming.
    const { holdFile } = ownerPaths(scene.a.home);
    const releaseLock = await holdRoundsLock(scene.a.home);

    const change = spawnNode(
      CLI_ENTRY,
      [...scene.a.args('proj-p'), 'encryption', 'on', '--passphrase-file', pass],
      env,
      root,
    );
    change.child.stdin!.end('');
    await eventually(
      async () =>
        (await fs.readFile(holdFile, 'utf8').catch(() => '')).includes(`"pid":${change.pid}`) || null,
      'the change holds the home',
    );

    const refused = await cli([...scene.a.args('proj-p'), 'sync'], root);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(
      new RegExp(`end-to-end encryption is being changed .* in process ${change.pid}`),
    );

    // A note every 3.5 s: past the owner's debounce (3 s) each time, so without the hold the
    // owner would start a round between the change's rounds.
    const during: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        await mcp.remember(`during-${i}`, `marker-during-${i}`);
        during.push(`marker-during-${i}`);
        await new Promise((r) => setTimeout(r, 3_500));
      }
    })();
    await eventually(() => during.length >= 3 || null, 'the owner wrote notes during the hold');
    await releaseLock();
    const code = await change.exited;
    writing = false;
    await writer;
    expect(code, change.stderr()).toBe(0);
    expect(change.stdout()).toMatch(/end-to-end encryption is on; \d+ unencrypted objects were removed/);

    // Progress: every phase, and the upload counted up to its total.
    const progress = change.stderr().split('\n').filter(Boolean);
    expect(progress[0]).toBe('syncing every scope first…');
    expect(progress).toContain('publishing the keyring…');
    const uploads = progress
      .map((l) => /^uploading sealed: (\d+) of (\d+) notes$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [Number(m[1]), Number(m[2])] as const);
    expect(uploads[0]![0]).toBe(0);
    const [done, total] = uploads[uploads.length - 1]!;
    expect(done).toBe(total);
    expect(total).toBeGreaterThanOrEqual(20);
    expect(progress[progress.length - 1]).toBe('removing the unencrypted copy from the server…');

    // No round of any other process from the change's first round to its last.
    const lines = await trace();
    console.log(
      JSON.stringify({
        change: change.pid,
        mcp: mcp.pid,
        during: during.length,
        lines: await fs.readFile(scene.trace, 'utf8'),
      }),
    );
    const first = lines.findIndex((l) => l.pid === change.pid);
    const last = lines.map((l) => l.pid).lastIndexOf(change.pid);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(lines.slice(first, last + 1).filter((l) => l.pid !== change.pid)).toEqual([]);
    // Rounds never overlap: every start is followed by its own end.
    // (The owner may have begun a round since the change ended: a last start without its end.)
    for (let i = 0; i + 1 < lines.length; i += 2) {
      expect(lines[i]!.event).toBe('round-start');
      expect(lines[i + 1]).toMatchObject({ pid: lines[i]!.pid, event: 'round-end' });
    }

    // The owner resumes with the new key: a note written after the change reaches B too.
    await mcp.remember('after', 'marker-after');
    const unlock = await cli(
      [...scene.b.args('proj-p'), 'encryption', 'unlock', '--passphrase-file', pass],
      scene.b.roots['proj-p']!,
    );
    expect(unlock.code, unlock.stderr).toBe(0);
    await arrives(scene.b, 'proj-p', 'marker-after');
    const onB = await fs.readdir(path.join(scene.b.roots['proj-p']!, 'MEMORY'));
    const bodies = await Promise.all(
      onB.map((n) => fs.readFile(path.join(scene.b.roots['proj-p']!, 'MEMORY', n), 'utf8')),
    );
    for (const marker of [...Array.from({ length: 20 }, (_, i) => `marker-before-${i}`), ...during])
      expect(
        bodies.some((b) => b.includes(marker)),
        marker,
      ).toBe(true);
    expect((await trace()).slice(last + 1).some((l) => l.pid === mcp.pid)).toBe(true);
  });
});
