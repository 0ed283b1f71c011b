import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_LIMITS, buildArchive, readArchive } from '../../electron/agents/archive/zip-format.js';
import { runImportTask } from '../../electron/agents/import-worker/run-in-worker.js';
import { BANK_LIMITS } from '../../electron/agents/mnemopi/read-bank.js';
import { createMemoryCore, userNotesDir } from '../../electron/memory/core.js';
import { fastParseNote } from '../../electron/memory/fast-parse.js';
import { parseNote, serializeNote } from '../../shared/note-format.js';
import { mulberry32 } from '../support/prng.js';
import { MNEMOPI_SCHEMA } from '../agents/mnemopi-fixture.js';
import { craftZip } from './zip-craft.js';
import { encode, int, mutateBytes, mutatedNoteText, pick } from './fuzz-inputs.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * Hostile and broken inputs through the real parsers: no crash, no hang past a budget (measured in
 * work, not time), corrupt inputs reported and the files left as they were. Counts are printed.
 */
const NOTES_IN_MEMORY = 100_000;
const NOTES_ON_DISK = 1_000;
const ZIPS = 8_000;
const BANKS = 2_000;

let tmp: string;
beforeAll(async () => {
  tmp = await tempDir('fuzz');
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('fuzz', { timeout: 300_000 }, () => {
  it(`${NOTES_IN_MEMORY} mutated note files: the parser never throws and both parsers agree`, () => {
    const rand = mulberry32(101);
    const decoder = new TextDecoder();
    let ok = 0;
    let refused = 0;
    const problems: string[] = [];
    // Plain comparisons in the loop (an expect() per item would dominate the run time).
    for (let i = 0; i < NOTES_IN_MEMORY; i++) {
      const text = decoder.decode(encode(rand, mutatedNoteText(rand, i)));
      const slow = parseNote(text);
      const fast = fastParseNote(text);
      if (JSON.stringify(fast) !== JSON.stringify(slow)) problems.push(`#${i}: the parsers disagree`);
      if (slow.ok) {
        ok++;
        if (typeof slow.note.id !== 'string' || !Array.isArray(slow.note.tags))
          problems.push(`#${i}: bad shape`);
        if (i % 10 === 0) {
          // What parses serialises and parses back to the same body.
          const again = parseNote(serializeNote({ ...slow.note, createdAt: 1, updatedAt: 1 }));
          if (!again.ok || again.note.body !== slow.note.body) problems.push(`#${i}: no round trip`);
        }
      } else {
        refused++;
        if (!slow.reason) problems.push(`#${i}: refused without a reason`);
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
    console.log(
      `fuzz: ${NOTES_IN_MEMORY} note texts parsed in memory: ${ok} notes, ${refused} refused with a reason`,
    );
  });

  it(`${NOTES_ON_DISK} mutated note files on disk: each loaded or reported, none changed`, async () => {
    const rand = mulberry32(202);
    const home = path.join(tmp, 'home');
    const dir = userNotesDir(home);
    await fs.mkdir(dir, { recursive: true });
    const before = new Map<string, string>();
    for (let i = 0; i < NOTES_ON_DISK; i++) {
      const name =
        rand() < 0.9
          ? `note-${i.toString(36)}.md`
          : pick(rand, [`x${i}.md`, `.hidden-${i}.md`, `bad name ${i}.md`, `${i}.txt`]);
      const bytes = encode(rand, mutatedNoteText(rand, i));
      await fs.writeFile(path.join(dir, name), bytes);
      before.set(name, sha(bytes));
    }
    const core = await createMemoryCore({ home, env: {}, now: () => 1_780_000_000_000 });
    const store = core.user.store!;
    const loaded = new Set(store.list().map((n) => path.basename(n.path)));
    const reported = store
      .warnings()
      .map((w) => `${w.path ?? ''} ${w.message}`)
      .join('\n');
    let unaccounted = 0;
    for (const name of before.keys()) {
      if (!name.endsWith('.md') || name.startsWith('.')) continue;
      if (!loaded.has(name) && !reported.includes(name)) unaccounted++;
    }
    await core.close();
    for (const [name, hash] of before)
      expect(sha(new Uint8Array(await fs.readFile(path.join(dir, name))))).toBe(hash);
    console.log(
      `fuzz: ${NOTES_ON_DISK} note files on disk: ${loaded.size} loaded, ${store.warnings().length} warnings, all ${before.size} files unchanged`,
    );
    expect(unaccounted).toBe(0);
  });

  it(`${ZIPS} mutated zip archives: read or refused, never past the inflate budget`, () => {
    const rand = mulberry32(303);
    const limits = {
      ...ARCHIVE_LIMITS,
      maxEntryBytes: 256 * 1024,
      maxTotalBytes: 1024 * 1024,
      maxEntries: 50,
    };
    const oneStep = 1032 * 1024 + 1;
    const seeds = Array.from({ length: 20 }, (_, s) =>
      buildArchive(
        'user',
        Array.from({ length: 1 + (s % 4) }, (_, k) => ({
          id: `n-${s}-${k}`,
          bytes: new TextEncoder().encode(
            serializeNote({
              id: `n-${s}-${k}`,
              summary: 's',
              tags: [],
              body: 'b'.repeat(s * 300),
              createdAt: 1,
              updatedAt: 1,
            }),
          ),
        })),
        1,
      ),
    );
    let read = 0;
    let notReadable = 0;
    let notes = 0;
    let refusedEntries = 0;
    let inflated = 0;
    for (let i = 0; i < ZIPS; i++) {
      const data =
        rand() < 0.1
          ? craftZip([
              {
                name: `notes/c-${i}.md`,
                deflated: mutateBytes(rand, pick(rand, seeds)),
                declaredSize: int(rand, 1 << 20),
              },
            ])
          : mutateBytes(rand, pick(rand, seeds));
      try {
        const result = readArchive(data, limits);
        read++;
        notes += result.notes.length;
        refusedEntries += result.refused.length;
        inflated += result.inflatedBytes;
        expect(result.inflatedBytes).toBeLessThanOrEqual(limits.maxTotalBytes + oneStep);
      } catch (err) {
        notReadable++;
        expect((err as Error).message).toMatch(/^not a readable zip archive|larger than/);
      }
    }
    console.log(
      `fuzz: ${ZIPS} zip archives: ${read} read (${notes} notes, ${refusedEntries} entries refused with a reason), ${notReadable} not a zip; ${(inflated / 2 ** 20).toFixed(0)} MiB inflated in all`,
    );
  });

  it(`${BANKS} mutated Mnemopi banks: read or skipped with a reason inside the worker's budget, files untouched`, async () => {
    const rand = mulberry32(404);
    const SQL = await initSqlJs();
    const seeds: Uint8Array[] = [];
    for (let s = 0; s < 10; s++) {
      const db = new SQL.Database();
      db.exec(s === 9 ? 'CREATE VIEW working_memory AS SELECT 1 AS content' : MNEMOPI_SCHEMA);
      if (s !== 9)
        for (let r = 0; r < 5 + s * 3; r++)
          db.run('INSERT INTO working_memory (id, content, metadata_json, created_at) VALUES (?,?,?,?)', [
            `r${r}`,
            `Fact ${r} of bank ${s}.`,
            rand() < 0.5 ? '{"context":"c"}' : '{bad json',
            r,
          ]);
      seeds.push(db.export());
      db.close();
    }
    const dir = path.join(tmp, 'banks');
    await fs.mkdir(dir, { recursive: true });
    const files: string[] = [];
    const hashes: string[] = [];
    for (let i = 0; i < BANKS; i++) {
      const bytes = rand() < 0.15 ? pick(rand, seeds) : mutateBytes(rand, pick(rand, seeds));
      const file = path.join(dir, `b${i}.db`);
      await fs.writeFile(file, bytes);
      files.push(file);
      hashes.push(sha(bytes));
    }
    let rows = 0;
    let readOk = 0;
    let skipped = 0;
    // One worker for all of them (as one import of many banks would be).
    for (let at = 0; at < files.length; at += BANKS) {
      const batch = files.slice(at, at + BANKS);
      // The whole batch must finish inside the worker's budget; a hang would reject here.
      const results = await runImportTask(
        { kind: 'banks', files: batch, limits: BANK_LIMITS },
        { budgetMs: 120_000 },
      );
      expect(results.length).toBe(batch.length);
      for (const r of results) {
        if (r.ok) {
          readOk++;
          rows += r.rows.length;
        } else {
          skipped++;
          expect(r.reason.length).toBeGreaterThan(0);
        }
      }
    }
    for (const [i, file] of files.entries())
      expect(sha(new Uint8Array(await fs.readFile(file)))).toBe(hashes[i]);
    console.log(
      `fuzz: ${BANKS} Mnemopi banks: ${readOk} read (${rows} rows), ${skipped} skipped with a reason, all files unchanged`,
    );
  });
});
