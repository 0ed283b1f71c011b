import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from '../../shared/zod-mini.js';
import { AppError } from '../../shared/errors.js';
import { ScopeSchema } from '../../shared/note.js';
import { parseNote } from '../../shared/note-format.js';
import { writeFileAtomic } from './atomic-write.js';
import type { BackupEntry, BackupInput, BackupStore } from './types.js';
import { missingOr } from './unexpected-error.js';

/**
 * `$OHARNESS_HOME/memory-backups/`: each backup is `<backupId>.md` (the file exactly as it was) and
 * `<backupId>.json` (noteId, scope, summary, reason, originDir, at). A bare `.md` without a sidecar
 * is a backup written before reasons were recorded: it is listed with reason/origin null, its time
 * taken from the file's mtime, and restorable like any other.
 */
export const BackupSidecarSchema = z.object({
  version: z.literal(1),
  noteId: z.string(),
  scope: z.nullable(ScopeSchema),
  summary: z.nullable(z.string()),
  reason: z.string(),
  originDir: z.string(),
  at: z.number(),
});

export function backupsDir(home: string): string {
  return path.join(home, 'memory-backups');
}

/** Backup ids are file names: they sort by time and say which note they hold. */
function newBackupId(at: number, noteId: string): string {
  const stamp = new Date(at).toISOString().replace(/[-:]/g, '').replace('.', '');
  return `${stamp}-${noteId}-${randomBytes(3).toString('hex')}`;
}

function checkBackupId(id: string): void {
  if (!id || id.includes('/') || id.includes('\\') || id.startsWith('.') || id.includes('\0')) {
    throw new AppError('invalid_input', `"${id}" is not a backup id (see the backups list)`);
  }
}

export function createBackupStore(home: string, now: () => number): BackupStore {
  const dir = backupsDir(home);
  let lastAt = 0;

  async function backup(input: BackupInput): Promise<BackupEntry> {
    // Strictly increasing within a process, so two backups in one millisecond list in write order.
    const at = Math.max(now(), lastAt + 1);
    lastAt = at;
    const id = newBackupId(at, input.noteId);
    const file = path.join(dir, `${id}.md`);
    const sidecar: z.infer<typeof BackupSidecarSchema> = {
      version: 1,
      noteId: input.noteId,
      scope: input.scope,
      summary: input.summary ?? null,
      reason: input.reason,
      originDir: input.originDir,
      at,
    };
    try {
      await fs.mkdir(dir, { recursive: true });
      // The copy first: should the sidecar fail, the copy still lists as a reason-less backup.
      await writeFileAtomic(file, input.content);
      await writeFileAtomic(path.join(dir, `${id}.json`), JSON.stringify(sidecar, null, 2) + '\n');
    } catch (err) {
      throw new AppError(
        'io_error',
        `cannot write a backup to ${dir} (${(err as Error).message}); nothing was changed`,
      );
    }
    return {
      id,
      noteId: input.noteId,
      scope: input.scope,
      summary: sidecar.summary,
      reason: input.reason,
      at,
      originDir: input.originDir,
      path: file,
    };
  }

  async function readEntry(id: string, withLegacyDetails: boolean): Promise<BackupEntry | null> {
    const file = path.join(dir, `${id}.md`);
    const sidecarText = await fs
      .readFile(path.join(dir, `${id}.json`), 'utf8')
      .catch(missingOr(null, 'backups: sidecar'));
    if (sidecarText !== null) {
      try {
        const side = BackupSidecarSchema.parse(JSON.parse(sidecarText));
        return {
          id,
          noteId: side.noteId,
          scope: side.scope,
          summary: side.summary,
          reason: side.reason,
          at: side.at,
          originDir: side.originDir,
          path: file,
        };
      } catch {
        // A damaged sidecar: fall back to what the copy itself says.
      }
    }
    const st = await fs.stat(file).catch(missingOr(null, 'backups: stat'));
    if (!st?.isFile()) return null;
    const entry: BackupEntry = {
      id,
      noteId: id,
      scope: null,
      summary: null,
      reason: null,
      at: Math.round(st.mtimeMs),
      originDir: null,
      path: file,
    };
    if (withLegacyDetails) {
      const parsed = parseNote(await fs.readFile(file, 'utf8').catch(missingOr('', 'backups: read')));
      if (parsed.ok) {
        entry.noteId = parsed.note.id;
        entry.summary = parsed.note.summary;
      }
    }
    return entry;
  }

  async function list(limit = 50): Promise<BackupEntry[]> {
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new AppError('io_error', `cannot read ${dir}: ${(err as Error).message}`);
    }
    const ids = names.filter((n) => n.endsWith('.md') && !n.startsWith('.')).map((n) => n.slice(0, -3));
    const entries = (await Promise.all(ids.map((id) => readEntry(id, false)))).filter(
      (e): e is BackupEntry => e !== null,
    );
    entries.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
    const latest = entries.slice(0, limit);
    // Reason-less backups name their note inside the file: read only the ones shown.
    return Promise.all(
      latest.map(async (e) => (e.reason === null ? ((await readEntry(e.id, true)) ?? e) : e)),
    );
  }

  async function get(backupId: string): Promise<{ entry: BackupEntry; content: string }> {
    checkBackupId(backupId);
    const entry = await readEntry(backupId, true);
    if (!entry) throw new AppError('not_found', `no backup "${backupId}" in ${dir}`);
    const content = await fs.readFile(entry.path, 'utf8');
    return { entry, content };
  }

  return { dir, backup, list, get };
}
