import { promises as fs } from 'node:fs';
import path from 'node:path';
import { AppError } from '../../shared/errors.js';
import { parseJsonText } from '../../shared/parse-json.js';
import { writeFileAtomic } from '../memory/atomic-write.js';

/** Where 待整理 keeps its machine-local state: dismissals, the model settings and key, consolidation runs. */
export function cleanupStateDir(home: string): string {
  return path.join(home, 'memory-cleanup');
}

/**
 * Reads a JSON state file. Missing → `null`. Unparseable → AppError('io_error'): callers report it
 * and never overwrite the file (someone may want what is in it).
 */
export async function readJsonState(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new AppError('io_error', `cannot read ${file}: ${(err as Error).message}`);
  }
  return parseJsonText(
    text,
    (reason) => new AppError('io_error', `${file} is not valid JSON (${reason}); fix or remove it`),
  );
}

export async function writeJsonState(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n');
}
