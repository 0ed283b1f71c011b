import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

// The preload script as one CommonJS file (.vite/build/preload.cjs): sandboxed preloads cannot load
// chunks or ES modules, so everything is inlined.
export default defineConfig({
  build: {
    outDir: '.vite/build',
    emptyOutDir: false,
    minify: false,
    rollupOptions: {
      input: 'electron/preload.ts',
      external: ['electron', /^electron\//, ...builtinModules],
      output: { format: 'cjs', inlineDynamicImports: true, entryFileNames: 'preload.cjs' },
    },
  },
});
