import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppEvent } from '../../shared/events.js';
import { serializeNote } from '../../shared/note-format.js';
import type { Note } from '../../shared/note.js';
import { createMemoryCore } from '../../electron/memory/core.js';
import { createNotesService } from '../../electron/memory/notes-service.js';
import type { CoreOptions, MemoryCore, NotesService } from '../../electron/memory/types.js';
import { tempDir } from '../support/temp-dir.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** `node --import <this> file.ts` runs TypeScript in child processes without a build. */
export const tsxLoader = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

export { tempDir };

/** A clock tests move by hand. */
export function manualClock(start = 1_790_000_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

export interface Fixture {
  home: string;
  root: string;
  memoryDir: string;
  userDir: string;
  events: AppEvent[];
  clock: ReturnType<typeof manualClock>;
  open(extra?: Partial<CoreOptions>): Promise<{ core: MemoryCore; notes: NotesService }>;
}

export async function fixture(): Promise<Fixture> {
  const base = await tempDir();
  const home = path.join(base, 'home');
  const root = path.join(base, 'project');
  await fs.mkdir(root, { recursive: true });
  const events: AppEvent[] = [];
  const clock = manualClock();
  const opened: MemoryCore[] = [];
  const fx: Fixture = {
    home,
    root,
    memoryDir: path.join(root, 'MEMORY'),
    userDir: path.join(home, 'memory', 'user'),
    events,
    clock,
    async open(extra = {}) {
      const core = await createMemoryCore({
        home,
        projectRoot: root,
        now: clock.now,
        emit: (e) => events.push(e),
        env: {},
        ...extra,
      });
      opened.push(core);
      return { core, notes: createNotesService(core) };
    },
  };
  return fx;
}

export function note(id: string, over: Partial<Note> = {}): Note {
  return {
    id,
    summary: `summary of ${id}`,
    tags: [],
    createdAt: 1_780_000_000_000,
    updatedAt: 1_780_000_000_000,
    body: `body of ${id}\n`,
    ...over,
  };
}

export async function writeNoteFile(dir: string, n: Note, name = `${n.id}.md`): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await fs.writeFile(file, serializeNote(n));
  return file;
}

/** Every file under dir with its bytes: to assert nothing was lost or rewritten. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string): Promise<void> => {
    for (const e of await fs.readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out[path.relative(dir, p)] = await fs.readFile(p, 'utf8');
    }
  };
  await walk(dir);
  return out;
}

/** Waits for a condition; generous because CI runs the suite on two loaded cores. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
