import path from 'node:path';
import { VitePlugin } from '@electron-forge/plugin-vite';
import type { ForgeConfig } from '@electron-forge/shared-types';
import { buildCliBundle } from './scripts/build-cli.js';

/**
 * Electron Forge is the development runner (`npm start`: Vite dev server for the renderer, main and
 * preload rebuilt on change). Installers are made by electron-builder (`npm run dist`,
 * electron-builder.yml); see docs/desktop.md. No makers: Forge makes no installer, so the Electron
 * fuses are electron-builder's alone (test/packaging/fuses.test.ts). A Forge package still carries
 * the `memdesk` CLI the app runs for agents (`<app> --memdesk-cli …`), built into the copied app.
 */
const config: ForgeConfig = {
  packagerConfig: { asar: true, name: 'Memory Desk', executableName: 'memory-desk', icon: 'build/icon' },
  rebuildConfig: {},
  makers: [],
  hooks: {
    // After the app's files were copied (Vite's output under .vite/), beside .vite/build as in
    // electron-builder's layout (electron/agents/setup/app-cli.ts).
    packageAfterCopy: async (_config, buildPath) => {
      await buildCliBundle(path.join(buildPath, '.vite', 'cli'), { app: true });
    },
  },
  plugins: [
    new VitePlugin({
      build: [
        { entry: 'electron/main/index.ts', config: 'vite.main.config.ts', target: 'main' },
        { entry: 'electron/preload.ts', config: 'vite.preload.config.ts', target: 'preload' },
      ],
      renderer: [{ name: 'main_window', config: 'vite.renderer.config.ts' }],
    }),
  ],
};

export default config;
