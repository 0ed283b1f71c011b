import { createHash } from 'node:crypto';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { coreFileName } from '../electron/transports/cli/core-file.js';

/**
 * Bundles the `memdesk` CLI (the package's `bin`) into dist/cli/:
 *   - memdesk.js, the bin: ESM, small; it takes the first steps (the files built apart, below) and
 *     otherwise runs memdesk-core-<hash>.cjs;
 *   - memdesk-core-<hash>.cjs: run.ts and everything it imports, one CommonJS file, run from V8's
 *     code cache (electron/transports/cli/code-cache.ts: compiling is most of a cold start on
 *     Node 20, which caches no compiled code of its own); its name carries its content's hash
 *     because V8 checks a cache against the source's length only;
 *   - findings-worker.cjs, import-worker.cjs: the worker threads' entries, beside the file that starts them.
 * Modules a command imports with import() are bundled in and run when imported, as before.
 *
 * With `--app` (the copy the desktop app ships in app.asar, `npm run build:electron`) sql.js is
 * copied in too: the packaged app has no node_modules, and electron-builder drops any folder named
 * node_modules from the app's files, so it goes to `vendor/sql.js/` and the bundle requires it there.
 *
 * Run as a script it first regenerates the MCP front's build-time answers (mcp-static-answers.ts).
 *
 *   npx tsx scripts/build-cli.ts [outdir] [--app]     (npm run build runs it without --app)
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the app's copy keeps sql.js, and the files of it that run (its package.json says CommonJS). */
export const VENDORED_SQL_JS = 'vendor/sql.js';
const SQL_JS_FILES = ['package.json', 'dist/sql-wasm.js', 'dist/sql-wasm.wasm'];

/** `import('sql.js')` → the vendored copy, relative to the files that require it (beside vendor/). */
const vendoredSqlJs: Plugin = {
  name: 'vendored-sql.js',
  setup(b) {
    b.onResolve({ filter: /^sql\.js$/ }, () => ({
      path: `./${VENDORED_SQL_JS}/dist/sql-wasm.js`,
      external: true,
    }));
  },
};

/**
 * Files the bin imports that are built apart, each one ESM file (source → output in dist/cli), so
 * what runs first is two small modules (the entry and that file), never the CLI's whole file:
 *   - `memdesk mcp`'s front (electron/transports/cli/mcp-first.ts), answering initialize;
 *   - the warm step of `memdesk recall` / `memdesk hook` (warm-first.ts, docs/agents.md "Warm
 *     answers"), which needs only zod/mini's few KB of zod;
 *   - the loader of the CLI's CommonJS file with its code cache (load-cli-bundled.ts, in the place of
 *     load-cli.ts, which imports run.ts from the sources).
 * The little they share with the rest (the globals parser, the protocol constants) is bundled twice.
 */
