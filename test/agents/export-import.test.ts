import fs from 'node:fs/promises';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exportScope, importArchive } from '../../electron/agents/archive/export-import.js';
import { createMemoryCore } from '../../electron/memory/core.js';
import { createNotesService } from '../../electron/memory/notes-service.js';
import type { MemoryCore } from '../../electron/memory/types.js';
import { serializeNote } from '../../shared/note-format.js';
import { runMemdesk } from './run-cli.js';
import { tempDir } from '../support/temp-dir.js';

let tmp: string;
let homeA: string;
let homeB: string;
let work: string;
const userDir = (home: string) => path.join(home, 'memory', 'user');

const noteFile = (id: string, body = 'x\n') =>
  serializeNote({ id, summary: `summary of ${id}`, tags: [], createdAt: 1, updatedAt: 1, body });

/** An export zip (exportScope) of notes `ids`, written in another home's user scope under `base`. */
async function exportedNotes(
  base: string,
  ids: string[],
  bodyOf: (id: string) => string = () => 'x\n',
): Promise<string> {
  const source = path.join(base, 'source');
  await fs.mkdir(userDir(source), { recursive: true });
  for (const id of ids) await fs.writeFile(path.join(userDir(source), `${id}.md`), noteFile(id, bodyOf(id)));
  const sourceCore = await createMemoryCore({ home: source, env: {} });
  const zip = path.join(base, `${ids.length}-notes.zip`);
  try {
    await exportScope(sourceCore, { scope: 'user', out: zip });
  } finally {
    await sourceCore.close();
  }
  return zip;
}

async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const name of (await fs.readdir(dir).catch(() => [] as string[])).sort()) {
    if (name.endsWith('.md')) out.set(name, await fs.readFile(path.join(dir, name)));
  }
  return out;
}

beforeAll(async () => {
  tmp = await tempDir('export');
  homeA = path.join(tmp, 'home-a');
  homeB = path.join(tmp, 'home-b');
  work = path.join(tmp, 'work');
  await fs.mkdir(work, { recursive: true });
  const core = await createMemoryCore({ home: homeA, now: () => 1_780_000_000_000, env: {} });
  const notes = createNotesService(core);
  await notes.remember({
    summary: 'Pricing cards use fills',
    body: 'See [[pricing-layout-a91]].\n',
    tags: ['design', 'ui'],
    type: 'feedback',
    scope: 'user',
  });
  await notes.remember({
    summary: '部署流程',
    body: '先跑测试，再部署。\n',
    tags: '部署, deploy',
    scope: 'user',
  });
  await core.close();
  // Files as agents and editors leave them: BOM, CRLF, unknown keys, no timestamps, odd key order.
  await fs.writeFile(
    path.join(userDir(homeA), 'hand-edited-1.md'),
    '\uFEFF---\r\n{"summary":"Edited by hand","id":"hand-edited-1","agentKey":{"x":1}}\r\n---\r\nCRLF body\r\n',
  );
  await fs.writeFile(
    path.join(userDir(homeA), 'no-trailing-newline.md'),
    '---\n{"id":"no-trailing-newline","summary":"x","tags":["a"]}\n---\nno newline at the end',
  );
}, 60_000);

afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

