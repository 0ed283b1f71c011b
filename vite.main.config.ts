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
      lib: { entry: 'electron/main/index.ts', formats: ['cjs'], fileName: () => 'main.cjs' },
      rollupOptions: {
        external: ['electron', /^electron\//, ...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
      },
    },
    resolve: { conditions: ['node'], mainFields: ['module', 'jsnext:main', 'jsnext'] },
    // Forge defines these itself; a standalone build loads the packaged renderer from disk.
    ...(underForge
      ? {}
      : {
          define: {
            MAIN_WINDOW_VITE_DEV_SERVER_URL: 'undefined',
            MAIN_WINDOW_VITE_NAME: JSON.stringify('main_window'),
          },
        }),
  };
});
