import fs from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { contentHash } from '../../../shared/content-hash.js';
import type { ImportZipOutputSchema, OnCollisionSchema } from '../../../shared/api/agents.js';
import { AppError } from '../../../shared/errors.js';
import { parseNote } from '../../../shared/note-format.js';
import {
  fitBytes,
  MAX_NOTE_ID_BYTES,
  MAX_NOTE_ID_LENGTH,
  noteIdKey,
  noteIdProblem,
} from '../../../shared/note-id.js';
import type { Scope } from '../../../shared/note.js';
import { isTempFileName, writeFileAtomic } from '../../memory/atomic-write.js';
import { credentialsMessage, findCredentials } from '../../memory/credentials.js';
import type { MemoryCore, NoteStore } from '../../memory/types.js';
import { runImportTask, type WorkerRunOptions } from '../import-worker/run-in-worker.js';
import { ARCHIVE_LIMITS, buildArchive, type ArchiveLimits, type ReadArchiveResult } from './zip-format.js';
import { missingOr } from '../../memory/unexpected-error.js';

type ImportResult = z.infer<typeof ImportZipOutputSchema>;
type OnCollision = z.infer<typeof OnCollisionSchema>;

function storeOf(core: MemoryCore, scope: Scope): NoteStore {
  const store = core.store(scope);
  if (!store)
    throw new AppError(
      'unavailable',
      `the ${scope} notes directory is not available${scope === 'project' ? ': open or register a project first' : ''}`,
    );
  return store;
}

/**
 * Writes every note file of a scope (every `<valid id>.md` in its directory, loaded or not) into a
 * zip, byte for byte. The zip is written atomically; an existing file is never replaced.
 */
export async function exportScope(
  core: MemoryCore,
  input: { scope: Scope; out: string },
): Promise<{ path: string; scope: Scope; notes: number; bytes: number }> {
  const store = storeOf(core, input.scope);
  const out = path.resolve(input.out);
  if (await fs.stat(out).catch(missingOr(null, 'export: stat'))) {
    throw new AppError(
      'refused',
      `${out} already exists; choose another file name (an export never replaces a file)`,
    );
  }
  const names = (await fs.readdir(store.dir))
    .filter((n) => n.endsWith('.md') && !isTempFileName(n) && noteIdProblem(n.slice(0, -3)) === null)
    .sort();
  const notes: Array<{ id: string; bytes: Uint8Array }> = [];
  for (const name of names) {
    const file = path.join(store.dir, name);
    const stat = await fs.stat(file).catch(missingOr(null, 'export: stat note')); // removed since listed
    if (!stat?.isFile()) continue;
    notes.push({ id: name.slice(0, -3), bytes: new Uint8Array(await fs.readFile(file)) });
  }
  const zip = buildArchive(input.scope, notes, core.now());
  try {
    await writeFileAtomic(out, zip);
  } catch (err) {
    throw new AppError('io_error', `could not write ${out}: ${(err as Error).message}`);
  }
  return { path: out, scope: input.scope, notes: notes.length, bytes: zip.length };
}

function keepBothId(id: string, taken: (id: string) => boolean): string {
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const base = fitBytes(id.slice(0, MAX_NOTE_ID_LENGTH - suffix.length), MAX_NOTE_ID_BYTES - suffix.length);
    const candidate = `${base}${suffix}`;
    if (!taken(candidate) && noteIdProblem(candidate) === null) return candidate;
  }
}

/**
 * Imports the notes of an export zip into a scope. A note whose id is free is written with exactly
 * the archive's bytes (atomically, under the directory lock). When the id is taken: identical content
 * is skipped; otherwise `skip` leaves the existing note alone and `keep-both` writes the imported one
 * under `<id>-2` (its frontmatter id changes, so that file is no longer byte-identical).
 */
export interface ArchiveImportOptions extends WorkerRunOptions {
  limits?: ArchiveLimits;
}

