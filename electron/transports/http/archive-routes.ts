import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApiOutput } from '../../../shared/api.js';
import { OnCollisionSchema } from '../../../shared/api/agents.js';
import { AppError } from '../../../shared/errors.js';
import { ScopeSchema } from '../../../shared/note.js';
import { exportFileName, type ArchiveOutcome } from '../../../shared/note-archives.js';
import { invokeApi, type ApiHandlers } from '../../api/dispatch.js';

/**
 * The web page's export / import of a scope as a zip (shared/note-archives.ts): the browser
 * downloads the bytes of an export and uploads the bytes of the file the person picked, so no path
 * ever comes from the page. Both go through agents.export / agents.import on a private temporary
 * file (mode 0600 in its own directory, removed afterwards), with the same checks as the CLI.
 */
export interface ArchiveExchange {
  exportZip(scope: unknown): Promise<{ fileName: string; notes: number; bytes: Buffer }>;
  importZip(query: { scope: unknown; onCollision: unknown; fileName: unknown }, bytes: Buffer): Promise<ArchiveOutcome>;
}

async function inTempDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `memdesk-archive-${randomBytes(4).toString('hex')}-`));
  try {
    return await run(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function parsed<T>(schema: { safeParse(x: unknown): { success: true; data: T } | { success: false } }, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new AppError('invalid_input', `${what}: ${JSON.stringify(value)} is not one of the choices`);
  return r.data;
}

export function archiveExchange(handlers: () => ApiHandlers, now: () => number): ArchiveExchange {
  return {
    exportZip: (rawScope) =>
      inTempDir(async (dir) => {
        const scope = parsed(ScopeSchema, rawScope, 'scope');
        const fileName = exportFileName(scope, now());
        const out = path.join(dir, fileName);
        const done = (await invokeApi(handlers(), 'agents.export', { scope, out })) as ApiOutput<'agents.export'>;
        return { fileName, notes: done.notes, bytes: await fs.readFile(out) };
      }),
    importZip: (query, bytes) =>
      inTempDir(async (dir) => {
        const scope = parsed(ScopeSchema, query.scope, 'scope');
        const onCollision = parsed(OnCollisionSchema, query.onCollision ?? 'skip', 'onCollision');
        const file = path.join(dir, 'upload.zip');
        await fs.writeFile(file, bytes, { mode: 0o600 });
        const result = (await invokeApi(handlers(), 'agents.import', {
          file,
          scope,
          onCollision,
        })) as ApiOutput<'agents.import'>;
        // The name the person picked is only shown back to them, never used as a path.
        const name = typeof query.fileName === 'string' && query.fileName ? path.basename(query.fileName) : 'upload.zip';
        return { op: 'import', file: name, result };
      }),
  };
}
