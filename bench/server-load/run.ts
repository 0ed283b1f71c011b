/**
 * Sync server under load (issue 14), loopback only, bounded in time:
 *   polls    — USERS clients, each its own account with a NOTES-note project scope, polling
 *              "anything new since version V?" (the answer is `unchanged`) for SECONDS, as fast
 *              as answered, then paced at 3,000/s in all (latency counted from when each was due)
 *   commits  — COMMITTERS clients on separate accounts, each committing one new note at a time
 *   wire     — a first sync of 5,000 notes through the app's SyncHttpClient (gzip both ways):
 *              bytes up for the device that uploads them, bytes down for a second device
 * beside a bare Node HTTP server (same machine, same load generator, same request bodies) that
 * answers every request with a canned reply. Prints requests/s, p50/p99 latency and the server
 * process's RSS.  Run: npx tsx bench/server-load/run.ts [USERS NOTES SECONDS COMMITTERS]
 * The scopes' manifests are generated straight into the data directory in the server's own
 * format (a poll and a commit never read older revisions), so setup takes seconds, not minutes.
 * BENCH_SERVER_NODE_ARGS (space-separated) go to the sync server's node, e.g. to profile it:
 * BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof".
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentHash } from '../../shared/content-hash.js';
import { serializeNote } from '../../shared/note-format.js';
import {
  SYNC_PROTOCOL_HEADER,
  SYNC_PROTOCOL_VERSION,
  SYNC_ROUTES,
  type SyncEntry,
} from '../../shared/sync-protocol.js';
import { serializeManifest } from '../../server/manifest.js';
import { manifestKey } from '../../server/storage-keys.js';
import { FsStorage } from '../../server/storage/fs-storage.js';
import { signUserToken } from '../../server/token.js';
import { SyncHttpClient } from '../../electron/sync/http-client.js';
import { mulberry32 } from '../../test/support/prng.js';
import { startPrintingServer } from '../load/processes.js';

const [USERS, NOTES, SECONDS, COMMITTERS] = [200, 1000, 5, 20].map((d, i) =>
  Number(process.argv[2 + i] ?? d),
) as [number, number, number, number];
/** The poll rate the issue asks p99 ≤ 50 ms at. */
const PACED_POLLS = 3000;
const SECRET = `bench-${randomBytes(16).toString('hex')}`;
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCOPE = { kind: 'project' as const, projectId: 'bench-project' };
const random = mulberry32(14);

const VOCAB =
  'sync note memory agent project build test deploy cache index query merge conflict token user scope server storage bucket manifest version commit poll review decision convention'.split(
    ' ',
  );
function words(n: number): string {
  return Array.from({ length: n }, () => VOCAB[Math.floor(random() * VOCAB.length)]).join(' ');
}

function note(id: string, bodyWords: number): { id: string; content: string; hash: string } {
  const n = {
    id,
    summary: words(8),
    tags: [VOCAB[Math.floor(random() * VOCAB.length)]!],
    createdAt: 1_780_000_000_000,
    updatedAt: 1_780_000_000_000,
    body: `${words(bodyWords)}\n`,
  };
  return { id, content: serializeNote(n), hash: contentHash(n) };
}

/** A scope's manifest with `count` active notes, in the server's format. */
function manifest(count: number): string {
  const entries: SyncEntry[] = Array.from({ length: count }, (_, i) => {
    const hash = randomBytes(32).toString('hex');
    return {
      id: `note-${i}`,
      hash,
      rev: `${hash.slice(0, 12)}-${randomBytes(5).toString('hex')}`,
      seq: 1,
      size: 900,
    };
  });
  return serializeManifest({ format: 1, version: 1, prunedThrough: 0, entries });
}

function spawnServer(
  args: string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return startPrintingServer([...(args[0] === '-e' ? [] : nodeArgs), '--import', 'tsx', ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
  });
}