const MCP_FRONT = 'mcp-first.js';
const APART: Record<string, string> = {
  [MCP_FRONT]: 'mcp-first.ts',
  'warm-first.js': 'warm-first.ts',
  'load-cli.js': 'load-cli-bundled.ts',
};
const separateFirstSteps: Plugin = {
  name: 'separate-first-steps',
  setup(b) {
    b.onResolve({ filter: /^\.\/[\w-]+\.js$/ }, (args) =>
      args.importer.endsWith(path.join('transports', 'cli', 'memdesk.ts')) &&
      Object.hasOwn(APART, args.path.slice(2))
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

/** The worker threads: each one's entry file, bundled to `<name>.cjs` beside the CLI's file that starts it. */
const WORKERS = [
  ['findings-worker', 'electron/cleanup/findings-worker.ts'],
  ['import-worker', 'electron/agents/import-worker/import-worker.ts'],
] as const;

/**
 * zod's `locales` namespace (z.locales, z.core.locales, zod/mini's): 64 translations of its error messages (a third of the zod chunk every
 * command loads). memdesk uses English only (zod registers it by default), so the namespace holds
 * English alone; any other locale asked of it would be undefined.
 */
const englishOnlyZod: Plugin = {
  name: 'english-only-zod',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic[\\/]external|mini[\\/]external|core[\\/]index)\.js$/.test(args.importer)
        ? { path: path.join(path.dirname(args.importer), '../locales/en.js'), namespace: 'zod-en-only' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

export interface CliBundleOptions {
  /** The desktop app's copy: sql.js vendored beside the bundle instead of found in node_modules. */
  app?: boolean;
  /** Readable output for CPU profiles (`node --cpu-prof`); minified otherwise. */
  minify?: boolean;
}

export async function buildCliBundle(
  outdir = path.join(repo, 'dist', 'cli'),
  options: CliBundleOptions = {},
): Promise<string> {
  await rm(outdir, { recursive: true, force: true }); // no stale files from an earlier build
  await mkdir(outdir, { recursive: true });
  const minify = options.minify ?? true;
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    legalComments: 'none',
    minify,
  };
  // The CLI itself and each worker thread's entry (named after the worker: electron/memory/worker-pool/entry.ts):
  // CommonJS files that hold everything they import, so V8 can compile them from a code cache.
  const commonJs: BuildOptions & { write: false } = {
    ...common,
    format: 'cjs',
    write: false,
    // sql.js finds its .wasm file next to its own module: keep it in node_modules (or vendor/).
    external: ['sql.js'],
    // import() of what stays outside (Node's modules, sql.js) becomes require(): a script compiled
    // with a code cache has no dynamic import on Node 20 without an experimental flag.
    supported: { 'dynamic-import': false },
    plugins: [englishOnlyZod, ...(options.app ? [vendoredSqlJs] : [])],
    // What the sources ask of import.meta, from the file's own path (a worker's starter finds the worker beside it).
    define: { 'import.meta.url': '__memdeskModuleUrl', 'import.meta.resolve': '__memdeskResolve' },
    banner: {
      js: [
        // First, so it stays the directive it is in esbuild's output: the ESM sources ran strict.
        '"use strict";',
        'var __memdeskModuleUrl = require("node:url").pathToFileURL(__filename).href;',
        'var __memdeskResolve = (s) => require("node:url").pathToFileURL(require.resolve(s)).href;',
      ].join('\n'),
    },
  };
  const core = await commonJsFile(path.join(repo, 'electron/transports/cli/run.ts'), commonJs);
  const coreName = coreFileName(createHash('sha256').update(core).digest('hex'));
  await writeFile(path.join(outdir, coreName), core);
  for (const [name, entry] of WORKERS)
    await writeFile(path.join(outdir, `${name}.cjs`), await commonJsFile(path.join(repo, entry), commonJs));
  // The bin and the files it imports: ESM.
  await build({
    ...common,
    entryPoints: [path.join(repo, 'electron/transports/cli/memdesk.ts')],
    outfile: path.join(outdir, 'memdesk.js'),
    format: 'esm',
    plugins: [separateFirstSteps],
  });
  for (const [file, source] of Object.entries(APART))
    await build({
      ...common,
      entryPoints: [path.join(repo, 'electron/transports/cli', source)],
      outfile: path.join(outdir, file),
      format: 'esm',
      plugins: [englishOnlyZod],
      define: { MEMDESK_CLI_CORE: JSON.stringify(coreName) },
    });
  // The bundle says it is ESM wherever it is copied: without a package.json saying so (a temp dir,
  // a copy outside the package) Node parses every file twice, as CommonJS first and then as ESM.
  await writeFile(path.join(outdir, 'package.json'), '{ "type": "module" }\n');
  if (options.app) {
    // The package's root (its exports hide package.json): two levels above dist/sql-wasm.js.
    const sqlJs = path.resolve(path.dirname(createRequire(import.meta.url).resolve('sql.js')), '..');
    for (const file of SQL_JS_FILES) {
      await mkdir(path.dirname(path.join(outdir, VENDORED_SQL_JS, file)), { recursive: true });
      await copyFile(path.join(sqlJs, file), path.join(outdir, VENDORED_SQL_JS, file));
    }
  }
  return path.join(outdir, 'memdesk.js');
}

/** One entry bundled into one CommonJS file's text. */
async function commonJsFile(entry: string, options: BuildOptions & { write: false }): Promise<string> {
  const result = await build({ ...options, entryPoints: [entry], outfile: 'out.cjs' });
  return result.outputFiles[0]!.text;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // The front's build-time answers (tools/list…) from the SDK server of this very source tree.
  const { writeStaticAnswers } = await import('./mcp-static-answers.js'); // the SDK and prettier: not for buildCliBundle's importers
  if (await writeStaticAnswers()) process.stdout.write('MCP front answers regenerated from the SDK server\n');
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--'));
  const out = await buildCliBundle(dir ? path.resolve(dir) : undefined, { app: args.includes('--app') });
  process.stdout.write(`memdesk CLI bundled into ${path.relative(process.cwd(), out)}\n`);
}
