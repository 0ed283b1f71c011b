import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { CONTENT_SECURITY_POLICY } from './electron/transports/http/guard.js';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * The CSP as a <meta>: `frame-ancestors` works only as a header (browsers ignore it in a meta and
 * log a warning), so the meta leaves it out; the web bridge sends the whole policy as a header.
 */
const META_POLICY = CONTENT_SECURITY_POLICY.split('; ')
  .filter((directive) => !directive.startsWith('frame-ancestors'))
  .join('; ');

/** The built page carries the strict CSP itself (Electron loads it from file://; the web bridge also sends it as a header). */
function cspMeta(): Plugin {
  return {
    name: 'memory-desk:csp-meta',
    apply: 'build',
    transformIndexHtml(html) {
      return html.replace(
        '<meta charset="UTF-8" />',
        `<meta charset="UTF-8" />\n    <meta http-equiv="Content-Security-Policy" content="${META_POLICY}" />`,
      );
    },
  };
}

// Used by `npm run build:renderer` (→ dist/renderer, served by the web bridge) and by Electron Forge's
// Vite plugin (which passes its own env with `forgeConfigSelf` and picks the output directory itself).
export default defineConfig((env) => {
  const underForge = 'forgeConfigSelf' in env;
  return {
    root: path.join(root, 'renderer'),
    base: './',
    plugins: [react(), cspMeta()],
    build: {
      ...(underForge ? {} : { outDir: path.join(root, 'dist/renderer'), emptyOutDir: true }),
      target: 'chrome120',
      sourcemap: true,
      chunkSizeWarningLimit: 2000,
    },
    clearScreen: false,
  };
});
