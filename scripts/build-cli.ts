import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles the `memdesk` CLI (the package's `bin`) into dist/cli/: one entry file plus chunks that
 * are imported only by the commands that need them (code splitting keeps every `import()` lazy).
 * One file instead of ~300 modules is most of the CLI's cold start (docs/performance.md).
 *
 *   npx tsx scripts/build-cli.ts [outdir]     (npm run build runs it)
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildCliBundle(outdir = path.join(repo, 'dist', 'cli')): Promise<string> {
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
    // sql.js finds its .wasm file next to its own module: keep it in node_modules.
    external: ['sql.js'],
    // Bundled CommonJS dependencies (ajv in the MCP SDK) call require() for Node's modules.
    banner: {
      js: "import { createRequire as __memdeskRequire } from 'node:module';\nconst require = __memdeskRequire(import.meta.url);",
    },
    logLevel: 'warning',
    legalComments: 'none',
    minify: true,
  });
  return path.join(outdir, 'memdesk.js');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = await buildCliBundle(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
  process.stdout.write(`memdesk CLI bundled into ${path.relative(process.cwd(), out)}\n`);
}