// Each case starts the CLI as child processes; on a loaded machine a start takes seconds.
describe('export / import through the CLI', { timeout: 180_000 }, () => {
  it('round-trips every note file byte for byte', async () => {
    const zip = path.join(work, 'user.zip');
    const exp = await runMemdesk(['--json', 'export', '--scope', 'user', '--out', zip], {
      cwd: work,
      home: homeA,
    });
    expect(exp.stderr).toBe('');
    expect(exp.code).toBe(0);
    expect(JSON.parse(exp.stdout)).toMatchObject({ scope: 'user', notes: 4, path: zip });

    const imp = await runMemdesk(['--json', 'import', zip, '--scope', 'user'], { cwd: work, home: homeB });
    expect(imp.code).toBe(0);
    const result = JSON.parse(imp.stdout) as { imported: unknown[]; skipped: unknown[]; refused: unknown[] };
    expect(result.imported).toHaveLength(4);
    expect(result.refused).toEqual([]);
    const a = await snapshot(userDir(homeA));
    const b = await snapshot(userDir(homeB));
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [name, bytes] of a) expect(Buffer.compare(b.get(name)!, bytes), name).toBe(0);

    // The imported notes are real notes: the core loads all four without a warning.
    const core = await createMemoryCore({ home: homeB, env: {} });
    expect(core.store('user')?.list()).toHaveLength(4);
    expect(core.store('user')?.warnings()).toEqual([]);
    await core.close();

    // Importing the same archive again: everything identical is skipped, nothing changes.
    const again = await runMemdesk(['--json', 'import', zip, '--scope', 'user'], { cwd: work, home: homeB });
    const second = JSON.parse(again.stdout) as { imported: unknown[]; skipped: Array<{ reason: string }> };
    expect(second.imported).toEqual([]);
    expect(second.skipped).toHaveLength(4);
    expect(second.skipped[0]?.reason).toMatch(/identical/);
  });

  it('never replaces an existing output file', async () => {
    const zip = path.join(work, 'exists.zip');
    await fs.writeFile(zip, 'precious');
    const exp = await runMemdesk(['export', '--scope', 'user', '--out', zip], { cwd: work, home: homeA });
    expect(exp.code).toBe(1);
    expect(exp.stderr).toMatch(/already exists/);
    expect(await fs.readFile(zip, 'utf8')).toBe('precious');
  });

  it('collisions: skip leaves the existing note alone; keep-both imports under a new id', async () => {
    const homeC = path.join(tmp, 'home-c');
    const zip = path.join(work, 'collide.zip');
    await runMemdesk(['export', '--scope', 'user', '--out', zip], { cwd: work, home: homeA });
    await fs.mkdir(userDir(homeC), { recursive: true });
    const mine =
      '---\n{"id":"hand-edited-1","summary":"My own, different note","tags":[],"createdAt":5,"updatedAt":6}\n---\nmine\n';
    await fs.writeFile(path.join(userDir(homeC), 'hand-edited-1.md'), mine);

    const skip = await runMemdesk(['--json', 'import', zip, '--scope', 'user', '--on-collision', 'skip'], {
      cwd: work,
      home: homeC,
    });
    const s = JSON.parse(skip.stdout) as {
      imported: Array<{ id: string }>;
      skipped: Array<{ entry: string; reason: string }>;
    };
    expect(s.imported).toHaveLength(3);
    expect(s.skipped).toEqual([
      { entry: 'notes/hand-edited-1.md', reason: expect.stringMatching(/different note.*keep-both/) },
    ]);
    expect(await fs.readFile(path.join(userDir(homeC), 'hand-edited-1.md'), 'utf8')).toBe(mine);

    const both = await runMemdesk(
      ['--json', 'import', zip, '--scope', 'user', '--on-collision', 'keep-both'],
      { cwd: work, home: homeC },
    );
    const k = JSON.parse(both.stdout) as { imported: Array<{ id: string; renamedFrom?: string }> };
    expect(k.imported).toEqual([{ id: 'hand-edited-1-2', renamedFrom: 'hand-edited-1' }]);
    expect(await fs.readFile(path.join(userDir(homeC), 'hand-edited-1.md'), 'utf8')).toBe(mine);
    const kept = await fs.readFile(path.join(userDir(homeC), 'hand-edited-1-2.md'), 'utf8');
    expect(kept).toContain('"id":"hand-edited-1-2"');
    expect(kept).toContain('"agentKey":{"x":1}');
    expect(kept).toContain('CRLF body');
  });

  it('hostile archives: traversal, non-notes, bombs and junk are refused with messages; nothing escapes', async () => {
    const homeD = path.join(tmp, 'home-d');
    const evil = path.join(work, 'evil.zip');
    await fs.writeFile(
      evil,
      zipSync({
        '../escaped.md': strToU8('---\n{"id":"escaped","summary":"x"}\n---\n'),
        'notes/../../../escaped2.md': strToU8('x'),
        'notes/ok-note-1.md': strToU8('---\n{"id":"ok-note-1","summary":"fine","tags":[]}\n---\nok\n'),
        'notes/not-a-note.md': strToU8('just text, no frontmatter'),
        'notes/wrong-id.md': strToU8('---\n{"id":"other-id","summary":"x"}\n---\n'),
        'notes/bomb-1.md': new Uint8Array(5 * 1024 * 1024),
        'install.sh': strToU8('echo hi'),
      }),
    );
    const imp = await runMemdesk(['--json', 'import', evil, '--scope', 'user'], { cwd: work, home: homeD });
    expect(imp.code).toBe(0);
    const r = JSON.parse(imp.stdout) as {
      imported: Array<{ id: string }>;
      refused: Array<{ entry: string; reason: string }>;
    };
    expect(r.imported).toEqual([{ id: 'ok-note-1' }]);
    const reasons = Object.fromEntries(r.refused.map((x) => [x.entry, x.reason]));
    expect(reasons['../escaped.md']).toMatch(/leaves the archive/);
    expect(reasons['notes/../../../escaped2.md']).toMatch(/leaves the archive/);
    expect(reasons['notes/not-a-note.md']).toMatch(/not a note/);
    expect(reasons['notes/wrong-id.md']).toMatch(/differs from the file name/);
    expect(reasons['notes/bomb-1.md']).toMatch(/zip bomb/);
    expect(reasons['install.sh']).toMatch(/not a note/);
    expect(await fs.readdir(userDir(homeD))).toEqual(['ok-note-1.md']);
    for (const where of [work, tmp, path.dirname(userDir(homeD)), homeD]) {
      const names = await fs.readdir(where);
      expect(names.filter((n) => n.startsWith('escaped'))).toEqual([]);
    }

    const junk = path.join(work, 'junk.zip');
    await fs.writeFile(junk, 'this is not a zip');
    const bad = await runMemdesk(['import', junk, '--scope', 'user'], { cwd: work, home: homeD });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/not a readable zip/);
    expect(await fs.readdir(userDir(homeD))).toEqual(['ok-note-1.md']);
  });

  it('usage mistakes exit 2 with a message', async () => {
    const noScope = await runMemdesk(['import', 'x.zip'], { cwd: work, home: homeA });
    expect(noScope.code).toBe(2);
    expect(noScope.stderr).toMatch(/--scope/);
    const badCollision = await runMemdesk(
      ['import', 'x.zip', '--scope', 'user', '--on-collision', 'overwrite'],
      { cwd: work, home: homeA },
    );
    expect(badCollision.code).toBe(2);
    expect(badCollision.stderr).toMatch(/skip.*keep-both/);
  });
});

