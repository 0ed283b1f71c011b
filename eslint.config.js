import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', '.vite/**', 'node_modules/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: "Only electron/main and electron/preload.ts may import 'electron'." }] },
      ],
    },
  },
  {
    files: ['electron/main/**', 'electron/preload.ts', 'forge.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
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
