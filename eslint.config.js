import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const electronOnly = { name: 'electron', message: "Only electron/main and electron/preload.ts may import 'electron'." };

/**
 * The layers of docs/architecture.md, enforced: each folder lists the parts it must never import
 * (type-only imports included). The pattern matches the first folder a relative specifier names
 * after its "../" steps: '../../sync/x.js' from electron/api/handlers is electron/sync.
 */
const layers = {
  'electron/memory/**': ['sync', 'cleanup', 'agents', 'api', 'app', 'transports', 'main', 'demo', 'renderer', 'server'],
  'electron/sync/**': ['agents', 'api', 'app', 'transports', 'main', 'demo', 'renderer', 'server'],
  'electron/cleanup/**': ['sync', 'agents', 'api', 'app', 'transports', 'main', 'demo', 'renderer', 'server'],
  'electron/agents/**': ['sync', 'cleanup', 'api', 'app', 'transports', 'main', 'demo', 'renderer', 'server'],
  'electron/api/**': ['app', 'transports', 'main', 'demo', 'renderer', 'server'],
  'electron/app/**': ['transports', 'main', 'demo', 'renderer', 'server'],
  'electron/transports/**': ['main', 'demo', 'renderer', 'server'],
  'renderer/**': ['electron', 'server'],
  'server/**': ['electron', 'renderer'],
};

function layerRule(forbidden) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: [electronOnly],
        patterns: [
          {
            regex: `^(\\.\\./)+(${forbidden.join('|')})/`,
            message: 'Layering (docs/architecture.md): a lower layer never imports an upper one.',
          },
        ],
      },
    ],
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', '.vite/**', 'node_modules/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': ['error', { paths: [electronOnly] }],
    },
  },
  {
    files: ['electron/main/**', 'electron/preload.ts', 'forge.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  ...Object.entries(layers).map(([folder, forbidden]) => ({ files: [folder], rules: layerRule(forbidden) })),
  {
    // Lower layers never import upper ones: shared knows nothing of the core, server or UI.
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/electron/**', '**/server/**', '**/renderer/**', 'node:*'], message: 'shared/ is isomorphic and imports nothing above it.' }] },
      ],
    },
  },
);