describe("import into a full scope: the target store's own limit", () => {
  // The user scope's limit is the user config's memory.maxNotes (a project's config never limits the
  // person's own notes); archive imports write files directly, so their own check must use it too.
  // Project limits below and above the user's 4.
  it.each([2, 9])('user config maxNotes 4, project config maxNotes %i', async (projectMax) => {
    const base = await tempDir('import-limit');
    let core: MemoryCore | undefined;
    try {
      // The archive: six notes exported from another home's user scope.
      const ids = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5'];
      const zip = await exportedNotes(base, ids);

      // The target: one user note already there; the user config says 4, the project's another number.
      const home = path.join(base, 'home');
      const root = path.join(base, 'project');
      await fs.mkdir(userDir(home), { recursive: true });
      await fs.writeFile(path.join(home, 'config.json'), JSON.stringify({ memory: { maxNotes: 4 } }));
      await fs.mkdir(path.join(root, '.oharness'), { recursive: true });
      await fs.writeFile(
        path.join(root, '.oharness', 'config.json'),
        JSON.stringify({ memory: { maxNotes: projectMax } }),
      );
      await fs.writeFile(path.join(userDir(home), 'mine.md'), noteFile('mine'));
      core = await createMemoryCore({ home, projectRoot: root, env: {} });
      expect(core.config.maxNotes).toBe(projectMax);

      const result = await importArchive(core, { file: zip, scope: 'user', onCollision: 'skip' });
      // 1 + 3 imported = the user limit; the rest refused as a full scope.
      expect(result.imported).toEqual([{ id: 'a0' }, { id: 'a1' }, { id: 'a2' }]);
      expect(result.skipped).toEqual([]);
      expect(result.refused).toEqual(
        ['a3', 'a4', 'a5'].map((id) => ({
          entry: `notes/${id}.md`,
          reason: 'refused: the user scope is full (memory.maxNotes)',
        })),
      );
      const names = (await fs.readdir(userDir(home))).filter((n) => n.endsWith('.md')).sort();
      expect(names).toEqual(['a0.md', 'a1.md', 'a2.md', 'mine.md']);
      expect(core.store('user')?.isFull()).toBe(true);

      // The project scope still stops at the project's own limit.
      const intoProject = await importArchive(core, { file: zip, scope: 'project', onCollision: 'skip' });
      expect(intoProject.imported).toHaveLength(Math.min(ids.length, projectMax));
      expect((await snapshot(core.store('project')!.dir)).size).toBe(Math.min(ids.length, projectMax));
    } finally {
      await core?.close();
      await fs.rm(base, { recursive: true, force: true });
    }
  });
});

