import { promises as fs } from 'node:fs';
import type { MemoryCore } from '../../memory/types.js';
import { envNameForKey, projectConfigPath, userConfigPath } from '../../memory/config.js';
import { RETAIN_SCOPING_KEY } from './bank-scope.js';

async function lookupIn(file: string): Promise<unknown> {
  try {
    const text = await fs.readFile(file, 'utf8');
    const data = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as unknown;
    const memory = data && typeof data === 'object' ? (data as { memory?: unknown }).memory : undefined;
    const retain = memory && typeof memory === 'object' ? (memory as { retain?: unknown }).retain : undefined;
    return retain && typeof retain === 'object' ? (retain as { scoping?: unknown }).scoping : undefined;
  } catch {
    return undefined; // missing or malformed files are the config loader's to report
  }
}

/**
 * The configured `memory.retain.scoping`, unvalidated (retain validates it and falls back with a
 * warning). Taken from the core's loaded config when it knows the key; otherwise read from the same
 * layers the core uses — user config < project config < environment (OHARNESS_MEMORY_RETAIN_SCOPING).
 */
export async function configuredRetainScoping(
  core: MemoryCore,
  env: Record<string, string | undefined> = process.env,
): Promise<unknown> {
  const fromCore = (core.config as { retain?: { scoping?: unknown } }).retain?.scoping;
  if (fromCore !== undefined) return fromCore;
  let value = await lookupIn(userConfigPath(core.home));
  if (core.project) {
    const projectValue = await lookupIn(projectConfigPath(core.project.root));
    if (projectValue !== undefined) value = projectValue;
  }
  const fromEnv = env[envNameForKey(RETAIN_SCOPING_KEY)];
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : value;
}
