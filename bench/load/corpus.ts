/** The generated corpus and baseline the bench/load benchmarks share. */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serializeNote } from '../../shared/note-format.js';
import { NOTE_TYPES } from '../../shared/note.js';

/** A numeric `--name N` argument of the bench's command line. */
export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS =
  'pricing card layout border fill design token cache build deploy review test merge branch release user prefers terse answers database index query latency memory sync conflict backup restore note agent model recall search stem bigram 設計 記憶 同步'.split(
    ' ',
  );

export async function generate(
  dir: string,
  scope: string,
  count: number,
  random: () => number,
): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const pick = (): string => WORDS[Math.floor(random() * WORDS.length)]!;
  const writes: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${scope}-${i.toString(36)}-${pick()}`.replace(/[^\p{L}\p{N}._-]/gu, '');
    const sentences = Array.from(
      { length: 3 + Math.floor(random() * 12) },
      () => Array.from({ length: 8 + Math.floor(random() * 10) }, pick).join(' ') + '.',
    );
    if (random() < 0.3) sentences.push(`See [[${scope}-${Math.floor(random() * count).toString(36)}-x]].`);
    const note = {
      id,
      summary: Array.from({ length: 4 + Math.floor(random() * 6) }, pick).join(' '),
      ...(random() < 0.8 ? { type: NOTE_TYPES[Math.floor(random() * NOTE_TYPES.length)]! } : {}),
      tags: Array.from({ length: Math.floor(random() * 4) }, pick),
      createdAt: 1_780_000_000_000 + i,
      updatedAt: 1_780_000_000_000 + i * 7,
      body: sentences.join('\n') + '\n',
    };
    writes.push(fs.writeFile(path.join(dir, `${id}.md`), serializeNote(note)));
    if (writes.length >= 256) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
}

const SYLLABLES =
  'ka lo mi ne ru ta shi po ven dar mel ing tor ex gra pli son fu ber nat cor mas lin qui zen'.split(' ');
const REAL =
  'the a of to and in is for on with that this it as be by we our how when after before not user test build file config note server client api log deploy release merge review cache index query latency sync conflict backup restore agent model recall search token design layout prefers terse answers database migration schema branch pipeline staging production rollback secret key timeout retry queue worker metric alert dashboard endpoint session auth login password email invoice payment customer order report export import folder upload download'.split(
    ' ',
  );

/**
 * Notes as people and agents write them (cli-cold, issue 14): a Zipf-distributed vocabulary of
 * 12,000 words (real words first, then pronounceable made-up ones, so most words are rare), bodies
 * from one line to a few KB (median ~1 KB), 0–4 tags from 300, links in 30%, some CJK.
 */
export async function generateVaried(
  dir: string,
  scope: string,
  count: number,
  random: () => number,
): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const vocab = [...REAL];
  while (vocab.length < 12_000) {
    let w = '';
    for (let k = 2 + Math.floor(random() * 3); k > 0; k--)
      w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    vocab.push(w + (random() < 0.3 ? 'ing' : random() < 0.3 ? 's' : ''));
  }
  const harmonic: number[] = [];
  let acc = 0;
  for (let r = 0; r < vocab.length; r++) harmonic.push((acc += 1 / (r + 1)));
  const word = (): string => {
    const x = random() * acc;
    let lo = 0;
    let hi = harmonic.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (harmonic[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return vocab[lo]!;
  };
  const tags = Array.from({ length: 300 }, () => vocab[Math.floor(random() * vocab.length)]!);
  const writes: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${scope}-${i.toString(36)}-${vocab[50 + Math.floor(random() * 2000)]}`;
    // Sentences per body: mostly a few, sometimes many (a long-tailed size distribution).
    const sentenceCount = Math.max(1, Math.round(Math.exp(random() * 3.6)));
    const sentences = Array.from(
      { length: sentenceCount },
      () => Array.from({ length: 6 + Math.floor(random() * 12) }, word).join(' ') + '.',
    );
    if (random() < 0.3) sentences.push(`See [[${scope}-${Math.floor(random() * count).toString(36)}-x]].`);
    if (random() < 0.05) sentences.push('部署之前先合并审查。');
    const note = {
      id,
      summary: Array.from({ length: 4 + Math.floor(random() * 9) }, word).join(' '),
      ...(random() < 0.8 ? { type: NOTE_TYPES[Math.floor(random() * NOTE_TYPES.length)]! } : {}),
      tags: [
        ...new Set(
          Array.from({ length: Math.floor(random() * 5) }, () => tags[Math.floor(random() * tags.length)]!),
        ),
      ],
      createdAt: 1_780_000_000_000 + i,
      updatedAt: 1_780_000_000_000 + i * 7,
      body: sentences.join('\n') + '\n',
    };
    writes.push(fs.writeFile(path.join(dir, `${id}.md`), serializeNote(note)));
    if (writes.length >= 256) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
}

/** The baseline: what any reader of these files must do at least. */
export async function bareRead(dirs: string[]): Promise<number> {
  let bytes = 0;
  for (const dir of dirs) {
    const names = (await fs.readdir(dir)).filter((n) => n.endsWith('.md'));
    let next = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (next < names.length) {
          const text = await fs.readFile(path.join(dir, names[next++]!), 'utf8');
          bytes += text.length;
        }
      }),
    );
  }
  return bytes;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** A temp home and project with `notes` generated notes in each scope (the same corpus every run). */
export async function generateHome(
  label: string,
  notes: number,
): Promise<{ base: string; home: string; root: string; projectDir: string; userDir: string }> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), `memdesk-bench-${label}-`));
  const home = path.join(base, 'home');
  const root = path.join(base, 'project');
  const projectDir = path.join(root, 'MEMORY');
  const userDir = path.join(home, 'memory', 'user');
  const random = rng(42);
  await generate(projectDir, 'p', notes, random);
  await generate(userDir, 'u', notes, random);
  return { base, home, root, projectDir, userDir };
}

/** The closing line of a bench's report: how many runs, and the machine and load they ran on. */
export function runsFooter(runs: number): string {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  return `runs: ${runs} (medians), load average ${load} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}`;
}
