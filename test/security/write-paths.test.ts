import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importArchive } from '../../electron/agents/archive/export-import.js';
import { buildArchive } from '../../electron/agents/archive/zip-format.js';
import { applyMerge, planManualMerge } from '../../electron/cleanup/merge.js';
import { serializeNote } from '../../shared/note-format.js';
import { makeHarness, mdFiles, type Harness } from '../agents/harness.js';

/** Every path that writes a note refuses a credential (docs/security.md, "No secret written"). */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const PASSWORD = 'DB_PASSWORD=Tr0ub4dor&3x';
const TOKEN = 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

describe('no secret written by any path', () => {
  it('remember and edit refuse, naming every finding at once', async () => {
    h = await makeHarness();
    await expect(
      h.notes.remember({ summary: 'Staging database', body: `${PASSWORD}\nand ${TOKEN}\n`, scope: 'user' }),
    ).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/the body looks like it contains a password .* and a GitHub Token/),
    });
    const ok = await h.notes.remember({
      summary: 'Staging database',
      body: 'Lives in eu-west-1.\n',
      scope: 'user',
    });
    await expect(
      h.notes.edit({ id: ok.note.id, scope: 'user', summary: `token ${TOKEN}` }),
    ).rejects.toMatchObject({
      code: 'refused',
    });
    expect(await mdFiles(h.core.user.store!.dir)).toEqual([`${ok.note.id}.md`]);
  });

  it('retain refuses the item (content or context) in its receipt', async () => {
    h = await makeHarness();
    const out = await h.handlers['agents.retain']({
      items: [
        { content: `The aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ3vT8pLmN` },
        { content: 'Fine fact.', context: PASSWORD },
      ],
      bankScope: 'global',
    });
    expect(out.receipts.map((r) => r.status)).toEqual(['refused', 'refused']);
    expect(out.receipts[1]!.reason).toMatch(/^the context looks like/);
    expect(await mdFiles(h.core.user.store!.dir)).toEqual([]);
  });

  it('a merge draft may not add a credential', async () => {
    h = await makeHarness();
    const a = await h.notes.remember({ summary: 'Deploy steps', body: 'Run the pipeline.\n', scope: 'user' });
    h.clock.now += 1000;
    const b = await h.notes.remember({
      summary: 'Deploy checklist',
      body: 'Check the dashboards.\n',
      scope: 'user',
    });
    const store = h.core.user.store!;
    const plan = planManualMerge('user', [store.get(a.note.id)!, store.get(b.note.id)!]);
    const tampered = { ...plan, draft: { ...plan.draft, body: `${plan.draft.body}\n${PASSWORD}\n` } };
    await expect(applyMerge(h.core, tampered)).rejects.toMatchObject({ code: 'refused' });
    expect(store.get(a.note.id)!.body).toBe('Run the pipeline.\n');
  });

  it('restoring a backup that holds a credential is refused; the backup stays', async () => {
    h = await makeHarness();
    const dir = h.core.user.store!.dir;
    // A note that arrived with a secret (as a sync pull may bring one), then deleted: it is backed up.
    const raw = serializeNote({
      id: 'creds',
      summary: 'Old creds',
      tags: [],
      body: `${PASSWORD}\n`,
      createdAt: 1,
      updatedAt: 1,
    });
    await fs.writeFile(path.join(dir, 'creds.md'), raw);
    await h.core.user.store!.load();
    const { backupId } = await h.notes.forget({ id: 'creds', scope: 'user' });
    await expect(h.core.restoreBackup(backupId)).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/stays in memory-backups/),
    });
    expect(await mdFiles(dir)).toEqual([]);
  });

  it('a zip import refuses the entry holding a credential (frontmatter included) and imports the rest', async () => {
    h = await makeHarness();
    const clean = serializeNote({
      id: 'clean',
      summary: 'Clean',
      tags: [],
      body: 'Nothing secret.\n',
      createdAt: 1,
      updatedAt: 1,
    });
    const dirty = serializeNote({
      id: 'dirty',
      summary: 'Dirty',
      tags: [],
      body: 'Looks harmless.\n',
      createdAt: 1,
      updatedAt: 1,
      extra: { deploy: { token: TOKEN } },
    });
    const zip = buildArchive(
      'user',
      [
        { id: 'clean', bytes: new TextEncoder().encode(clean) },
        { id: 'dirty', bytes: new TextEncoder().encode(dirty) },
      ],
      1,
    );
    const file = path.join(h.tmp, 'in.zip');
    await fs.writeFile(file, zip);
    const result = await importArchive(h.core, { file, scope: 'user', onCollision: 'skip' });
    expect(result.imported).toEqual([{ id: 'clean' }]);
    expect(result.refused).toEqual([
      {
        entry: 'notes/dirty.md',
        reason: expect.stringMatching(/the file looks like it contains a GitHub Token/),
      },
    ]);
    expect(await mdFiles(h.core.user.store!.dir)).toEqual(['clean.md']);
  });
});