describe("import of a large note: the target store's own maxNoteBytes", () => {
  // As with maxNotes: the user store reads and writes with the user config's memory.maxNoteBytes, so
  // an import into it must check that, not the project-layered core.config. Bodies of 1,000, 3,000
  // and 5,000 bytes; the user's and the project's limits are 2,000 and 4,000, one way and the other.
  const sizes: Record<string, number> = { 'fits-both': 1000, between: 3000, 'over-both': 5000 };
  const ids = Object.keys(sizes).sort(); // the archive's order
  const bodyOf = (id: string) => `${'b'.repeat(sizes[id]! - 1)}\n`;

  it.each([
    { userMax: 2000, projectMax: 4000, imported: ['fits-both'] },
    { userMax: 4000, projectMax: 2000, imported: ['between', 'fits-both'] },
  ])(
    'user config maxNoteBytes $userMax, project config $projectMax',
    async ({ userMax, projectMax, imported }) => {
      const base = await tempDir('import-bytes');
      let core: MemoryCore | undefined;
      try {
        const zip = await exportedNotes(base, ids, bodyOf);
        const home = path.join(base, 'home');
        const root = path.join(base, 'project');
        await fs.mkdir(userDir(home), { recursive: true });
        await fs.writeFile(
          path.join(home, 'config.json'),
          JSON.stringify({ memory: { maxNoteBytes: userMax } }),
        );
        await fs.mkdir(path.join(root, '.oharness'), { recursive: true });
        await fs.writeFile(
          path.join(root, '.oharness', 'config.json'),
          JSON.stringify({ memory: { maxNoteBytes: projectMax } }),
        );
        core = await createMemoryCore({ home, projectRoot: root, env: {} });
        expect(core.config.maxNoteBytes).toBe(projectMax);
        expect(core.store('user')?.maxNoteBytes).toBe(userMax);

        const result = await importArchive(core, { file: zip, scope: 'user', onCollision: 'skip' });
        expect(result.imported).toEqual(imported.map((id) => ({ id })));
        expect(result.skipped).toEqual([]);
        expect(result.refused).toEqual(
          ids
            .filter((id) => !imported.includes(id))
            .map((id) => ({
              entry: `notes/${id}.md`,
              reason: `refused: the body is larger than memory.maxNoteBytes (${userMax})`,
            })),
        );
        // Only what was imported is on disk, and every file there loads.
        const names = (await fs.readdir(userDir(home))).filter((n) => n.endsWith('.md')).sort();
        expect(names).toEqual(imported.map((id) => `${id}.md`).sort());
        const store = core.store('user')!;
        expect(store.held()).toEqual([]);
        expect(store.warnings()).toEqual([]);
        for (const id of imported) expect(store.get(id)?.body).toBe(bodyOf(id));
      } finally {
        await core?.close();
        await fs.rm(base, { recursive: true, force: true });
      }
    },
  );
});

