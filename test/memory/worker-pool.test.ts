import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANK_LIMITS } from '../../electron/agents/mnemopi/read-bank.js';
import {
  ARCHIVE_LIMITS,
  buildArchive,
  type ReadArchiveResult,
} from '../../electron/agents/archive/zip-format.js';
import type { ImportTask } from '../../electron/agents/import-worker/tasks.js';
import type { ReadBankResult } from '../../electron/agents/mnemopi/read-bank.js';
import {
  analyseRequest,
  FINDINGS_WORKER,
  type ContentRequest,
  type ContentResponse,
} from '../../electron/cleanup/findings-worker.js';
import { workerEntry } from '../../electron/memory/worker-pool/entry.js';
import { runWorkerTask, startWorker, TaskStopped } from '../../electron/memory/worker-pool/pool.js';
import { buildCliBundle } from '../../scripts/build-cli.js';
import { writeMnemopiDb } from '../agents/mnemopi-fixture.js';
import { tempDir } from '../support/temp-dir.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

/** Only these files exist (by URL). */
const only =
  (...urls: string[]) =>
  (u: URL) =>
    urls.includes(u.href);

const request: ContentRequest = {
  seq: 1,
  scope: 'project',
  notes: [
    { id: 'a', summary: 'Pricing cards use fills, not borders', tags: ['design'], body: 'See [[missing]].' },
    { id: 'b', summary: 'Pricing page cards: use fill instead of borders', tags: ['design'], body: '' },
  ],
  idKeys: ['a', 'b'],
  projectRoot: null,
};

/** A one-note archive and a one-row Mnemopi bank, the two things the import worker reads. */
let zipFile: string;
let bankFile: string;
const noteBytes = new TextEncoder().encode(
  '---\n{"id":"n1","summary":"Deploys freeze on Friday"}\n---\nbody\n',
);
beforeAll(async () => {
  const dir = await tempDir('worker-inputs');
  dirs.push(dir);
  zipFile = path.join(dir, 'notes.zip');
  await fs.writeFile(zipFile, buildArchive('user', [{ id: 'n1', bytes: noteBytes }], Date.UTC(2026, 0, 1)));
  bankFile = path.join(dir, 'mnemopi.db');
  await writeMnemopiDb(bankFile, [{ id: 'm1', content: 'The user prefers pnpm.', created_at: 1767000000 }]);
});

/** Starts the findings worker through the pool, seen from `from`, and returns its answer to `request`. */
async function askFindings(from: string): Promise<ContentResponse> {
  const worker = startWorker({ name: 'findings-worker', from }, FINDINGS_WORKER);
  try {
    return await new Promise<ContentResponse>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage(request);
    });
  } finally {
    await worker.terminate();
  }
}

/** Runs both import tasks through the pool, seen from `from`, and checks what the worker read. */
async function expectImportWorkerReads(from: string): Promise<void> {
  const spec = { name: 'import-worker', from };
  const opts = { what: 'the import', budgetMs: 60_000 };
  const zip = await runWorkerTask<ReadArchiveResult>(
    spec,
    { kind: 'zip', file: zipFile, limits: ARCHIVE_LIMITS } satisfies ImportTask,
    opts,
  );
  expect(zip.notes.map((n) => [n.id, new TextDecoder().decode(n.bytes)])).toEqual([
    ['n1', new TextDecoder().decode(noteBytes)],
  ]);
  const banks = await runWorkerTask<ReadBankResult[]>(
    spec,
    { kind: 'banks', files: [bankFile], limits: BANK_LIMITS } satisfies ImportTask,
    opts,
  );
  expect(banks).toMatchObject([{ ok: true, rows: [{ rowId: 'm1', content: 'The user prefers pnpm.' }] }]);
}

/** The files of a bundle whose code passes its own URL as the starter of worker `name`. */
async function startersOf(dir: string, name: string): Promise<string[]> {
  const out = [];
  for (const f of await fs.readdir(dir)) {
    const file = path.join(dir, f);
    if (!(await fs.stat(file)).isFile() || !/\.c?js$/.test(f)) continue;
    if ((await fs.readFile(file, 'utf8')).match(new RegExp(`name: ?["']${name}["'],\\s*from: ?`)))
      out.push(f);
  }
  return out;
}

