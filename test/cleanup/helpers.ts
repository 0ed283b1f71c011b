import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Note, Scope } from '../../shared/note.js';
import { serializeNote } from '../../shared/note-format.js';
import { createMemoryCore } from '../../electron/memory/core.js';
import type { MemoryCore } from '../../electron/memory/types.js';
import { tempDir } from '../support/temp-dir.js';

export const DAY = 24 * 60 * 60 * 1000;
export const T0 = 1_790_000_000_000;

/** A settable clock for the core and the cleanup code. */
export class TestClock {
  constructor(public t = T0) {}
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface Sandbox {
  home: string;
  root: string;
  memoryDir: string;
  userDir: string;
  clock: TestClock;
  core: MemoryCore;
  /** Writes a note file directly (as an agent would) and reloads the stores. */
  put(scope: Scope, note: Partial<Note> & { id: string }): Promise<void>;
  /** Raw file text of a note, or null. */
  raw(scope: Scope, id: string): Promise<string | null>;
  reopen(env?: Record<string, string>): Promise<MemoryCore>;
  close(): Promise<void>;
}

export async function sandbox(env: Record<string, string> = {}): Promise<Sandbox> {
  const base = await tempDir('cleanup');
  const home = path.join(base, 'home');
  const root = path.join(base, 'project');
  await fs.mkdir(path.join(root, 'MEMORY'), { recursive: true });
  await fs.mkdir(path.join(home, 'memory', 'user'), { recursive: true });
  const clock = new TestClock();
  const open = (e: Record<string, string>): Promise<MemoryCore> =>
    createMemoryCore({ home, projectRoot: root, now: clock.now, env: e });
  const sb: Sandbox = {
    home,
    root,
    memoryDir: path.join(root, 'MEMORY'),
    userDir: path.join(home, 'memory', 'user'),
    clock,
    core: await open(env),
    async put(scope, partial) {
      const note: Note = {
        summary: partial.summary ?? partial.id,
        tags: partial.tags ?? [],
        createdAt: partial.createdAt ?? clock.t,
        updatedAt: partial.updatedAt ?? partial.createdAt ?? clock.t,
        body: partial.body ?? '',
        ...partial,
      };
      const dir = scope === 'project' ? sb.memoryDir : sb.userDir;
      await fs.writeFile(path.join(dir, `${note.id}.md`), serializeNote(note));
      await sb.core.store(scope)!.load();
    },
    async raw(scope, id) {
      const dir = scope === 'project' ? sb.memoryDir : sb.userDir;
      return fs.readFile(path.join(dir, `${id}.md`), 'utf8').catch(() => null);
    },
    async reopen(e = env) {
      await sb.core.close();
      sb.core = await open(e);
      return sb.core;
    },
    async close() {
      await sb.core.close();
      await fs.rm(base, { recursive: true, force: true });
    },
  };
  return sb;
}

/** Every file under a directory with its content (to assert nothing changed). */
export async function snapshotDir(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await fs.readdir(dir).catch(() => [])).sort()) {
    const p = path.join(dir, name);
    if ((await fs.stat(p)).isFile()) out[name] = await fs.readFile(p, 'utf8');
  }
  return out;
}
