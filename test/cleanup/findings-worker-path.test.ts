import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { findingsWorkerEntry } from '../../electron/cleanup/findings-worker-path.js';
import {
  analyseRequest,
  FINDINGS_WORKER,
  type ContentRequest,
  type ContentResponse,
} from '../../electron/cleanup/findings-worker.js';
import { buildCliBundle } from '../../scripts/build-cli.js';
import { tempDir } from '../memory/helpers.js';

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

/** Starts the worker file the way findings-analyser.ts does and returns its answer to `request`. */
async function askWorker(url: URL): Promise<ContentResponse> {
  const worker = new Worker(url, { workerData: FINDINGS_WORKER });
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

describe('the findings worker file in each layout', () => {
  it('is found beside the sources, tsc output, the CLI bundle and the packaged Electron bundle', () => {
    expect(findingsWorkerEntry('file:///r/electron/cleanup/findings-analyser.ts', only())).toEqual({
      url: new URL('file:///r/electron/cleanup/findings-worker.ts'),
      source: true,
    });
    expect(
      findingsWorkerEntry(
        'file:///r/dist/electron/cleanup/findings-analyser.js',
        only('file:///r/dist/electron/cleanup/findings-worker.js'),
      ),
    ).toEqual({ url: new URL('file:///r/dist/electron/cleanup/findings-worker.js'), source: false });
    // esbuild's code splitting puts the analyser in chunks/, the worker entry beside memdesk.js.
    expect(
      findingsWorkerEntry(
        'file:///r/dist/cli/chunks/chunk-X.js',
        only('file:///r/dist/cli/findings-worker.js'),
      ),
    ).toEqual({ url: new URL('file:///r/dist/cli/findings-worker.js'), source: false });
    // Packaged: main.cjs and the worker inside app.asar (Electron's fs sees into the archive).
    const asar = 'file:///opt/Memory%20Desk/resources/app.asar/.vite/build';
    expect(findingsWorkerEntry(`${asar}/main.cjs`, only(`${asar}/findings-worker.cjs`))).toEqual({
      url: new URL(`${asar}/findings-worker.cjs`),
      source: false,
    });
    // Never a .js worker for a CommonJS bundle, and nothing when the file is missing.
    expect(findingsWorkerEntry(`${asar}/main.cjs`, only(`${asar}/findings-worker.js`))).toBeNull();
  });

  it('the Electron main bundle emits the worker beside main.cjs, finds it from there, and it answers', async () => {
    const outDir = await tempDir('memdesk-main-bundle-');
    dirs.push(outDir);
    await build({
      configFile: path.join(repo, 'vite.main.config.ts'),
      root: repo,
      logLevel: 'silent',
      build: { outDir, sourcemap: false },
    });
    // The bundle passes its own URL (import.meta.url is defined for CommonJS in vite.main.config.ts),
    // from main.cjs or from a chunk beside it (lazily loaded parts of main are split out).
    const call = 'findingsWorkerEntry(require("node:url").pathToFileURL(__filename).href)';
    const starters = [];
    for (const f of await fs.readdir(outDir))
      if (f.endsWith('.cjs') && (await fs.readFile(path.join(outDir, f), 'utf8')).includes(call)) starters.push(f);
    expect(starters.length).toBeGreaterThan(0);
    const starter = pathToFileURL(path.join(outDir, starters[0]!)).href;
    const entry = findingsWorkerEntry(starter);
    expect(entry).toEqual({ url: pathToFileURL(path.join(outDir, 'findings-worker.cjs')), source: false });
    const res = await askWorker(entry!.url);
    expect(res).toEqual({ seq: 1, content: analyseRequest(request) });
  }, 120_000);

  it('the CLI bundle emits the worker entry, found from the analyser chunk, and it answers', async () => {
    const outDir = await tempDir('memdesk-cli-bundle-');
    dirs.push(outDir);
    await buildCliBundle(outDir);
    const chunks = await fs.readdir(path.join(outDir, 'chunks'));
    const analyser = [];
    for (const c of chunks)
      if ((await fs.readFile(path.join(outDir, 'chunks', c), 'utf8')).includes(FINDINGS_WORKER))
        analyser.push(c);
    expect(analyser.length).toBeGreaterThan(0);
    const entry = findingsWorkerEntry(pathToFileURL(path.join(outDir, 'chunks', analyser[0]!)).href);
    expect(entry?.url.href).toBe(pathToFileURL(path.join(outDir, 'findings-worker.js')).href);
    expect(await askWorker(entry!.url)).toEqual({ seq: 1, content: analyseRequest(request) });
  }, 120_000);
});
