import { VitePlugin } from '@electron-forge/plugin-vite';
import type { ForgeConfig } from '@electron-forge/shared-types';

/**
 * Electron Forge is the development runner (`npm start`: Vite dev server for the renderer, main and
 * preload rebuilt on change). Installers are made by electron-builder (`npm run dist`,
 * electron-builder.yml); see docs/desktop.md.
 */
const config: ForgeConfig = {
  packagerConfig: { asar: true, name: 'Memory Desk', executableName: 'memory-desk', icon: 'build/icon' },
  rebuildConfig: {},
  makers: [],
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
