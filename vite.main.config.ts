import { readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'vite';

/**
 * sql.js (bundled into the import worker) reads `sql-wasm.wasm` from its own file's directory, which
 * in this bundle is .vite/build/ (inside app.asar when packaged; no node_modules ship there).
 */
const sqlWasm: Plugin = {
  name: 'memdesk-sql-wasm',
  generateBundle() {
    const wasm = createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm');
    this.emitFile({ type: 'asset', fileName: 'sql-wasm.wasm', source: readFileSync(wasm) });
  },
};

// The Electron main process, bundled to CommonJS as .vite/build/main.cjs ("main" in package.json; the
// package is "type": "module", so a .js CommonJS file would be misread as ESM). Used by Electron
// Forge's Vite plugin (`npm start`) and on its own by `npm run build:electron` for electron-builder.
export default defineConfig((env) => {
  const underForge = 'forgeConfigSelf' in env;
  return {
    plugins: [sqlWasm],
    build: {
      outDir: '.vite/build',
      emptyOutDir: false,
      minify: false,
      sourcemap: true,
      // Each worker thread's entry is its own file beside main.cjs, named after the worker (found by
      // electron/memory/worker-pool/entry.ts; inside app.asar when packaged).
      lib: {
        entry: {
          main: 'electron/main/index.ts',
          'findings-worker': 'electron/cleanup/findings-worker.ts',
          'import-worker': 'electron/agents/import-worker/import-worker.ts',
        },
        formats: ['cjs'],
        fileName: (_format, name) => `${name}.cjs`,
      },
      rollupOptions: {
        external: ['electron', /^electron\//, ...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
      },
    },
    resolve: { conditions: ['node'], mainFields: ['module', 'jsnext:main', 'jsnext'] },
    define: {
      // CommonJS has no import.meta (rolldown would put `{}` there): each file's own URL, which is
      // what the sources mean by it (workers beside the bundle, electron/memory/worker-pool/entry.ts).
      'import.meta.url': 'require("node:url").pathToFileURL(__filename).href',
      // Forge defines these itself; a standalone build loads the packaged renderer from disk.
      ...(underForge
        ? {}
        : {
            MAIN_WINDOW_VITE_DEV_SERVER_URL: 'undefined',
            MAIN_WINDOW_VITE_NAME: JSON.stringify('main_window'),
          }),
    },
  };
});
