import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from '../../../shared/zod-mini.js';
import { writeFileAtomic } from '../../memory/atomic-write.js';
import { withDirLock } from '../../memory/dir-lock.js';
import { missingOr } from '../../memory/unexpected-error.js';

/**
 * What the hooks remember about one agent session, per machine, in
 * `$OHARNESS_HOME/memory-hooks/sessions/<hash of harness and session id>.json`:
 * - `attached`: notes already attached in this session (a note attached once is not attached again
 *   while a message carrying it is in the transcript). Compaction and
 *   /clear free them (SessionStart with source compact/clear, PreCompact);
 * - `extractedUpTo`: how many transcript entries extraction has read, so a resumed session is not
 *   extracted again from the start;
 * - `savedPending`: memories the last (detached) extraction saved, announced with the next message.
 *
 * Bounded: at most MAX_ATTACHED ids per session (the oldest go), at most MAX_SESSIONS files, and a
 * session untouched for SESSION_TTL_MS is forgotten.
 */
export const MAX_ATTACHED = 500;
export const MAX_SESSIONS = 200;
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const SessionStateSchema = z.object({
  version: z.literal(1),
  updatedAt: z.number(),
  attached: z._default(z.array(z.string()), []),
  extractedUpTo: z._default(z.int().check(z.nonnegative()), 0),
  savedPending: z._default(z.int().check(z.nonnegative()), 0),
  /** Cursor: the prompt just submitted, recalled for at the turn's first tool use (contracts.ts). */
  pendingPrompt: z._default(z.nullable(z.string()), null),
});
export type SessionState = z.infer<typeof SessionStateSchema>;

const fresh = (now: number): SessionState => ({
  version: 1,
  updatedAt: now,
  attached: [],
  extractedUpTo: 0,
  savedPending: 0,
  pendingPrompt: null,
});

export function sessionsDir(home: string): string {
  return path.join(home, 'memory-hooks', 'sessions');
}

export class SessionStore {
  readonly dir: string;
  constructor(
    home: string,
    private readonly now: () => number,
  ) {
    this.dir = sessionsDir(home);
  }

  private file(harness: string, sessionId: string): string {
    const key = createHash('sha256').update(`${harness}\0${sessionId}`).digest('hex').slice(0, 32);
    return path.join(this.dir, `${key}.json`);
  }

  async read(harness: string, sessionId: string): Promise<SessionState> {
    try {
      const parsed = SessionStateSchema.safeParse(
        JSON.parse(await fs.readFile(this.file(harness, sessionId), 'utf8')),
      );
      if (parsed.success && this.now() - parsed.data.updatedAt <= SESSION_TTL_MS) return parsed.data;
    } catch {
      // no state yet, or unreadable: start fresh
    }
    return fresh(this.now());
  }

  /** Read-modify-write under the directory lock (a detached extraction may write at the same time). */
  async update(
    harness: string,
    sessionId: string,
    change: (state: SessionState) => SessionState,
  ): Promise<SessionState> {
    await fs.mkdir(this.dir, { recursive: true });
    return withDirLock(this.dir, async () => {
      const next = change(await this.read(harness, sessionId));
      const bounded: SessionState = {
        ...next,
        version: 1,
        updatedAt: this.now(),
        attached: next.attached.slice(-MAX_ATTACHED),
      };
      await writeFileAtomic(this.file(harness, sessionId), JSON.stringify(bounded) + '\n');
      return bounded;
    });
  }

  /** Forgets expired sessions and keeps the MAX_SESSIONS most recent (run at session start). */
  async prune(): Promise<void> {
    const names = (await fs.readdir(this.dir).catch(missingOr([] as string[], 'sessions: list'))).filter(
      (n) => n.endsWith('.json'),
    );
    const dated = await Promise.all(
      names.map(async (n) => {
        const text = await fs.readFile(path.join(this.dir, n), 'utf8').catch(missingOr('', 'sessions: read')); // pruned meanwhile
        const parsed = SessionStateSchema.safeParse(safeJson(text));
        return { n, at: parsed.success ? parsed.data.updatedAt : 0 };
      }),
    );
    dated.sort((a, b) => b.at - a.at);
    const cutoff = this.now() - SESSION_TTL_MS;
    await Promise.all(
      dated
        .filter((d, i) => i >= MAX_SESSIONS || d.at < cutoff)
        .map((d) => fs.rm(path.join(this.dir, d.n), { force: true })),
    );
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null; // not JSON: the schema check then refuses it
  }
}
