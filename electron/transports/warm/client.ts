import net from 'node:net';
import { WARM_PROTOCOL_VERSION, WarmReplySchema, type WarmRequest } from '../../../shared/warm-protocol.js';
import { processIsAlive, processStart } from '../../sync/owner/process-identity.js';
import { readAdvertisement } from './advertisement.js';
import { advertisementPath, envKey, privateDirOk, warmDir } from './place.js';

/**
 * How long a one-shot command waits for a warm answer before answering cold (wall time, which a
 * loaded machine stretches): connecting, then the answer. The server changes nothing for a hook
 * past WARM_EFFECTS_DEADLINE_MS after the request arrived (effects-gate.ts), well inside the
 * client's wait, so a client that gives up and runs the hook cold does not count a recall twice.
 */
export const WARM_CONNECT_MS = 1_000;
export const WARM_ANSWER_MS = 2_500;
export const WARM_EFFECTS_DEADLINE_MS = 1_500;

export interface WarmQuestion {
  home: string;
  projectRoot: string;
  env: Record<string, string | undefined>;
  command: WarmRequest['command'];
  args: string[];
  json: boolean;
  stdin: string | null;
}

/** A warm answer, or why there is none (`reason` null: no server advertised — the usual case). */
export type WarmOutcome =
  | { answered: true; exitCode: number; stdout: string; stderr: string }
  | { answered: false; reason: string | null };

const none = (reason: string | null): WarmOutcome => ({ answered: false, reason });

/**
 * Asks the warm server advertised for this home and project, if any. Never throws: every failure
 * (no advertisement, a dead or reused pid, a refused token, a timeout, an answer that is not one)
 * is a reason to answer cold.
 */
export async function askWarm(q: WarmQuestion): Promise<WarmOutcome> {
  const dir = warmDir(q.env);
  if (!privateDirOk(dir, false)) return none(null);
  const { ad, problem } = readAdvertisement(advertisementPath(dir, q.home, q.projectRoot));
  if (!ad) return none(problem ?? null);
  if (ad.home !== q.home || ad.projectRoot !== q.projectRoot) return none('advertisement for another place');
  if (!processIsAlive(ad.pid)) return none('advertised process is gone');
  // Windows reads a start time through PowerShell (~0.5 s): there the token alone tells a reused
  // pid apart (nobody else holds it, and the pipe's name is random).
  if (ad.start !== null && process.platform !== 'win32' && processStart(ad.pid) !== ad.start)
    return none('advertised pid belongs to another process now');
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
  const line = await exchange(ad.socket, JSON.stringify(request) + '\n');
  if (typeof line !== 'string') return none(line.failed);
  let reply;
  try {
    const parsed = WarmReplySchema.safeParse(JSON.parse(line));
    if (!parsed.success) return none('answer not understood');
    reply = parsed.data;
  } catch {
    return none('answer not understood');
  }
  if (reply.status === 'cold') return none(`warm process declined: ${reply.reason}`);
  return { answered: true, exitCode: reply.exitCode, stdout: reply.stdout, stderr: reply.stderr };
}

/** Sends one line, reads one line back, within the time limits. */
function exchange(socket: string, request: string): Promise<string | { failed: string }> {
  return new Promise((resolve) => {
    let received = '';
    let connected = false;
    const conn = net.createConnection(socket);
    const finish = (result: string | { failed: string }): void => {
      clearTimeout(timer);
      conn.destroy();
      resolve(result);
    };
    let timer = setTimeout(() => finish({ failed: 'no connection in time' }), WARM_CONNECT_MS);
    conn.setEncoding('utf8');
    conn.on('connect', () => {
      connected = true;
      clearTimeout(timer);
      timer = setTimeout(() => finish({ failed: 'no answer in time' }), WARM_ANSWER_MS);
      conn.write(request);
    });
    conn.on('data', (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\n');
      if (end >= 0) finish(received.slice(0, end));
    });
    conn.on('error', (err: NodeJS.ErrnoException) =>
      finish({ failed: `${connected ? 'connection lost' : 'cannot connect'} (${err.code ?? 'error'})` }),
    );
    conn.on('close', () => finish({ failed: 'connection closed before an answer' }));
  });
}
