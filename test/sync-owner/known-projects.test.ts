import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../sync/cli-runner.js';
import { arrives, type TestDevice, useOwnerScene } from './device.js';

/**
 * A note edited by hand in a project that no running process has open (project Q) reaches device
 * B while the only process of the home is a `memdesk mcp` for another project (P): the owner
 * covers every project the home has synced before — an edit made while nothing ran is found when
 * it takes ownership, an edit made while it runs is seen by its watch.
 */
const scene = useOwnerScene('known-user');

/** Appends a line to the body of the project's one note, as a person in an editor would. */
async function editByHand(on: TestDevice, project: string, line: string): Promise<void> {
  const dir = path.join(on.roots[project]!, 'MEMORY');
  const [name, ...others] = (await fs.readdir(dir)).filter((n) => n.endsWith('.md'));
  expect(others).toEqual([]);
  await fs.appendFile(path.join(dir, name!), `\n${line}\n`);
}

describe('the sync owner covers every project the home knows', { timeout: 600_000 }, () => {
  it('hand edits in a project no process has open reach device B through an MCP owner of another project', async () => {
    // Project Q becomes known on A: a note written there synced itself (no owner ran).
    const wrote = await cli(
      [...scene.a.args('proj-q'), 'remember', '--summary', 'known q', '--type', 'project', '--body', 'first'],
      scene.a.roots['proj-q']!,
    );
    expect(wrote.code, wrote.stderr).toBe(0);
    await arrives(scene.b, 'proj-q', 'first');

    // Edited by hand while no process of A runs; then an MCP server opens project P only.
    await editByHand(scene.a, 'proj-q', 'marker-edited-while-nothing-ran');
    const mcp = await scene.ownerMcp('proj-p');
    await arrives(scene.b, 'proj-q', 'marker-edited-while-nothing-ran');

    // Edited by hand while the owner runs (its guest for Q may have closed or not: either way).
    await editByHand(scene.a, 'proj-q', 'marker-edited-under-the-owner');
    await arrives(scene.b, 'proj-q', 'marker-edited-under-the-owner');

    // Every round on A after the first note ran in the owner.
    const pids = new Set(
      (await fs.readFile(scene.trace, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { pid: number }).pid),
    );
    expect([...pids]).toEqual([mcp.pid]);
  });
});
