import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A fresh directory under the OS temp dir, `memdesk-<name>-XXXXXX`, by its real path (macOS's
 * /var → /private/var would otherwise differ from what the core resolves). The one helper every
 * test harness re-exports.
 */
export async function tempDir(name = 'test'): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `memdesk-${name}-`)));
}
