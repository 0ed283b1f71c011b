import { existsSync } from 'node:fs';

/** A worker thread's entry file: TypeScript source (run through tsx) or a built JavaScript file. */
export interface WorkerEntry {
  url: URL;
  source: boolean;
}

/**
 * Where the entry file of worker `name` is, seen from the module that starts it (its
 * `import.meta.url`), in every layout the app runs in. Each worker's entry is a file named after
 * the worker, beside its starter in the sources, and emitted under that name by each bundle:
 * - TypeScript sources (tests, `tsx`, `npm run demo`): `<name>.ts` beside the starter;
 * - tsc's output (dist/): `<name>.js` beside it;
 * - the CLI bundle (scripts/build-cli.ts, CommonJS): `<name>.cjs` beside the CLI's file
 *   (`dist/cli/memdesk-core-<hash>.cjs`);
 * - the Electron main bundle (vite.main.config.ts, CommonJS): `<name>.cjs` beside `main.cjs` in
 *   `.vite/build/` — inside `app.asar` when packaged (Electron ≥ 17.3 starts a worker from a file in
 *   the archive; its fs sees into the archive, so `exists` does too).
 * Null when that file does not exist.
 */
export function workerEntry(
  name: string,
  moduleUrl: string,
  exists: (url: URL) => boolean = existsSync,
): WorkerEntry | null {
  if (moduleUrl.endsWith('.ts')) return { url: new URL(`./${name}.ts`, moduleUrl), source: true };
  const ext = moduleUrl.endsWith('.cjs') ? 'cjs' : 'js';
  const url = new URL(`./${name}.${ext}`, moduleUrl);
  return exists(url) ? { url, source: false } : null;
}
