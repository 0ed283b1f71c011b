import { promises as fs } from 'node:fs';
import path from 'node:path';
import { serializeNote } from '../../shared/note-format.js';
import type { Scope } from '../../shared/note.js';
import { writeFileAtomic } from '../memory/atomic-write.js';
import { SAMPLE_NOTES, type SampleNote } from './sample-notes.js';

const DAY = 24 * 60 * 60 * 1000;

export interface SeedDirs {
  /** `<project>/MEMORY` */
  projectMemoryDir: string;
  /** `$OHARNESS_HOME/memory/user` */
  userMemoryDir: string;
}

export function defaultSeedDirs(home: string, projectRoot: string): SeedDirs {
  return {
    projectMemoryDir: path.join(projectRoot, 'MEMORY'),
    userMemoryDir: path.join(home, 'memory', 'user'),
  };
}

async function writeNote(dir: string, n: SampleNote | GeneratedNote, now: number): Promise<void> {
  const { scope: _scope, createdDaysAgo, updatedDaysAgo, ...rest } = n;
  const note = { ...rest, createdAt: now - createdDaysAgo * DAY, updatedAt: now - updatedDaysAgo * DAY };
  await writeFileAtomic(path.join(dir, `${n.id}.md`), serializeNote(note));
}

/** Writes the sample notes as files, the way an agent would have left them. */
export async function seedSampleNotes(dirs: SeedDirs, now: number = Date.now()): Promise<number> {
  await fs.mkdir(dirs.projectMemoryDir, { recursive: true });
  await fs.mkdir(dirs.userMemoryDir, { recursive: true });
  for (const n of SAMPLE_NOTES)
    await writeNote(n.scope === 'project' ? dirs.projectMemoryDir : dirs.userMemoryDir, n, now);
  return SAMPLE_NOTES.length;
}

type GeneratedNote = SampleNote;

const TOPICS = [
  'pricing',
  'deploy',
  'auth',
  'search',
  'billing',
  'onboarding',
  'emails',
  'cache',
  'logging',
  'i18n',
  'checkout',
  'inventory',
];
const VERBS = ['prefers', 'avoids', 'requires', 'documents', 'tracks', 'caches', 'validates', 'retries'];
const ZH = ['缓存', '部署', '搜索', '登录', '账单', '日志'];

/** Many plausible notes for the UI benchmark (deterministic: the same count gives the same notes). */
export function generatedNotes(count: number, scope: Scope): GeneratedNote[] {
  const out: GeneratedNote[] = [];
  for (let i = 0; i < count; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    const verb = VERBS[(i * 7) % VERBS.length]!;
    const zh = i % 10 === 0 ? ` ${ZH[i % ZH.length]}` : '';
    out.push({
      scope,
      id: `${scope}-${topic}-${i.toString(36)}`,
      summary: `The ${topic} module ${verb} item ${i}${zh}`,
      type: (['user', 'feedback', 'project', 'reference'] as const)[i % 4],
      tags: [topic, `group-${i % 50}`],
      body: `Generated note ${i} about ${topic}. It ${verb} things; see [[${scope}-${TOPICS[(i + 1) % TOPICS.length]}-${(i + 1).toString(36)}]].\n`,
      createdDaysAgo: (i % 400) + 1,
      updatedDaysAgo: i % 400,
    });
  }
  return out;
}

export async function seedGeneratedNotes(
  dir: string,
  notes: readonly GeneratedNote[],
  now: number = Date.now(),
): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  // Plain parallel writes in batches: generating 10,000 files should take seconds, not minutes.
  for (let i = 0; i < notes.length; i += 200) {
    await Promise.all(notes.slice(i, i + 200).map((n) => writeNote(dir, n, now)));
  }
}