export async function importArchive(
  core: MemoryCore,
  input: { file: string; scope: Scope; onCollision: OnCollision },
  opts: ArchiveImportOptions = {},
): Promise<ImportResult> {
  const limits = opts.limits ?? ARCHIVE_LIMITS;
  const store = storeOf(core, input.scope);
  const file = path.resolve(input.file);
  const stat = await fs.stat(file).catch(missingOr(null, 'import: stat'));
  if (!stat?.isFile()) throw new AppError('not_found', `${file} is not a file`);
  if (stat.size > limits.maxArchiveBytes)
    throw new AppError('refused', `${file} is larger than ${limits.maxArchiveBytes} bytes`);
  // Read (inflate, checksum) in a worker with a budget; nothing is written until it has finished.
  let archive: ReadArchiveResult;
  try {
    archive = await runImportTask({ kind: 'zip', file, limits }, opts);
  } catch (err) {
    throw new AppError('invalid_input', `${file}: ${(err as Error).message}; nothing was imported`);
  }
  const result: ImportResult = {
    scope: input.scope,
    imported: [],
    skipped: [],
    refused: [...archive.refused],
  };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const writtenKeys = new Set<string>();
  const taken = (id: string): boolean => store.get(id) !== undefined || writtenKeys.has(noteIdKey(id));
  let rawWrites = 0;
  for (const [i, entry] of archive.notes.entries()) {
    if (opts.signal?.aborted) {
      // Every write so far is whole (atomic); the rest are reported, none half-written.
      for (const rest of archive.notes.slice(i))
        result.skipped.push({ entry: rest.entry, reason: 'cancelled: not imported' });
      break;
    }
    let text: string;
    try {
      text = decoder.decode(entry.bytes);
    } catch {
      result.refused.push({ entry: entry.entry, reason: 'refused: not UTF-8 text' });
      continue;
    }
    const parsed = parseNote(text);
    if (!parsed.ok) {
      result.refused.push({ entry: entry.entry, reason: `refused: not a note (${parsed.reason})` });
      continue;
    }
    const note = parsed.note;
    // The whole file is checked, frontmatter included: unknown keys are kept byte for byte.
    const credentials = await findCredentials(text);
    if (credentials.length > 0) {
      result.refused.push({
        entry: entry.entry,
        reason: `refused: ${credentialsMessage(credentials.map((f) => ({ ...f, field: 'the file' })))}`,
      });
      continue;
    }
    if (note.id !== entry.id) {
      result.refused.push({
        entry: entry.entry,
        reason: `refused: its frontmatter id "${note.id}" differs from the file name`,
      });
      continue;
    }
    // This store's own limits (the user config's for the user scope, never a project's): raw writes
    // bypass the store's checks, and a body over its maxNoteBytes would be written but never loaded.
    // Written files are not in fileCount() until the load at the end.
    if (new TextEncoder().encode(note.body).length > store.maxNoteBytes) {
      result.refused.push({
        entry: entry.entry,
        reason: `refused: the body is larger than memory.maxNoteBytes (${store.maxNoteBytes})`,
      });
      continue;
    }
    if (store.fileCount() + rawWrites >= store.maxNotes) {
      result.refused.push({
        entry: entry.entry,
        reason: `refused: the ${input.scope} scope is full (memory.maxNotes)`,
      });
      continue;
    }
    try {
      if (!taken(note.id)) {
        const target = path.join(store.dir, `${note.id}.md`);
        // The notes folder may not exist yet (a project cloned without MEMORY/): created as for write().
        const wrote = await store.withDirCreatedAndLocked(async () => {
          // Re-checked under the lock: another process may have written the id meanwhile.
          const names = await fs.readdir(store.dir);
          if (names.some((n) => noteIdKey(n) === noteIdKey(`${note.id}.md`))) return false;
          await writeFileAtomic(target, entry.bytes);
          return true;
        });
        if (wrote) {
          rawWrites++;
          writtenKeys.add(noteIdKey(note.id));
          result.imported.push({ id: note.id });
          continue;
        }
        await store.load();
      }
      const existing = store.get(note.id);
      if (existing && existing.hash === contentHash(note)) {
        result.skipped.push({
          entry: entry.entry,
          reason: `an identical note "${existing.id}" is already there`,
        });
        continue;
      }
      if (input.onCollision === 'skip') {
        result.skipped.push({
          entry: entry.entry,
          reason: `a different note with the id "${existing?.id ?? note.id}" exists (use --on-collision keep-both to import it under a new id)`,
        });
        continue;
      }
      const id = keepBothId(note.id, taken);
      const now = core.now();
      await store.write(
        { ...note, id, createdAt: note.createdAt ?? now, updatedAt: note.updatedAt ?? now },
        { expectedHash: null },
      );
      writtenKeys.add(noteIdKey(id));
      result.imported.push({ id, renamedFrom: note.id });
    } catch (err) {
      result.refused.push({ entry: entry.entry, reason: `failed: ${(err as Error).message}` });
    }
  }
  if (rawWrites > 0) await store.load();
  return result;
}
