import { randomBytes, timingSafeEqual } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import {
  WARM_PROTOCOL_VERSION,
  WarmClaimedSchema,
  WarmRequestSchema,
  jsonLine,
  readJsonLines,
  type WarmAdvertisement,
  type WarmReply,
  type WarmRequest,
} from '../../../shared/warm-protocol.js';
import { processIsAlive, processStart } from '../../sync/owner/process-identity.js';
import { onUnexpectedError } from '../../memory/unexpected-error.js';
import { readAdvertisement } from './advertisement.js';
import { privateDirOk, warmDir } from './dir.js';
import { advertisementPath, envKey, socketPath } from './place.js';

/** A request line longer than this is refused (a hook's JSON with a long prompt fits many times). */
const MAX_REQUEST_BYTES = 4 * 1024 * 1024;
/** How often a server checks that its advertisement is still there (another server may have replaced it and gone). */
const READVERTISE_MS = 30_000;

/** What the server can ask the client of one request while answering it. */
export interface WarmCall {
  /**
   * Asks the client whether it still waits (the protocol's claim): true once it granted the claim
   * — it will then never run the command itself — false when it has gone. Asked before the first
   * lasting change a hook makes; after true, the reply must be an answer, never `cold`.
   */
  claim(): Promise<boolean>;
}

export interface WarmServerOptions {
  home: string;
  projectRoot: string;
  /** The environment the process's notes were opened with (its config overrides). */
  env: Record<string, string | undefined>;
  /** The process's own environment: where its user's advertisements go (XDG_RUNTIME_DIR, TMPDIR). */
  processEnv: Record<string, string | undefined>;
  /** Answers a request whose token, home, project and overrides were checked. Must not throw. */
  answer(request: WarmRequest, call: WarmCall): Promise<WarmReply>;
}

export interface WarmServer {
  readonly socket: string;
  close(): Promise<void>;
}

const cold = (reason: string): WarmReply => ({ v: WARM_PROTOCOL_VERSION, status: 'cold', reason });

/**
 * Serves warm answers for one home and project over a local socket (docs/agents.md, "Warm
 * answers"): a Unix domain socket in the user's 0700 directory, or a named pipe on Windows, and a
 * 0600 advertisement beside it with the pid, the process's start, the socket and a random token.
 * null when no private directory can be had (the one-shot commands then always run cold).
 */
export async function startWarmServer(opts: WarmServerOptions): Promise<WarmServer | null> {
  const dir = warmDir(opts.processEnv);
  if (!privateDirOk(dir, true)) return null;
  const token = randomBytes(32).toString('base64url');
  const socket = socketPath(dir, opts.home, opts.projectRoot, randomBytes(6).toString('hex'));
  const ownKey = envKey(opts.env);
  const adFile = advertisementPath(dir, opts.home, opts.projectRoot);
  const ad: WarmAdvertisement = {
    v: WARM_PROTOCOL_VERSION,
    pid: process.pid,
    start: processStart(process.pid),
    socket,
    token,
    home: opts.home,
    projectRoot: opts.projectRoot,
  };

  const server = net.createServer((conn) => serveConnection(conn));
  function serveConnection(conn: net.Socket): void {
    let closed = false;
    let requested = false;
    /** The claim, once asked; `settle` ends it: true when the client granted it, false when it went away. */
    let claim: Promise<boolean> | null = null;
    let settle: ((granted: boolean) => void) | null = null;
    const call: WarmCall = {
      claim: () =>
        (claim ??= closed
          ? Promise.resolve(false)
          : new Promise<boolean>((resolve) => {
              settle = (granted) => {
                settle = null;
                resolve(granted);
              };
              conn.write(jsonLine({ v: WARM_PROTOCOL_VERSION, status: 'claim' } satisfies WarmReply));
            })),
    };
    conn.setEncoding('utf8');
    conn.on('close', () => {
      closed = true;
      settle?.(false);
    });
    conn.on('error', () => conn.destroy()); // the client went away; nothing to tell anyone
    const push = readJsonLines((message) => {
      if (!requested) {
        requested = true;
        void replyTo(message, call).then((reply) => {
          if (reply && !closed) conn.end(jsonLine(reply));
          else conn.destroy();
        });
      } else if (settle && WarmClaimedSchema.safeParse(message).success) settle(true);
      else conn.destroy(); // nothing else is ever sent
    }, MAX_REQUEST_BYTES);
    conn.on('data', (chunk: string) => {
      if (!push(chunk)) conn.destroy();
    });
  }

  /** The reply to a request line; null when there is none to send (the answer failed after a claim). */
  async function replyTo(message: unknown, call: WarmCall): Promise<WarmReply | null> {
    const parsed = WarmRequestSchema.safeParse(message);
    if (!parsed.success) return cold('request not understood');
    const request = parsed.data;
    if (!sameToken(request.token, token)) return cold('token refused');
    if (request.home !== opts.home || request.projectRoot !== opts.projectRoot)
      return cold('another home or project');
    if (request.envKey !== ownKey) return cold('other config overrides in the environment');
    let claimed = false;
    const watched: WarmCall = { claim: async () => (claimed = await call.claim()) };
    try {
      return await opts.answer(request, watched);
    } catch (err) {
      onUnexpectedError(err, 'warm answer');
      // After a granted claim something may have changed: `cold` would run it twice.
      return claimed ? null : cold('the warm process failed to answer');
    }
  }

  if (process.platform !== 'win32') rmSync(socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => onUnexpectedError(err, 'warm server'));
  advertise(adFile, ad);

  // Another server of the same home and project may have advertised over this one and exited
  // since: this one takes the place again, so a live server is found while there is one.
  const keep = setInterval(() => {
    const current = readAdvertisement(adFile).ad;
    if (current?.token === token) return;
    if (!current || !processIsAlive(current.pid)) advertise(adFile, ad);
  }, READVERTISE_MS);
  keep.unref();
  server.unref(); // the socket alone never keeps the process running

  return {
    socket,
    async close() {
      clearInterval(keep);
      if (readAdvertisement(adFile).ad?.token === token) rmSync(adFile, { force: true });
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (process.platform !== 'win32') rmSync(socket, { force: true });
    },
  };
}

function sameToken(given: string, own: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(own);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Written whole and renamed into place, readable by this user only. */
export function advertise(file: string, ad: WarmAdvertisement): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(ad) + '\n', { mode: 0o600 });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    onUnexpectedError(err, 'warm server: advertise');
  }
}
