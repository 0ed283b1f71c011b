import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/**
 * Bundles the `memdesk` CLI (the package's `bin`) into dist/cli/: one entry file plus chunks that
 * are imported only by the commands that need them (code splitting keeps every `import()` lazy).
 * One file instead of ~300 modules is most of the CLI's cold start (docs/performance.md).
 *
 * With `--app` (the copy the desktop app ships in app.asar, `npm run build:electron`) sql.js is
 * copied in too: the packaged app has no node_modules, and electron-builder drops any folder named
 * node_modules from the app's files, so it goes to `vendor/sql.js/` and the bundle imports it there.
 *
 * Run as a script it first regenerates the MCP front's build-time answers (mcp-static-answers.ts).
 *
 *   npx tsx scripts/build-cli.ts [outdir] [--app]     (npm run build runs it without --app)
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the app's copy keeps sql.js, and the files of it that run (its package.json says CommonJS). */
export const VENDORED_SQL_JS = 'vendor/sql.js';
const SQL_JS_FILES = ['package.json', 'dist/sql-wasm.js', 'dist/sql-wasm.wasm'];

/** `import('sql.js')` → the vendored copy, relative to the chunk that imports it (chunks/). */
const vendoredSqlJs: Plugin = {
  name: 'vendored-sql.js',
  setup(b) {
    b.onResolve({ filter: /^sql\.js$/ }, () => ({
      path: `../${VENDORED_SQL_JS}/dist/sql-wasm.js`,
      external: true,
    }));
  },
};

/**
 * Files the bin imports that are built apart, each one file without code splitting, so what runs
 * first is two modules (the entry and that file) instead of the half-dozen shared chunks
 * splitting would cut it into — each ESM module costs a read, a parse and a link at every start:
 *   - `memdesk mcp`'s front (electron/transports/cli/mcp-first.ts), answering initialize;
 *   - the warm step of `memdesk recall` / `memdesk hook` (warm-first.ts, docs/agents.md "Warm
 *     answers"): a shared chunk would also hold all of zod, where it needs only zod/mini's few KB.
 * The little they share with the rest (the globals parser, the protocol constants) is bundled twice.
 */
const MCP_FRONT = 'mcp-first.js';
const APART = [MCP_FRONT, 'warm-first.js'];
const separateFirstSteps: Plugin = {
  name: 'separate-first-steps',
  setup(b) {
    b.onResolve({ filter: /^\.\/(mcp|warm)-first\.js$/ }, (args) =>
      args.importer.endsWith(path.join('transports', 'cli', 'memdesk.ts')) &&
      APART.includes(args.path.slice(2))
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

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
  await rm(outdir, { recursive: true, force: true }); // no stale chunks from an earlier build
  await build({
    // Each worker thread's entry is its own file, named after the worker (electron/memory/worker-pool/entry.ts).
    entryPoints: {
      memdesk: path.join(repo, 'electron/transports/cli/memdesk.ts'),
      'findings-worker': path.join(repo, 'electron/cleanup/findings-worker.ts'),
      'import-worker': path.join(repo, 'electron/agents/import-worker/import-worker.ts'),
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunks/[name]-[hash]',
    // sql.js finds its .wasm file next to its own module: keep it in node_modules (or vendor/).
    external: ['sql.js'],
    plugins: [separateFirstSteps, englishOnlyZod, ...(options.app ? [vendoredSqlJs] : [])],
    // Bundled CommonJS dependencies (ajv in the MCP SDK) call require() for Node's modules.
    banner: {
      js: "import { createRequire as __memdeskRequire } from 'node:module';\nconst require = __memdeskRequire(import.meta.url);",
    },
    logLevel: 'warning',
    legalComments: 'none',
    minify: options.minify ?? true,
  });
  for (const file of APART)
    await build({
      entryPoints: [path.join(repo, 'electron/transports/cli', file.replace(/\.js$/, '.ts'))],
      outfile: path.join(outdir, file),
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      plugins: [englishOnlyZod],
      logLevel: 'warning',
      legalComments: 'none',
      minify: options.minify ?? true,
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // The front's build-time answers (tools/list…) from the SDK server of this very source tree.
  const { writeStaticAnswers } = await import('./mcp-static-answers.js'); // the SDK and prettier: not for buildCliBundle's importers
  if (await writeStaticAnswers()) process.stdout.write('MCP front answers regenerated from the SDK server\n');
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--'));
  const out = await buildCliBundle(dir ? path.resolve(dir) : undefined, { app: args.includes('--app') });
  process.stdout.write(`memdesk CLI bundled into ${path.relative(process.cwd(), out)}\n`);
}
