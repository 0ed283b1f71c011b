import { z } from 'zod';
import { AppError } from '../../shared/errors.js';
import { insecureUrlProblem } from '../../shared/secure-url.js';
import { readFileOrNull, writeFileAtomic } from './atomic-file.js';

/** `$OHARNESS_HOME/cloud.json`: where the sync server is. No secrets. Unknown keys are kept. */
export const CloudConfigSchema = z.looseObject({ url: z.string().url().optional() });

/** The cloud origin (scheme://host[:port]) the scopes bind to, normalised. */
export function normalizeOrigin(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AppError('invalid_input', `"${url}" is not a URL (expected e.g. https://sync.example.com)`);
  }
  // The sync token goes to this origin: http:// only to this machine.
  const problem = insecureUrlProblem(parsed);
  if (problem) throw new AppError('invalid_input', problem);
  return parsed.origin;
}

export async function readCloudUrl(file: string): Promise<string | null> {
  const text = await readFileOrNull(file);
  if (text === null || text.trim() === '') return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new AppError('io_error', `${file} is not valid JSON; fix or remove it to sync`);
  }
  const parsed = CloudConfigSchema.safeParse(data);
  if (!parsed.success) throw new AppError('io_error', `${file}: "url" must be a URL`);
  return parsed.data.url ?? null;
}

export async function writeCloudUrl(file: string, url: string | null): Promise<void> {
  const text = await readFileOrNull(file);
  let data: Record<string, unknown> = {};
  if (text !== null && text.trim() !== '') {
    try {
      data = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new AppError('io_error', `${file} is not valid JSON; fix or remove it first`);
    }
  }
  if (url === null) delete data.url;
  else data.url = url;
  await writeFileAtomic(file, JSON.stringify(data, null, 2) + '\n');
}
