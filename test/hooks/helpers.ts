import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * A hook input from the fixtures (real shapes from each harness's docs and source), with `$CWD` and
 * `$TRANSCRIPT` put in and fields changed as a test needs.
 */
export async function fixture(
  harness: string,
  event: string,
  vars: { cwd: string; transcript?: string },
  change: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const all = JSON.parse(await fs.readFile(path.join(here, 'fixtures', `${harness}.json`), 'utf8')) as Record<
    string,
    Record<string, unknown>
  >;
  const text = JSON.stringify(all[event])
    .replaceAll('"$CWD"', JSON.stringify(vars.cwd))
    .replaceAll('"$TRANSCRIPT"', JSON.stringify(vars.transcript ?? path.join(vars.cwd, 'transcript.jsonl')));
  return { ...(JSON.parse(text) as Record<string, unknown>), ...change };
}
