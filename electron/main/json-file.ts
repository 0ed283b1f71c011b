import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../memory/atomic-write.js';

/** Small JSON files of the app shell (window state, recent projects) in Electron's userData dir. */
export function readJsonSync(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined; // missing or damaged: the shell starts from its defaults
  }
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n');
}
