import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SyncNowOutputSchema } from '../../shared/api/sync.js';
import { ownerPaths } from '../../electron/sync/owner/paths.js';
import { cli } from '../sync/cli-runner.js';
import { CLI_ENTRY, eventually, kill9Pid, spawnNode } from './children.js';
import { holdRoundsLock, readTrace, useOwnerScene } from './device.js';

/**
 * 立即同步 asked in a process that does not own sync (`memdesk sync` here) is run by the owner (a
 * real `memdesk mcp`), which answers with what the round did; the asker prints it as if it had
 * run the round. When the owner is killed while the asked round waits, the asker runs it itself.
 * Device B (this process's CLI code on another home) writes the notes the rounds pull.
 */
const scene = useOwnerScene('asked-user');

const traced = (event: string) => readTrace(scene.trace, event);
const manualRounds = async () => (await traced('round-start')).filter((l) => l.manual);

/** Device B writes a note in the project and uploads it (its CLI syncs what it wrote before exiting). */
async function writeOnB(project: string, marker: string): Promise<void> {
  const root = scene.b.roots[project]!;
  const wrote = await cli(
    [...scene.b.args(project), 'remember', '--summary', marker, '--type', 'project', '--body', marker],
    root,
  );
  expect(wrote.code, wrote.stderr).toBe(0);
  const synced = await cli([...scene.b.args(project), 'sync'], root);
  expect(synced.code, synced.stderr).toBe(0);
  expect(synced.stdout).not.toMatch(/error/);
}

/** `memdesk --json sync` on device A as a real child process. */
function syncOnA(project: string) {
  const run = spawnNode(
    CLI_ENTRY,
    [...scene.a.args(project), '--json', 'sync'],
    scene.env,
    scene.a.roots[project]!,
  );
  run.child.stdin!.end('');
  return run;
}

describe('rounds a person asks for go to the sync owner', { timeout: 600_000 }, () => {
  it('memdesk sync while memdesk mcp owns the home: the owner runs the round and the asker prints its answer', async () => {
    const mcp = await scene.ownerMcp('proj-p');
    // Project Q is not open in the owner: it opens it to run the asked round.
    await writeOnB('proj-q', 'marker-asked-q');

    const run = syncOnA('proj-q');
    expect(await run.exited, run.stderr()).toBe(0);
    const out = SyncNowOutputSchema.parse(JSON.parse(run.stdout()));
    expect(out.scopes.project).toMatchObject({
      pulled: { added: 1, changed: 0, deleted: 0 },
      pushed: 0,
      error: null,
    });
    expect(out.scopes.user).toMatchObject({ error: null });
    const names = await fs.readdir(path.join(scene.a.roots['proj-q']!, 'MEMORY'));
    expect(names.length).toBe(1);
    // Both rounds (project and user notes) ran in the owner, none in the asking process.
    const pids = new Set((await manualRounds()).map((l) => l.pid));
    expect([...pids]).toEqual([mcp.pid]);
    expect(await fs.readdir(ownerPaths(scene.a.home).askedDir)).toEqual([]);
    expect(await fs.readdir(ownerPaths(scene.a.home).answersDir)).toEqual([]);
  });

  it('the owner is killed with SIGKILL while the asked round waits: the asker runs the round itself', async () => {
    const owner = scene.running[0]!;
    expect(scene.a.ownerPid()).toBe(owner.pid);
    await writeOnB('proj-p', 'marker-after-kill');
    const before = (await manualRounds()).length;
    const taken = (await traced('ask-taken')).length;

    // This test holds the home's rounds lock, so the owner's round for the ask waits for it.
    const releaseLock = await holdRoundsLock(scene.a.home);

    const run = syncOnA('proj-p');
    // The owner took the ask (its file is gone) and its round waits for the rounds lock.
    await eventually(
      async () => (await traced('ask-taken')).slice(taken).some((l) => l.pid === owner.pid) || null,
      'the owner took the asked round',
    );
    await kill9Pid(owner.pid);
    await releaseLock();

    expect(await run.exited, run.stderr()).toBe(0);
    const out = SyncNowOutputSchema.parse(JSON.parse(run.stdout()));
    expect(out.scopes.project).toMatchObject({ pulled: { added: 1, changed: 0, deleted: 0 }, error: null });
    const after = (await manualRounds()).slice(before);
    expect(after.some((l) => l.pid === run.pid)).toBe(true);
    expect(after.some((l) => l.pid === owner.pid)).toBe(false);
  });
});