function target(spawned: { child: ChildProcess; url: string }): { url: string; pid: number } {
  return { url: spawned.url, pid: spawned.child.pid! };
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** CPU time (user + system) the process has used, in ms (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime (fields 14, 15)
}

interface Load {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server process's CPU time per request answered, in µs. */
  cpuPerRequest: number;
}

/**
 * `clients` loops for `seconds`, each sending its next request as soon as the last is answered
 * (closed loop: what the server can do) — or, with `pace` requests/s, on a schedule spread over the
 * clients (open loop: the latency a server meets at that rate). A paced request's latency counts
 * from when it was due, so a server that falls behind is charged for the wait.
 */
async function load(
  { url, pid }: { url: string; pid: number },
  clients: number,
  seconds: number,
  request: (client: number, n: number) => { route: string; token: string; body: string },
  pace?: number,
): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const cpuBefore = cpuMs(pid);
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let n = 0; performance.now() < end; n++) {
        const { route, token, body } = request(client, n);
        let started = performance.now();
        if (pace !== undefined) {
          const due = start + ((n * clients + client) * 1000) / pace;
          if (due >= end) break;
          if (due > started) await new Promise((resolve) => setTimeout(resolve, due - started));
          started = due;
        }
        const status = await new Promise<number>((resolve) => {
          const req = http.request(url + route, {
            method: 'POST',
            agent,
            headers: {
              authorization: `Bearer ${token}`,
              [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION),
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          });
          req.on('response', (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', () => resolve(0));
          req.end(body);
        });
        latencies.push(performance.now() - started);
        if (status !== 200) errors++;
      }
    }),
  );
  const cpuPerRequest = ((cpuMs(pid) - cpuBefore) * 1000) / latencies.length;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { perSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors, cpuPerRequest };
}