describe('the worker pool: one entry rule for every worker in each layout', () => {
  it('finds each worker beside the sources, tsc output, the CLI bundle and the packaged Electron bundle', () => {
    for (const name of ['findings-worker', 'import-worker']) {
      expect(workerEntry(name, 'file:///r/electron/x/starter.ts', only())).toEqual({
        url: new URL(`file:///r/electron/x/${name}.ts`),
        source: true,
      });
      expect(
        workerEntry(
          name,
          'file:///r/dist/electron/x/starter.js',
          only(`file:///r/dist/electron/x/${name}.js`),
        ),
      ).toEqual({ url: new URL(`file:///r/dist/electron/x/${name}.js`), source: false });
      // The CLI bundle: the starter is the CLI's CommonJS file, the worker's entry beside it.
      expect(
        workerEntry(name, 'file:///r/dist/cli/memdesk-core-0123.cjs', only(`file:///r/dist/cli/${name}.cjs`)),
      ).toEqual({ url: new URL(`file:///r/dist/cli/${name}.cjs`), source: false });
      // Packaged: main.cjs and the worker inside app.asar (Electron's fs sees into the archive).
      const asar = 'file:///opt/Memory%20Desk/resources/app.asar/.vite/build';
      expect(workerEntry(name, `${asar}/main.cjs`, only(`${asar}/${name}.cjs`))).toEqual({
        url: new URL(`${asar}/${name}.cjs`),
        source: false,
      });
      // Never a .js worker for a CommonJS bundle, and nothing when the file is missing.
      expect(workerEntry(name, `${asar}/main.cjs`, only(`${asar}/${name}.js`))).toBeNull();
    }
  });

  it('from the sources (tsx), both workers answer; a task past its budget is stopped', async () => {
    const from = pathToFileURL(path.join(repo, 'electron/agents/import-worker/run-in-worker.ts')).href;
    await expectImportWorkerReads(from);
    const analyser = pathToFileURL(path.join(repo, 'electron/cleanup/findings-analyser.ts')).href;
    expect(await askFindings(analyser)).toEqual({ seq: 1, content: analyseRequest(request) });
    const stopped = runWorkerTask(
      { name: 'import-worker', from },
      { kind: 'banks', files: [bankFile], limits: BANK_LIMITS },
      {
        what: 'the import',
        budgetMs: 1,
      },
    );
    await expect(stopped).rejects.toBeInstanceOf(TaskStopped);
    await expect(stopped).rejects.toThrow(/the import took longer than the 1 ms budget/);
  }, 60_000);

  it('the Electron main bundle emits both workers (and sql.js’s wasm) beside main.cjs, and they answer', async () => {
    const outDir = await tempDir('main-bundle');
    dirs.push(outDir);
    await build({
      configFile: path.join(repo, 'vite.main.config.ts'),
      root: repo,
      logLevel: 'silent',
      build: { outDir, sourcemap: false },
    });
    // The bundle passes its own URL (import.meta.url is defined for CommonJS in vite.main.config.ts),
    // from main.cjs or from a chunk beside it (lazily loaded parts of main are split out).
    expect(await fs.readdir(outDir)).toEqual(
      expect.arrayContaining(['main.cjs', 'findings-worker.cjs', 'import-worker.cjs', 'sql-wasm.wasm']),
    );
    for (const name of ['findings-worker', 'import-worker']) {
      const starters = await startersOf(outDir, name);
      expect(starters.length).toBeGreaterThan(0);
      expect(workerEntry(name, pathToFileURL(path.join(outDir, starters[0]!)).href)).toEqual({
        url: pathToFileURL(path.join(outDir, `${name}.cjs`)),
        source: false,
      });
    }
    const starter = pathToFileURL(path.join(outDir, 'main.cjs')).href;
    expect(await askFindings(starter)).toEqual({ seq: 1, content: analyseRequest(request) });
    await expectImportWorkerReads(starter);
  }, 180_000);

  it('the CLI bundle emits both worker entries, found from the CLI file that starts them, and they answer', async () => {
    // Inside the repository, as dist/cli is: the bundle keeps sql.js in node_modules (build-cli.ts).
    await fs.mkdir(path.join(repo, '.vite'), { recursive: true });
    const outDir = await fs.mkdtemp(path.join(repo, '.vite', 'test-cli-bundle-'));
    dirs.push(outDir);
    await buildCliBundle(outDir);
    for (const name of ['findings-worker', 'import-worker']) {
      const starters = await startersOf(outDir, name);
      // The CLI is one CommonJS file (memdesk-core-<hash>.cjs): it starts both workers.
      expect(starters).toEqual([expect.stringMatching(/^memdesk-core-[0-9a-f]{16}\.cjs$/)]);
      const from = pathToFileURL(path.join(outDir, starters[0]!)).href;
      expect(workerEntry(name, from)?.url.href).toBe(pathToFileURL(path.join(outDir, `${name}.cjs`)).href);
      if (name === 'findings-worker')
        expect(await askFindings(from)).toEqual({ seq: 1, content: analyseRequest(request) });
      else await expectImportWorkerReads(from);
    }
  }, 180_000);
});
