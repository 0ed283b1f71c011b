import net from 'node:net';
import {
  WARM_PROTOCOL_VERSION,
  WarmReplySchema,
  jsonLine,
  readJsonLines,
  type WarmClaimed,
  type WarmReply,
  type WarmRequest,
} from '../../../shared/warm-protocol.js';
import { processIsAlive, processStart } from '../../sync/owner/process-identity.js';
import { readAdvertisement } from './advertisement.js';
import { privateDirOk, warmDir } from './dir.js';
import { advertisementPath, envKey } from './place.js';

/**
 * How long a one-shot command waits for a warm answer before answering cold (wall time, which a
 * loaded machine stretches): connecting, then the answer or the server's claim. After granting a
 * claim the client no longer may run the command cold: it waits WARM_CLAIMED_MS more (a hook's own
 * budget, answer-hook.ts) and otherwise prints the empty hook answer.
 */
export const WARM_CONNECT_MS = 1_000;
export const WARM_ANSWER_MS = 2_500;
export const WARM_CLAIMED_MS = 2_500;

/** The client's timers: real ones, or a test's (no wall-clock waits in tests). */
export interface WarmTimers {
  /** Calls fn after ms; returns what cancels it. */
  after(ms: number, fn: () => void): () => void;
}

const systemTimers: WarmTimers = {
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

export interface WarmQuestion {
  home: string;
  projectRoot: string;
  env: Record<string, string | undefined>;
  command: WarmRequest['command'];
  args: string[];
  json: boolean;
  stdin: string | null;
}

/**
 * A warm answer; `cold` (nothing was changed: run the command cold; `reason` null: no server
 * advertised — the usual case); or `unanswered`: the server claimed the hook's changes and then
 * did not answer — the command must not run again (it would count twice).
 */
export type WarmOutcome =
  | { status: 'answer'; exitCode: number; stdout: string; stderr: string }
  | { status: 'cold'; reason: string | null }
  | { status: 'unanswered'; reason: string };

const cold = (reason: string | null): WarmOutcome => ({ status: 'cold', reason });

/**
 * Asks the warm server advertised for this home and project, if any. Never throws: every failure
 * (no advertisement, a dead or reused pid, a refused token, a timeout, an answer that is not one)
 * is a reason to answer cold — unless a claim was granted (then `unanswered`).
 */
export async function askWarm(q: WarmQuestion, timers: WarmTimers = systemTimers): Promise<WarmOutcome> {
  const dir = warmDir(q.env);
  if (!privateDirOk(dir, false)) return cold(null);
  const { ad, problem } = readAdvertisement(advertisementPath(dir, q.home, q.projectRoot));
  if (!ad) return cold(problem ?? null);
  if (ad.home !== q.home || ad.projectRoot !== q.projectRoot) return cold('advertisement for another place');
  if (!processIsAlive(ad.pid)) return cold('advertised process is gone');
  // Windows reads a start time through PowerShell (~0.5 s): there the token alone tells a reused
  // pid apart (nobody else holds it, and the pipe's name is random).
  if (ad.start !== null && process.platform !== 'win32' && processStart(ad.pid) !== ad.start)
    return cold('advertised pid belongs to another process now');
  const request: WarmRequest = {
    v: WARM_PROTOCOL_VERSION,
    token: ad.token,
    home: q.home,
    projectRoot: q.projectRoot,
    envKey: envKey(q.env),
    command: q.command,
    args: q.args,
    json: q.json,
    stdin: q.stdin,
  };
  return exchange(ad.socket, request, timers);
}

/**
 * Sends the request, grants a claim if one comes in time, reads the reply. Giving up (a timer)
 * and granting a claim happen on this one thread, so exactly one of them wins: a client that gave
 * up has closed the connection and the server's claim is refused; a client that granted it stays.
 */
function exchange(socket: string, request: WarmRequest, timers: WarmTimers): Promise<WarmOutcome> {
  return new Promise((resolve) => {
    let connected = false;
    let claimed = false;
    const conn = net.createConnection(socket);
    let cancel = timers.after(WARM_CONNECT_MS, () => failed('no connection in time'));
    const finish = (outcome: WarmOutcome): void => {
      cancel();
      cancel = () => {};
      conn.destroy();
      resolve(outcome);
    };
    // Past a granted claim the server may have counted the hook: never cold from here on.
    const failed = (reason: string): void =>
      finish(claimed ? { status: 'unanswered', reason: `after the claim: ${reason}` } : cold(reason));
    const onMessage = (message: unknown): void => {
      const parsed = WarmReplySchema.safeParse(message);
      if (!parsed.success) return failed('answer not understood');
      const reply: WarmReply = parsed.data;
      if (reply.status === 'claim') {
        if (claimed) return failed('answer not understood');
        claimed = true;
        cancel();
        cancel = timers.after(WARM_CLAIMED_MS, () => failed('no answer in time'));
        const granted: WarmClaimed = { v: WARM_PROTOCOL_VERSION, claimed: true };
        conn.write(jsonLine(granted));
      } else if (reply.status === 'cold') finish(cold(`warm process declined: ${reply.reason}`));
      else finish({ status: 'answer', exitCode: reply.exitCode, stdout: reply.stdout, stderr: reply.stderr });
    };
    const push = readJsonLines(onMessage);
    conn.setEncoding('utf8');
    conn.on('connect', () => {
      connected = true;
      cancel();
      cancel = timers.after(WARM_ANSWER_MS, () => failed('no answer in time'));
      conn.write(jsonLine(request));
    });
    conn.on('data', (chunk: string) => push(chunk));
    conn.on('error', (err: NodeJS.ErrnoException) =>
      failed(`${connected ? 'connection lost' : 'cannot connect'} (${err.code ?? 'error'})`),
    );
    conn.on('close', () => failed('connection closed before an answer'));
  });
}