describe('import into a notes folder that does not exist yet', () => {
  const ids = ['n1', 'n2', 'n3'];
  let base: string;
  let core: MemoryCore | undefined;

  beforeEach(async () => {
    base = await tempDir('import-mkdir');
  });
  afterEach(async () => {
    await core?.close();
    core = undefined;
    await fs.rm(base, { recursive: true, force: true });
  });

  /** A registered project without MEMORY/ (git keeps no empty folder: a fresh clone has none). */
  async function projectWithoutNotesFolder(): Promise<{ root: string; home: string }> {
    const root = path.join(base, 'project');
    await fs.mkdir(path.join(root, '.oharness'), { recursive: true });
    await fs.writeFile(path.join(root, '.oharness', 'project.json'), JSON.stringify({ id: 'p-mkdir' }));
    return { root, home: path.join(base, 'home') };
  }

  it('the project scope: the import creates MEMORY/ as a first write does, then writes every note', async () => {
    const zip = await exportedNotes(base, ids);
    const { root, home } = await projectWithoutNotesFolder();
    core = await createMemoryCore({ home, projectRoot: root, env: {} });
    const memoryDir = path.join(root, 'MEMORY');
    expect(core.store('project')?.dir).toBe(memoryDir);
    await expect(fs.stat(memoryDir)).rejects.toMatchObject({ code: 'ENOENT' });

    const result = await importArchive(core, { file: zip, scope: 'project', onCollision: 'skip' });
    expect(result.refused).toEqual([]);
    expect(result.skipped).toEqual([]);
    expect(result.imported).toEqual(ids.map((id) => ({ id })));
    expect((await fs.readdir(memoryDir)).sort()).toEqual(ids.map((id) => `${id}.md`));
    // Byte for byte the exported files, and loaded by the store.
    const source = await snapshot(userDir(path.join(base, 'source')));
    const written = await snapshot(memoryDir);
    for (const [name, bytes] of source) expect(Buffer.compare(written.get(name)!, bytes), name).toBe(0);
    expect(
      core
        .store('project')!
        .list()
        .map((n) => n.id)
        .sort(),
    ).toEqual(ids);
  });

  it('the user scope: a home whose memory/user/ is gone (removed while the app runs) gets it back', async () => {
    const zip = await exportedNotes(base, ids);
    const home = path.join(base, 'home');
    core = await createMemoryCore({ home, env: {} });
    await fs.rm(path.join(home, 'memory'), { recursive: true });

    const result = await importArchive(core, { file: zip, scope: 'user', onCollision: 'skip' });
    expect(result.refused).toEqual([]);
    expect(result.imported).toEqual(ids.map((id) => ({ id })));
    expect((await fs.readdir(userDir(home))).sort()).toEqual(ids.map((id) => `${id}.md`));
    expect(
      core
        .store('user')!
        .list()
        .map((n) => n.id)
        .sort(),
    ).toEqual(ids);
  });

  it('a file named MEMORY in its place: every entry fails saying the folder cannot be created; nothing is written', async () => {
    const zip = await exportedNotes(base, ids);
    const { root, home } = await projectWithoutNotesFolder();
    const memoryPath = path.join(root, 'MEMORY');
    await fs.writeFile(memoryPath, 'not a folder');
    core = await createMemoryCore({ home, projectRoot: root, env: {} });

    const result = await importArchive(core, { file: zip, scope: 'project', onCollision: 'skip' });
    expect(result.imported).toEqual([]);
    expect(result.skipped).toEqual([]);
    expect(result.refused).toEqual(
      ids.map((id) => ({
        entry: `notes/${id}.md`,
        reason: expect.stringMatching(new RegExp(`^failed: cannot create ${escapeRegExp(memoryPath)}: E`)),
      })),
    );
    expect(await fs.readFile(memoryPath, 'utf8')).toBe('not a folder');
    expect((await fs.readdir(root)).sort()).toEqual(['.oharness', 'MEMORY']);
    expect(await fs.readdir(path.join(root, '.oharness'))).toEqual(['project.json']);
    expect(core.store('project')!.list()).toEqual([]);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
