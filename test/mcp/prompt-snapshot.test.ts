import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  readPromptSnapshot,
  snapshotFile,
  type SnapshotPlace,
} from '../../electron/agents/recall/prompt-snapshot.js';
import { savePromptSnapshot, takeDirStamps } from '../../electron/agents/recall/prompt-snapshot-save.js';
import { projectConfigPath, userConfigPath } from '../../electron/memory/config.js';
import { fixture } from '../memory/helpers.js';

/**
 * The prompt snapshot is read without the config schema (memdesk mcp reads it before zod is
 * loaded): it is valid while the config's sources — the user and project config files and the
 * OHARNESS_MEMORY_* environment — are what they were, and it is saved only when they give the
 * config the core that built the prompt was opened with.
 */
const PAST = new Date(Date.now() - 3_600_000);

async function saved() {
  const fx = await fixture();
  await fs.mkdir(fx.memoryDir, { recursive: true });
  await fs.mkdir(fx.userDir, { recursive: true });
  for (const dir of [fx.memoryDir, fx.userDir]) await fs.utimes(dir, PAST, PAST);
  const { core } = await fx.open();
  const place: SnapshotPlace = { home: fx.home, projectRoot: fx.root, env: {} };
  const save = async () => savePromptSnapshot(core, await takeDirStamps(core), '# Memory\nthe prompt', {});
  return { fx, core, place, save };
}

describe('the prompt snapshot', () => {
  it('is read back while nothing changed', async () => {
    const { place, save } = await saved();
    await save();
    expect(await readPromptSnapshot(place)).toBe('# Memory\nthe prompt');
  });

  it.each([
    ['the project config file', (p: SnapshotPlace) => projectConfigPath(p.projectRoot!)],
    ['the user config file', (p: SnapshotPlace) => userConfigPath(p.home)],
  ])('is not valid once %s changed', async (_name, file) => {
    const { place, save } = await saved();
    await save();
    await fs.mkdir(path.dirname(file(place)), { recursive: true });
    await fs.writeFile(file(place), JSON.stringify({ memory: { indexChars: 100 } }));
    expect(await readPromptSnapshot(place)).toBeNull();
  });

  it('is not valid under another OHARNESS_MEMORY_* environment', async () => {
    const { place, save } = await saved();
    await save();
    expect(await readPromptSnapshot({ ...place, env: { OHARNESS_MEMORY_INDEX_CHARS: '100' } })).toBeNull();
    expect(await readPromptSnapshot({ ...place, env: { UNRELATED: '1' } })).toBe('# Memory\nthe prompt');
  });

  it('is not saved when the config changed since the core that built the prompt opened', async () => {
    const { place, save } = await saved();
    await fs.mkdir(path.dirname(projectConfigPath(place.projectRoot!)), { recursive: true });
    await fs.writeFile(
      projectConfigPath(place.projectRoot!),
      JSON.stringify({ memory: { indexChars: 100 } }),
    );
    await save();
    expect(await readPromptSnapshot(place)).toBeNull();
  });

  it('is not valid once a notes directory changed', async () => {
    const { fx, place, save } = await saved();
    await save();
    await fs.writeFile(path.join(fx.memoryDir, 'new-note.md'), '');
    expect(await readPromptSnapshot(place)).toBeNull();
  });

  it("is another project's only for that project, even under this one's file name", async () => {
    const { place, save } = await saved();
    await save();
    // The file name is a 64-bit hash of the project's path, not a check: the snapshot says whose it is.
    const other = { ...place, projectRoot: path.join(path.dirname(place.projectRoot!), 'other') };
    await fs.copyFile(
      snapshotFile(place.home, place.projectRoot),
      snapshotFile(other.home, other.projectRoot),
    );
    expect(await readPromptSnapshot(other)).toBeNull();
    expect(await readPromptSnapshot(place)).toBe('# Memory\nthe prompt');
  });
});
