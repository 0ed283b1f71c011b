import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { unlessMissing } from '../../memory/unexpected-error.js';

/** A note directory as processes of one home name it to each other. */
export const SyncDirectorySchema = z.object({
  /** The note directory (the scheduler's key: its resolved path). */
  key: z.string(),
  scope: z.enum(['user', 'project']),
  /** For a project directory: the project, so an owner that has not opened it can open it. */
  projectRoot: z.string().optional(),
});
export type SyncDirectory = z.infer<typeof SyncDirectorySchema>;

const SyncRequestSchema = SyncDirectorySchema.extend({
  /** Who asked (diagnostics). */
  pid: z.number().int(),
});
export type SyncRequest = z.infer<typeof SyncRequestSchema>;

/**
 * Nudges from processes that wrote notes without owning sync: one file per note directory under
 * memory-sync/owner/requests/, written whole (temp + rename), so a burst of writes is one file.
 * The owner takes a file by renaming it first: a nudge written after that is a new file, never lost.
 */
export function writeRequest(dir: string, request: SyncRequest): void {
  const name = createHash('sha256').update(request.key).digest('hex').slice(0, 24);
  writeWhole(dir, name, request);
}

/** Takes every waiting nudge (each removed as it is read); unreadable ones are dropped. */
export function takeRequests(dir: string): SyncRequest[] {
  return takeAll(dir, SyncRequestSchema, 'sync requests');
}

/** Writes `<dir>/<name>.json` whole: aside, then renamed into place. */
export function writeWhole(dir: string, name: string, data: unknown): void {
  mkdirSync(dir, { recursive: true });
  const temp = path.join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  writeFileSync(temp, JSON.stringify(data));
  renameSync(temp, path.join(dir, `${name}.json`));
}

/**
 * Takes every `*.json` file of the directory: each is renamed first (so two readers never take
 * the same one, and one written after that is a new file), then read and removed. Files that do
 * not parse as `schema` are dropped: they ask for nothing we can name.
 */
export function takeAll<T>(dir: string, schema: z.ZodType<T>, what: string): T[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch (err) {
    unlessMissing(err, `${what}: list`); // missing: nobody has asked yet
    return [];
  }
  const out: T[] = [];
  for (const name of names) {
    const taking = path.join(dir, `.${name}.taking.${process.pid}.${randomBytes(4).toString('hex')}`);
    try {
      renameSync(path.join(dir, name), taking);
    } catch (err) {
      unlessMissing(err, `${what}: take`);
      continue; // taken by another reader, or gone
    }
    try {
      const parsed = schema.safeParse(JSON.parse(readFileSync(taking, 'utf8')));
      if (parsed.success) out.push(parsed.data);
    } catch {
      // Damaged: nothing to serve; the owner's regular checks still run.
    } finally {
      unlinkSync(taking);
    }
  }
  return out;
}
