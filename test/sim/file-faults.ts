import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { HeldReason } from '../../shared/held-note.js';

/**
 * Faults of a notes folder that leave a note's file on disk but not loaded ("held", issue 11): a
 * person (an editor, a script) breaks the file by hand and puts it right a few steps later. The
 * expected outcome of each: the engine pushes nothing and pulls nothing for the note while it is
 * held, reports it with `reason`, and never reads it as a deletion; once fixed it syncs as before.
 *
 * To add a fault: one entry here (the simulation picks among them by its random stream, so a new
 * entry changes which fault a seed draws, not the seeds' replayability from the same code).
 * Faults of another kind have their own step in simulation.ts: the case twin, the identical twin,
 * a lowered `memory.maxNotes`, crashes, server faults (see `SIM_FAULTS` there).
 */
export interface FileFault {
  name: string;
  reason: HeldReason;
  /** Breaks `file` (whose text was `text`); `aside` is a free path outside the notes folder. */
  apply(file: string, text: string, aside: string): Promise<void>;
}

export const FILE_FAULTS: readonly FileFault[] = [
  {
    // A slip in an editor: a stray word in the JSON frontmatter.
    name: 'malformed frontmatter',
    reason: 'unreadable',
    apply: (file, text) => fs.writeFile(file, text.replace('"summary"', '"summary" oops')),
  },
  {
    // An editor that crashed while saving: the first bytes only.
    name: 'truncated file',
    reason: 'unreadable',
    apply: (file, text) => fs.writeFile(file, text.slice(0, 17)),
  },
  {
    // A body pasted in by hand, over memory.maxNoteBytes (128 KiB of body).
    name: 'body over the size limit',
    reason: 'too_large',
    apply: (file, text) => fs.writeFile(file, `${text}${'pasted log line\n'.repeat(9000)}`),
  },
  {
    // The file moved elsewhere and linked back: links are never followed.
    name: 'symbolic link',
    reason: 'symlink',
    apply: async (file, _text, aside) => {
      await fs.mkdir(path.dirname(aside), { recursive: true });
      await fs.rename(file, aside);
      await fs.symlink(aside, file);
    },
  },
];

/** The person puts the file back as it was. */
export async function restoreFile(file: string, text: string): Promise<void> {
  await fs.rm(file, { force: true });
  await fs.writeFile(file, text);
}
