/**
 * Bytes on the wire and request counts of the sync protocol with 5000 notes in a scope:
 *   (a) a poll where nothing changed            target ≤ 1 KB
 *   (b) a poll that brings one changed note     target ≤ the note's size + 2 KB
 *   (c) the initial upload of 5000 notes        target ≤ 12 requests
 * Bytes are counted at the client's TCP socket (HTTP headers included). Baselines from the same
 * run: a poll without a known version (full listing, every hash sent as `have`), and one request
 * per note for the upload.  Run: npx tsx bench/server/wire-bytes.ts
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { contentHash } from '../../shared/content-hash.js';
import { serializeNote } from '../../shared/note-format.js';
import {
  SYNC_PROTOCOL_HEADER,
  SYNC_PROTOCOL_VERSION,
  SYNC_ROUTES,
  type CommitPut,
} from '../../shared/sync-protocol.js';
import { startSyncServer } from '../../server/app.js';
import { signUserToken } from '../../server/token.js';

const NOTES = 5000;
const SECRET = 'bench-secret-0123456789abcdef0123456789';

interface Measured {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  sent: number;
  received: number;
}

/** One keep-alive connection; each request's bytes are the socket counters' deltas. */
function makeClient(url: string, token: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let requests = 0;
  const request = (method: string, route: string, body?: unknown): Promise<Measured> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(url + route, {
        method,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          [SYNC_PROTOCOL_HEADER]: String(SYNC_PROTOCOL_VERSION),
          ...(payload !== undefined
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      });
      requests++;
      req.on('socket', (socket) => {
        const sent0 = socket.bytesWritten;
        const read0 = socket.bytesRead;
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
              sent: socket.bytesWritten - sent0,
              received: socket.bytesRead - read0,
            });
          });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  return { request, requests: () => requests, close: () => agent.destroy() };
}

function words(n: number, seed: number): string {
  const vocab = [
    'sync',
    'note',
    'memory',
    'pricing',
    'layout',
    'agent',
    'review',
    'border',
    'fill',
    'decision',
    'because',
    'the',
    'a',
    'keeps',
    'server',
    'merge',
    'tags',
    'summary',
  ];
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out.push(vocab[x % vocab.length]!);
  }
  return out.join(' ');
}

function note(i: number, edit = ''): CommitPut & { size: number } {
  const n = {
    id: `note-${String(i).padStart(4, '0')}`,
    summary: `Decision ${i}: ${words(6, i)}`,
    tags: ['bench', `group-${i % 20}`],
    createdAt: 1789000000000,
    updatedAt: 1789000000000 + (edit ? 1 : 0),
    body: `${words(60 + (i % 80), i + 7)}\n\n**Why:** ${words(20, i + 3)}${edit}\n`,
  };
  const content = serializeNote(n);
  return { id: n.id, baseHash: null, hash: contentHash(n), content, size: Buffer.byteLength(content) };
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-sync-server-'));
  const server = await startSyncServer({ storage: { kind: 'fs', dir }, jwtSecret: SECRET, rateLimit: null });
  const token = await signUserToken({ secret: SECRET, user: 'bench-user', plan: 'paid' });
  const scope = { kind: 'project' as const, projectId: '3f1c2a9e8b7d6c5b4a39281706f5e4d3c2b1a098' };
  try {
    // (c) Initial upload, as a client does it: identity, a snapshot, then commits split by quota.
    const device = makeClient(server.url, token);
    const identity = await device.request('GET', SYNC_ROUTES.identity);
    const perCommit: number = identity.body.limits.quota.changesPerCommit;
    const notes = Array.from({ length: NOTES }, (_, i) => note(i));
    const have = notes.map((n) => n.hash);
    await device.request('POST', SYNC_ROUTES.snapshot, { scope, sinceVersion: null, have });
    let version = 0;
    let uploadBytes = 0;
    for (let i = 0; i < notes.length; i += perCommit) {
      const batch = notes.slice(i, i + perCommit).map(({ size: _size, ...put }) => put);
      const reply = await device.request('POST', SYNC_ROUTES.commit, { scope, puts: batch });
      if (reply.status !== 200 || reply.body.rejected.length > 0)
        throw new Error(`upload failed: ${JSON.stringify(reply.body).slice(0, 300)}`);
      version = reply.body.version;
      uploadBytes += reply.sent + reply.received;
    }
    const uploadRequests = device.requests();
    const noteBytes = notes.reduce((sum, n) => sum + n.size, 0);

    // (a) A poll where nothing changed, against the baseline of a poll without a known version.
    const poll = await device.request('POST', SYNC_ROUTES.snapshot, {
      scope,
      sinceVersion: version,
      have: [],
    });
    if (poll.body.status !== 'unchanged') throw new Error('expected unchanged');
    const fullPoll = await device.request('POST', SYNC_ROUTES.snapshot, { scope, sinceVersion: null, have });
    if (fullPoll.body.objects.length !== 0) throw new Error('bodies sent that the client has');

    // (b) Another device edits one note; this device's next poll brings just that note.
    const other = makeClient(server.url, token);
    const original = notes[1234]!;
    const edited = { ...note(1234, ' Edited on the laptop.'), baseHash: original.hash };
    const { size: editedSize, ...editPut } = edited;
    const upload = await other.request('POST', SYNC_ROUTES.commit, { scope, puts: [editPut] });
    if (upload.body.applied.length !== 1) throw new Error('edit not applied');
    const changePoll = await device.request('POST', SYNC_ROUTES.snapshot, {
      scope,
      sinceVersion: version,
      have: [],
    });
    if (changePoll.body.objects.length !== 1) throw new Error('expected one object');

    const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;
    const rows: [string, string, string, string][] = [
      [
        '(a) no-change poll (request + response)',
        `${poll.sent + poll.received} B`,
        `≤ 1024 B`,
        `baseline full-listing poll ${kb(fullPoll.sent + fullPoll.received)} → ${((fullPoll.sent + fullPoll.received) / (poll.sent + poll.received)).toFixed(0)}× smaller`,
      ],
      [
        '(b) poll bringing one changed note',
        `${changePoll.sent + changePoll.received} B`,
        `≤ ${editedSize + 2048} B (note ${editedSize} B + 2 KB)`,
        `overhead ${changePoll.sent + changePoll.received - editedSize} B over the note`,
      ],
      [
        '(b′) committing that one-note edit',
        `${upload.sent + upload.received} B`,
        `≤ ${editedSize + 2048} B`,
        `overhead ${upload.sent + upload.received - editedSize} B over the note`,
      ],
      [
        '(c) initial upload of 5000 notes',
        `${uploadRequests} requests`,
        '≤ 12 requests',
        `baseline one request per note: ${NOTES} → ${(NOTES / uploadRequests).toFixed(0)}× fewer; ${kb(uploadBytes)} for ${kb(noteBytes)} of notes (${(uploadBytes / noteBytes).toFixed(2)}×)`,
      ],
    ];
    console.log(
      `sync server wire bench: ${NOTES} notes in one project scope, ${kb(noteBytes)} of note files`,
    );
    for (const [what, got, target, note] of rows)
      console.log(`${what.padEnd(42)} ${got.padStart(12)}   target ${target}   ${note}`);
    const ok =
      poll.sent + poll.received <= 1024 &&
      changePoll.sent + changePoll.received <= editedSize + 2048 &&
      uploadRequests <= 12;
    console.log(ok ? 'all targets met' : 'TARGET MISSED');
    device.close();
    other.close();
    if (!ok) process.exitCode = 1;
  } finally {
    await server.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

await main();
