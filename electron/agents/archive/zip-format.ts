import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { strToU8, strFromU8, zipSync, type Zippable } from 'fflate';
import { z } from 'zod';
import { ScopeSchema, type Scope } from '../../../shared/note.js';
import { noteIdProblem } from '../../../shared/note-id.js';
import { inflateEntry, listZipEntries, type ZipEntryInfo } from './zip-reader.js';

/**
 * The export archive (docs/agents.md, "Export and import"): a zip with
 *   memdesk-export.json   {format: "memdesk-notes", version: 1, scope, exportedAt, notes: [{file, sha256, bytes}]}
 *   notes/<id>.md         each note file exactly as it was on disk (BOM, CRLF and key order untouched)
 * Reading refuses anything else, path traversal, oversized entries (zip bombs) and too many entries.
 */
export const MANIFEST_NAME = 'memdesk-export.json';
export const NOTES_PREFIX = 'notes/';

export const ARCHIVE_LIMITS = {
  /** The zip file itself. */
  maxArchiveBytes: 512 * 1024 * 1024,
  /** Entries in the central directory (a scope holds at most memory.maxNotes, 5000 by default). */
  maxEntries: 20_000,
  /** One entry, uncompressed (a note's body is at most memory.maxNoteBytes, 128 KiB by default). */
  maxEntryBytes: 4 * 1024 * 1024,
  /** All entries together, uncompressed. */
  maxTotalBytes: 256 * 1024 * 1024,
};
export type ArchiveLimits = typeof ARCHIVE_LIMITS;

export const ManifestSchema = z.object({
  format: z.literal('memdesk-notes'),
  version: z.literal(1),
  scope: ScopeSchema,
  exportedAt: z.number(),
  notes: z.array(z.object({ file: z.string(), sha256: z.string(), bytes: z.number().int().nonnegative() })),
});
export type Manifest = z.infer<typeof ManifestSchema>;

export interface ArchiveNote {
  /** The id from the entry name `notes/<id>.md`. */
  id: string;
  entry: string;
  bytes: Uint8Array;
}

export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

export function buildArchive(
  scope: Scope,
  notes: ReadonlyArray<{ id: string; bytes: Uint8Array }>,
  exportedAt: number,
): Uint8Array {
  const manifest: Manifest = {
    format: 'memdesk-notes',
    version: 1,
    scope,
    exportedAt,
    notes: notes.map((n) => ({
      file: `${NOTES_PREFIX}${n.id}.md`,
      sha256: sha256Hex(n.bytes),
      bytes: n.bytes.length,
    })),
  };
  const files: Zippable = { [MANIFEST_NAME]: strToU8(JSON.stringify(manifest, null, 2)) };
  for (const n of notes) files[`${NOTES_PREFIX}${n.id}.md`] = n.bytes;
  // Zip timestamps (DOS format) only cover 1980–2099; the manifest keeps the exact time.
  const mtime = new Date(Math.min(Math.max(exportedAt, Date.UTC(1980, 0, 2)), Date.UTC(2099, 11, 30)));
  return zipSync(files, { level: 6, mtime });
}

/** Why an entry name is not a note this archive may carry, or null when it is `notes/<valid id>.md`. */
export function entryProblem(name: string): string | null {
  if (
    name.includes('\\') ||
    name.startsWith('/') ||
    /^[A-Za-z]:/.test(name) ||
    name.split('/').some((p) => p === '..' || p === '.')
  ) {
    return 'refused: the path leaves the archive (absolute path or "..")';
  }
  if (
    !name.startsWith(NOTES_PREFIX) ||
    !name.endsWith('.md') ||
    name.slice(NOTES_PREFIX.length).includes('/')
  ) {
    return 'refused: not a note (only notes/<id>.md and memdesk-export.json belong in an export)';
  }
  const id = name.slice(NOTES_PREFIX.length, -3);
  const problem = noteIdProblem(id);
  return problem ? `refused: not a valid note id (${problem})` : null;
}

