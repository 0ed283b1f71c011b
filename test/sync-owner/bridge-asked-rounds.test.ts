import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncNowOutputSchema, type SyncNowOutput } from '../../shared/api/sync.js';
import { BRIDGE_SECRET_HEADER } from '../../shared/web-bridge.js';
import { ownerPaths } from '../../electron/sync/owner/paths.js';
import { startWebBridge, type WebBridge } from '../../electron/transports/http/web-bridge.js';
import { cli } from '../sync/cli-runner.js';
import { eventually, kill9Pid } from './children.js';
import { holdRoundsLock, readTrace, useOwnerScene } from './device.js';

/**
 * 立即同步 from the web bridge — the API table the desktop app's window uses, over HTTP — while a
 * real `memdesk mcp` child owns sync for the home: the round runs in the MCP process and the page
 * gets its answer (the shape and the errors a round run in the bridge would give, the mass-delete
 * question included, and the person's answer to it carried to the owner). The bridge is started by
 * its own start function in this process, as `npm run demo` does; device B (the CLI's code on
 * another home) changes the cloud.
 */
const scene = useOwnerScene('bridge-asked');
let bridge: WebBridge;

const traced = (event: string) => readTrace(scene.trace, event);
const manualRounds = async () => (await traced('round-start')).filter((l) => l.manual);

/** The page's 立即同步: `sync.now` through the bridge's HTTP API. */
async function syncNowInBridge(input: { deletes?: 'delete' | 'keep' } = {}): Promise<SyncNowOutput> {
  const res = await fetch(new URL('/api/invoke', bridge.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', [BRIDGE_SECRET_HEADER]: bridge.secret },
    body: JSON.stringify({ method: 'sync.now', input }),
  });
  const body = (await res.json()) as { result?: unknown; error?: unknown };
  expect(res.status, JSON.stringify(body.error)).toBe(200);
  return SyncNowOutputSchema.parse(body.result);
}

async function notesOnA(): Promise<string[]> {
  return fs.readdir(path.join(scene.a.roots['proj-q']!, 'MEMORY')).catch(() => []);
}

/** Device B in project Q: runs the CLI command and uploads what it did. */
async function onB(args: string[], syncArgs: string[] = []): Promise<void> {
  const root = scene.b.roots['proj-q']!;
  if (args.length > 0) {
    const ran = await cli([...scene.b.args('proj-q'), ...args], root);
    expect(ran.code, ran.stderr).toBe(0);
  }
  const synced = await cli([...scene.b.args('proj-q'), 'sync', ...syncArgs], root);
  expect(synced.code, synced.stderr).toBe(0);
  expect(synced.stdout).not.toMatch(/error/);
}

const remember = (marker: string) => ['remember', '--summary', marker, '--type', 'project', '--body', marker];

beforeAll(async () => {
  // The MCP server of project P owns sync; the bridge, serving project Q, starts after it.
  await scene.ownerMcp('proj-p');
  bridge = await startWebBridge({
    home: scene.a.home,
    projectRoot: scene.a.roots['proj-q']!,
    port: 0,
    env: scene.env,
  });
}, 300_000);

afterAll(async () => {
  await bridge?.close();
});

describe('立即同步 in the web bridge while memdesk mcp owns sync', { timeout: 600_000 }, () => {
  it('the owner runs the round and the page gets its answer', async () => {
    const owner = scene.running[0]!;
    await onB(remember('marker-bridge-q'));
    const before = (await manualRounds()).length;

    const out = await syncNowInBridge();
    expect(out.scopes.project).toMatchObject({
      pulled: { added: 1, changed: 0, deleted: 0 },
      pushed: 0,
      error: null,
    });
    expect(out.scopes.user).toMatchObject({ error: null });
    expect(await notesOnA()).toHaveLength(1);
    // Both rounds (project and user notes) ran in the owner, none in the bridge.
    const ran = (await manualRounds()).slice(before);
    expect(ran.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ran.map((l) => l.pid))).toEqual(new Set([owner.pid]));
    expect(scene.a.ownerPid()).toBe(owner.pid);
    expect(await fs.readdir(ownerPaths(scene.a.home).askedDir)).toEqual([]);
    expect(await fs.readdir(ownerPaths(scene.a.home).answersDir)).toEqual([]);
  });

  it("the owner's round asks before a mass delete; the person's answer travels in the ask", async () => {
    const owner = scene.running[0]!;
    for (let i = 0; i < 11; i++) {
      const wrote = await cli(
        [...scene.b.args('proj-q'), ...remember(`marker-many-${i}`)],
        scene.b.roots['proj-q']!,
      );
      expect(wrote.code, wrote.stderr).toBe(0);
    }
    await onB([]);
    expect((await syncNowInBridge()).scopes.project).toMatchObject({ error: null });
    expect(await notesOnA()).toHaveLength(12);
    const before = (await manualRounds()).length;

    // B removes 11 of the 12 notes: more than half, so A's round asks before deleting them.
    const bDir = path.join(scene.b.roots['proj-q']!, 'MEMORY');
    const bNotes = (await fs.readdir(bDir)).sort();
    for (const name of bNotes.slice(1)) await fs.rm(path.join(bDir, name));
    // B's own round asks first too (11 of its 12 notes missing); its answer uploads the deletes.
    await cli([...scene.b.args('proj-q'), 'sync'], scene.b.roots['proj-q']!);
    await onB([], ['--deletes', 'delete']);

    const asked = await syncNowInBridge();
    expect(asked.scopes.project!.error).toMatchObject({ code: 'confirm_deletes' });
    expect(asked.scopes.project!.error!.message).toMatch(/11 of 12 notes would be deleted/);
    expect(asked.scopes.project!.pulled.deleted).toBe(0);
    expect(await notesOnA()).toHaveLength(12);

    const confirmed = await syncNowInBridge({ deletes: 'delete' });
    expect(confirmed.scopes.project!.error).toBeNull();
    expect(await notesOnA()).toEqual([bNotes[0]]);
    const ran = (await manualRounds()).slice(before);
    expect(new Set(ran.map((l) => l.pid))).toEqual(new Set([owner.pid]));
  });

  it('the owner is killed with SIGKILL while the asked round waits: the bridge runs the round itself', async () => {
    const owner = scene.running[0]!;
    expect(scene.a.ownerPid()).toBe(owner.pid);
    await onB(remember('marker-bridge-after-kill'));
    const before = (await manualRounds()).length;
    const taken = (await traced('ask-taken')).length;

    // This test holds the home's rounds lock, so the owner's round for the ask waits for it.
    const releaseLock = await holdRoundsLock(scene.a.home);

    const answer = syncNowInBridge();
    await eventually(
      async () => (await traced('ask-taken')).slice(taken).some((l) => l.pid === owner.pid) || null,
      'the owner took the asked round',
    );
    await kill9Pid(owner.pid);
    await releaseLock();

    const out = await answer;
    expect(out.scopes.project).toMatchObject({ pulled: { added: 1, changed: 0, deleted: 0 }, error: null });
    expect(await notesOnA()).toHaveLength(2);
    const after = (await manualRounds()).slice(before);
    expect(after.some((l) => l.pid === process.pid)).toBe(true);
    expect(after.some((l) => l.pid === owner.pid)).toBe(false);
  });
});