const BARE = `
const http = require('node:http');
const reply = process.argv[1];
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.sendDate = false;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply), 'cache-control': 'no-store' });
    res.end(reply);
  });
}).listen(0, '127.0.0.1', function () { console.log('http://127.0.0.1:' + this.address().port); });
`;

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'server-load-'));
  const storage = new FsStorage(dir);
  const users = Array.from({ length: USERS }, (_, i) => `user-${i}`);
  for (const user of users) await storage.put(manifestKey(user, SCOPE), manifest(NOTES));
  const now = Date.now();
  const tokens = await Promise.all(
    users.map((user) => signUserToken({ secret: SECRET, user, plan: 'paid', now, ttlSeconds: 86400 })),
  );
  const server = await spawnServer(['server/main.ts', '--port', '0', '--data', dir], {
    OHARNESS_SYNC_JWT_SECRET: SECRET,
    OHARNESS_SYNC_RATE_LIMIT: '0',
    UV_THREADPOOL_SIZE: '16', // as docs/self-hosting.md advises for filesystem storage
  });
  const pollBody = JSON.stringify({ scope: SCOPE, sinceVersion: 1, cursor: null, have: [] });
  const pollReply = JSON.stringify({
    status: 'unchanged',
    version: 1,
    limits: {
      plan: 'paid',
      quota: {
        notesPerScope: 5000,
        changesPerCommit: 500,
        noteBytes: 131072,
        responseBytes: 16777216,
        tombstoneDays: 90,
      },
      planLimits: { notesPerScope: null, noteBytes: null },
    },
  });
  const bare = await spawnServer(['-e', BARE, pollReply], {});
  const poll = (client: number) => ({ route: SYNC_ROUTES.snapshot, token: tokens[client]!, body: pollBody });
  const commit = (client: number, n: number) => {
    const body = JSON.stringify({
      scope: SCOPE,
      puts: [{ ...note(`new-${client}-${n}`, 120), baseHash: null }],
    });
    return { route: SYNC_ROUTES.commit, token: tokens[client]!, body };
  };
  try {
    console.log(
      `sync server load: ${USERS} users × ${NOTES} notes, ${SECONDS} s per run, ${os.cpus().length} cores`,
    );
    console.log(`server RSS after start: ${rssMb(server.child.pid!).toFixed(0)} MB`);
    await load(target(server), USERS, 1, poll); // every scope read once (what a server meets after a restart)
    const polls = await load(target(server), USERS, SECONDS, poll);
    const pollsRss = rssMb(server.child.pid!);
    const barePolls = await load(target(bare), USERS, SECONDS, poll);
    const pacedPolls = await load(target(server), USERS, SECONDS, poll, PACED_POLLS);
    const barePacedPolls = await load(target(bare), USERS, SECONDS, poll, PACED_POLLS);
    const commits = await load(target(server), COMMITTERS, SECONDS, commit);
    const commitsRss = rssMb(server.child.pid!);
    const bareCommits = await load(target(bare), COMMITTERS, SECONDS, commit);
    const row = (name: string, r: Load, base: Load): string =>
      `${name.padEnd(34)} ${r.perSecond.toFixed(0).padStart(6)}/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  CPU ${r.cpuPerRequest.toFixed(0)} µs/req  errors ${r.errors}   bare HTTP ${base.perSecond.toFixed(0)}/s (p99 ${base.p99.toFixed(1)} ms, CPU ${base.cpuPerRequest.toFixed(0)} µs/req): ${(r.perSecond / base.perSecond).toFixed(2)}×`;
    console.log(row(`no-change polls, ${USERS} clients`, polls, barePolls));
    console.log(row(`  paced at ${PACED_POLLS}/s`, pacedPolls, barePacedPolls));
    console.log(row(`commits, ${COMMITTERS} clients/accounts`, commits, bareCommits));
    console.log(
      `server RSS: ${pollsRss.toFixed(0)} MB after polls, ${commitsRss.toFixed(0)} MB after commits (bare HTTP: ${rssMb(bare.child.pid!).toFixed(0)} MB)`,
    );

    // First sync of 5,000 notes through the app's client.
    const notes = Array.from({ length: 5000 }, (_, i) => note(`first-${i}`, 110));
    const plainBytes = notes.reduce((n, x) => n + Buffer.byteLength(x.content), 0);
    const upStarted = performance.now();
    const up = new SyncHttpClient({ origin: server.url, token: tokens[USERS - 1]! });
    const scope = { kind: 'project' as const, projectId: 'first-sync' };
    await up.identity();
    await up.snapshot({ scope, sinceVersion: null, cursor: null, have: [] });
    for (let i = 0; i < notes.length; i += 500) {
      await up.commit({
        scope,
        puts: notes.slice(i, i + 500).map((x) => ({ ...x, baseHash: null })),
        deletes: [],
        strict: null,
      });
    }
    const upMs = performance.now() - upStarted;
    const downStarted = performance.now();
    const down = new SyncHttpClient({ origin: server.url, token: tokens[USERS - 1]! });
    await down.identity();
    let got = 0;
    let cursor: string | null = null;
    do {
      const page = await down.snapshot({ scope, sinceVersion: null, cursor, have: [] });
      if (page.status === 'unchanged') break;
      got += page.objects.length;
      cursor = page.nextCursor;
    } while (cursor);
    const downMs = performance.now() - downStarted;
    const mb = (b: number): string => (b / 1024 / 1024).toFixed(2);
    console.log(
      `first sync of 5,000 notes (${mb(plainBytes)} MB of note files): up ${mb(up.stats.bytesSent + up.stats.bytesReceived)} MB in ${up.stats.requests} requests, ${upMs.toFixed(0)} ms wall; down ${mb(down.stats.bytesSent + down.stats.bytesReceived)} MB in ${down.stats.requests} requests, ${downMs.toFixed(0)} ms wall (${got} notes). The wire and the server only: bench/sync/rounds.ts times the app's whole round`,
    );
  } finally {
    server.child.kill();
    bare.child.kill();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

await main();