export interface ReadArchiveResult {
  manifest: Manifest | null;
  notes: ArchiveNote[];
  refused: Array<{ entry: string; reason: string }>;
  /** Bytes the inflater produced, accepted or not: the work this archive cost. */
  inflatedBytes: number;
}

/**
 * Reads an archive. Entry names and declared sizes are checked against the central directory
 * before anything is inflated; inflating then stops at each entry's declared size and at the
 * archive's total budget (zip-reader.ts), so a zip bomb costs at most the limits above. Notes whose
 * bytes do not match the manifest's sha256 are refused as damaged.
 */
export function readArchive(data: Uint8Array, limits: ArchiveLimits = ARCHIVE_LIMITS): ReadArchiveResult {
  if (data.length > limits.maxArchiveBytes) {
    throw new Error(`the archive is larger than ${limits.maxArchiveBytes} bytes`);
  }
  const refused: ReadArchiveResult['refused'] = [];
  let entries: ZipEntryInfo[];
  try {
    entries = listZipEntries(data, limits.maxEntries);
  } catch (err) {
    throw new Error(`not a readable zip archive: ${(err as Error).message}`, { cause: err });
  }
  const files = new Map<string, Uint8Array>();
  let counted = 0;
  let declaredTotal = 0;
  let inflatedBytes = 0;
  for (const file of entries) {
    if (file.name.endsWith('/') && file.declaredSize === 0) continue; // a directory entry
    counted++;
    if (counted > limits.maxEntries) {
      refused.push({
        entry: file.name,
        reason: `refused: more than ${limits.maxEntries} entries; the rest are not read`,
      });
      break;
    }
    if (file.name !== MANIFEST_NAME) {
      const problem = entryProblem(file.name);
      if (problem) {
        refused.push({ entry: file.name, reason: problem });
        continue;
      }
    }
    if (files.has(file.name)) {
      refused.push({ entry: file.name, reason: 'refused: the archive holds this entry twice' });
      continue;
    }
    if (file.declaredSize > limits.maxEntryBytes) {
      refused.push({
        entry: file.name,
        reason: `refused: ${file.declaredSize} bytes uncompressed, over the ${limits.maxEntryBytes}-byte limit per entry (zip bomb?)`,
      });
      continue;
    }
    if (declaredTotal + file.declaredSize > limits.maxTotalBytes) {
      refused.push({
        entry: file.name,
        reason: `refused: the archive would inflate to more than ${limits.maxTotalBytes} bytes (zip bomb?)`,
      });
      continue;
    }
    declaredTotal += file.declaredSize;
    const out = inflateEntry(data, file, limits.maxTotalBytes - inflatedBytes);
    inflatedBytes += out.inflated;
    if (out.ok) files.set(file.name, out.bytes);
    else refused.push({ entry: file.name, reason: out.reason });
  }
  let manifest: Manifest | null = null;
  const manifestBytes = files.get(MANIFEST_NAME);
  if (manifestBytes) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(strFromU8(manifestBytes));
    } catch {
      parsed = null; // not JSON: refused below as a damaged manifest
    }
    const result = ManifestSchema.safeParse(parsed);
    if (result.success) manifest = result.data;
    else
      refused.push({
        entry: MANIFEST_NAME,
        reason: 'refused: not a Memory Desk export manifest; note checksums are not checked',
      });
  }
  const expected = new Map((manifest?.notes ?? []).map((n) => [n.file, n.sha256]));
  const notes: ArchiveNote[] = [];
  for (const [entry, bytes] of files) {
    if (entry === MANIFEST_NAME) continue;
    const sum = expected.get(entry);
    if (manifest && sum !== undefined && sum !== sha256Hex(bytes)) {
      refused.push({ entry, reason: 'refused: damaged (its bytes do not match the sha256 in the manifest)' });
      continue;
    }
    notes.push({ id: entry.slice(NOTES_PREFIX.length, -3), entry, bytes });
  }
  notes.sort((a, b) => (a.entry < b.entry ? -1 : a.entry > b.entry ? 1 : 0));
  return { manifest, notes, refused, inflatedBytes };
}
