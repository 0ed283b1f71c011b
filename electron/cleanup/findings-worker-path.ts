import { existsSync } from 'node:fs';

/** The findings worker's entry file: TypeScript source (run through tsx) or a built JavaScript file. */
export interface FindingsWorkerEntry {
  url: URL;
  source: boolean;
}

/**
 * Where the findings worker's entry file is, seen from the module that starts it
 * (findings-analyser.ts's `import.meta.url`), in every layout the app runs in:
 * - TypeScript sources (tests, `npm run demo`): `findings-worker.ts` beside it;
 * - tsc's output (dist/): `findings-worker.js` beside it;
 * - the CLI bundle (scripts/build-cli.ts): the analyser sits in `chunks/`, the worker entry one
 *   level up (`dist/cli/findings-worker.js`);
 * - the Electron main bundle (vite.main.config.ts, CommonJS): `findings-worker.cjs` beside
 *   `main.cjs` in `.vite/build/` — inside `app.asar` when packaged (Electron ≥ 17.3 starts a
 *   worker from a file in the archive; its fs sees into the archive, so `exists` does too).
 * Null when no candidate exists: the analysis then runs in-thread.
 */
export function findingsWorkerEntry(
  moduleUrl: string,
  exists: (url: URL) => boolean = existsSync,
): FindingsWorkerEntry | null {
  if (moduleUrl.endsWith('.ts')) return { url: new URL('./findings-worker.ts', moduleUrl), source: true };
  const ext = moduleUrl.endsWith('.cjs') ? 'cjs' : 'js';
  for (const rel of [`./findings-worker.${ext}`, `../findings-worker.${ext}`]) {
    const url = new URL(rel, moduleUrl);
    if (exists(url)) return { url, source: false };
  }
  return null;
}
