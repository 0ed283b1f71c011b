import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

// The Electron main process, bundled to CommonJS as .vite/build/main.cjs ("main" in package.json; the
// package is "type": "module", so a .js CommonJS file would be misread as ESM). Used by Electron
// Forge's Vite plugin (`npm start`) and on its own by `npm run build:electron` for electron-builder.
export default defineConfig((env) => {
  const underForge = 'forgeConfigSelf' in env;
  return {
    build: {
      outDir: '.vite/build',
      emptyOutDir: false,
      minify: false,
      sourcemap: true,
      // The findings worker thread's entry is its own file beside main.cjs (found by
      // electron/cleanup/findings-worker-path.ts; inside app.asar when packaged).
      lib: {
        entry: { main: 'electron/main/index.ts', 'findings-worker': 'electron/cleanup/findings-worker.ts' },
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
      // what the sources mean by it (workers beside the bundle, electron/cleanup/findings-worker-path.ts).
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
