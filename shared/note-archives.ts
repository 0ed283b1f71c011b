import { z } from 'zod';
import { ImportZipOutputSchema, OnCollisionSchema } from './api/agents.js';
import { ScopeSchema } from './note.js';

/**
 * Export and import of a scope's notes as a zip from a page. A page never names a file path (the
 * API's agents.export / agents.import take one and are refused for pages: docs/security.md): in the
 * desktop app main asks the person with the system's file dialog (ARCHIVE_CHANNEL,
 * electron/transports/ipc/archive-dialogs.ts); the web bridge takes the zip's bytes and hands one
 * back as a download (electron/transports/http/archive-routes.ts). The renderer uses one interface
 * for both (renderer/api/note-archives.ts).
 */
export const ARCHIVE_CHANNEL = 'memory-desk:archive';

/** What a page may ask for: which scope, and for import what to do with a taken id. No path. */
export const ArchiveRequestSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('export'), scope: ScopeSchema }).strict(),
  z.object({ op: z.literal('import'), scope: ScopeSchema, onCollision: OnCollisionSchema }).strict(),
]);
export type ArchiveRequest = z.infer<typeof ArchiveRequestSchema>;

export const ArchiveOutcomeSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('cancelled') }),
  z.object({
    op: z.literal('export'),
    /** The file's name (the desktop: where it was saved; the web: the download's name). */
    file: z.string(),
    notes: z.number().int().nonnegative(),
  }),
  z.object({ op: z.literal('import'), file: z.string(), result: ImportZipOutputSchema }),
]);
export type ArchiveOutcome = z.infer<typeof ArchiveOutcomeSchema>;

/** The name an export is offered under: `memory-desk-project-2026-11-30.zip`. */
export function exportFileName(scope: 'project' | 'user', now: number): string {
  return `memory-desk-${scope}-${new Date(now).toISOString().slice(0, 10)}.zip`;
}
