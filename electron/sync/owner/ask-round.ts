import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SyncRoundReportSchema, type SyncRoundReport } from '../../../shared/api/sync.js';
import type { Clock } from '../clock.js';
import { OwnerLock } from './owner-lock.js';
import { ownerPaths } from './paths.js';
import { processIsAlive } from './process-identity.js';
import { SyncDirectorySchema, takeAll, writeWhole, type SyncDirectory } from './requests.js';
import { unlessMissing } from '../../memory/unexpected-error.js';

const AskSchema = z.object({
  /** `<pid>-<random>`: the answer's file name; the pid lets the owner drop answers nobody waits for. */
  id: z.string().regex(/^\d+-[0-9a-f]+$/),
  deletes: z.enum(['delete', 'keep']).optional(),
  dirs: z.array(SyncDirectorySchema),
});
export type RoundAsk = z.infer<typeof AskSchema>;

const AnswerSchema = z.object({
  id: z.string(),
  /** The process that ran the round (diagnostics). */
  ranBy: z.number().int(),
  /** What each directory's round did, by directory key; absent when the owner could not run it. */
  reports: z.record(z.string(), SyncRoundReportSchema).optional(),
  /** Why the owner did not run the round: the asker runs it itself. */
  refused: z.string().optional(),
});
export type RoundAnswer = z.infer<typeof AnswerSchema>;

export interface AskRoundOptions {
  home: string;
  clock: Clock;
  dirs: SyncDirectory[];
  deletes?: 'delete' | 'keep';
  /** The owner takes an ask on its next heartbeat at the latest; past this it is judged not answering. */
  acceptMs?: number;
  /** The longest the asker waits for the round's answer once the owner has taken it. */
  answerMs?: number;
  /** How often the asker looks for the answer and at the owner lock (a real-time pause). */
  pollMs?: number;
}

/** Three heartbeats, as long as the owner lock takes to go stale. */
export const ASK_ACCEPT_MS = 6_000;
/** A round waits up to 120 s for the home's rounds lock, then runs: room for both. */
export const ASK_ANSWER_MS = 5 * 60_000;

/**
 * 立即同步 in a process that does not own sync: the round is asked of the owner, which runs it
 * (rounds stay in one process, behind the rounds lock like every other) and answers with what
 * each directory's round did. Returns null when the round is to run here instead: no live owner
 * (or this process is it), the owner died, exited or was replaced while the asker waited, did not
 * take the ask within `acceptMs`, did not answer within `answerMs`, or refused. An ask not yet
 * taken is withdrawn first, so it is never run twice on purpose; one taken by an owner that then
 * died was at most begun (every write of a round is atomic), and the asker's round redoes it.
 */
export async function askOwnerForRound(opts: AskRoundOptions): Promise<Map<string, SyncRoundReport> | null> {
  const paths = ownerPaths(opts.home);
  const lock = new OwnerLock(paths.lockFile, { clock: opts.clock, role: 'cli' });
  const owner = lock.owner();
  if (!owner || owner.pid === process.pid || opts.dirs.length === 0) return null;
  const id = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const askFile = path.join(paths.askedDir, `${id}.json`);
  const answerFile = path.join(paths.answersDir, `${id}.json`);
  const ask: RoundAsk = { id, dirs: opts.dirs, ...(opts.deletes ? { deletes: opts.deletes } : {}) };
  writeWhole(paths.askedDir, id, ask);
  const startedAt = opts.clock.now();
  const acceptMs = opts.acceptMs ?? ASK_ACCEPT_MS;
  const answerMs = opts.answerMs ?? ASK_ANSWER_MS;
  let taken = false;
  for (;;) {
    const answer = readAnswer(answerFile);
    if (answer) {
      if (!answer.reports) return null;
      const out = new Map<string, SyncRoundReport>();
      for (const { key } of opts.dirs) {
        const report = answer.reports[key];
        if (!report) return null;
        out.set(key, report);
      }
      return out;
    }
    taken ||= !existsSync(askFile);
    const current = lock.owner();
    const elapsed = opts.clock.now() - startedAt;
    const gone = !current || current.token !== owner.token;
    if (gone || (!taken && elapsed > acceptMs) || elapsed > answerMs) {
      // Withdrawn before anyone took it: no owner will run it. Taken just now: the owner's
      // round (if it lives) and ours run one after the other behind the rounds lock.
      withdraw(askFile);
      return null;
    }
    // Real time, not the clock: the wait must keep a CLI process alive (the clock's timers do not).
    await new Promise((resolve) => setTimeout(resolve, opts.pollMs ?? 100));
  }
}

/** The owner: every round waiting to be run (each taken once, by one owner). */
export function takeAsks(home: string): RoundAsk[] {
  return takeAll(ownerPaths(home).askedDir, AskSchema, 'asked rounds');
}

/** The owner's answer, written whole; the asker removes it when read. */
export function writeAnswer(home: string, answer: RoundAnswer): void {
  writeWhole(ownerPaths(home).answersDir, answer.id, answer);
}

/**
 * Answers nobody will read — their asker exited or was killed (it fell back to its own round, or
 * was stopped) — are removed by the owner now and then.
 */
export function dropUnreadAnswers(home: string): void {
  const dir = ownerPaths(home).answersDir;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    unlessMissing(err, 'asked rounds: list answers'); // missing: no answer was written yet
    return;
  }
  for (const name of names) {
    const pid = Number(/^(\d+)-[0-9a-f]+\.json$/.exec(name)?.[1]);
    if (Number.isInteger(pid) && !processIsAlive(pid)) withdraw(path.join(dir, name));
  }
}

function readAnswer(file: string): RoundAnswer | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    unlessMissing(err, 'asked rounds: read answer'); // missing: not answered yet
    return null;
  }
  withdraw(file);
  // Written whole by rename: a damaged answer is damage; the asker then runs the round itself.
  const unreadable = { id: '', ranBy: 0, refused: 'unreadable answer' };
  try {
    const parsed = AnswerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : unreadable;
  } catch {
    return unreadable;
  }
}

/** Removes the file, if it is still there (an ask the owner has not taken, an answer read). */
function withdraw(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    unlessMissing(err, 'asked rounds: remove');
  }
}
