import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm start`: the desktop app through Electron Forge. The Electron runtime is a separate download
 * that some machines (CI, our build boxes) cannot make; then this says so in one line and points to
 * the browser demo instead of failing deep inside Forge.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function electronBinaryProblem(electronDir: string): string | null {
  const pathTxt = path.join(electronDir, 'path.txt');
  if (!existsSync(electronDir)) return 'the electron package is not installed';
  if (!existsSync(pathTxt)) return 'node_modules/electron/path.txt is missing';
  const binary = path.join(electronDir, 'dist', readFileSync(pathTxt, 'utf8').trim());
  if (!existsSync(binary)) return `${path.relative(repo, binary)} is missing`;
  return null;
}

const electronDir = path.join(repo, 'node_modules', 'electron');
let problem = electronBinaryProblem(electronDir);
if (problem && existsSync(path.join(electronDir, 'install.js'))) {
  // Electron fetches its runtime on first use; try its own installer once, quietly, before giving up.
  const install = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], {
    cwd: electronDir,
    stdio: 'pipe',
    timeout: 10 * 60_000,
  });
  problem = electronBinaryProblem(electronDir);
  if (problem && install.status !== 0) problem += '; downloading it failed';
}
if (problem) {
  console.error(
    `Electron's runtime is not installed here (${problem}): run \`npm run demo\` to use Memory Desk in a browser instead.`,
  );
  process.exit(1);
}

const forge = path.join(repo, 'node_modules', '@electron-forge', 'cli', 'dist', 'electron-forge.js');
const child = spawn(process.execPath, [forge, 'start', ...process.argv.slice(2)], {
  cwd: repo,
  stdio: 'inherit',
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
