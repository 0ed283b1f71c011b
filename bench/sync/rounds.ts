/**
 * Bytes and requests of sync rounds, measured at the client (the engine's HTTP client counts
 * request and response bytes, headers included) against the real server on loopback:
 *   (a) a round where nothing changed, with 5000 notes in the scope
 *   (b) a round that uploads one edited note
 *   (c) a round that downloads one edited note (on a second device)
 *   (d) the initial upload of 5000 notes
 * Baselines measured in the same run: (a) a full listing of the scope (what a client without a
 * baseline version would fetch), (b/c) the note's own size, (d) the notes' total size and one
 * request per note.   Run: npx tsx bench/sync/rounds.ts [--notes N]
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serializeNote } from '../../shared/note-format.js';
import { createUserMemory } from '../../electron/memory/core.js';
import { SyncEngine } from '../../electron/sync/sync-engine.js';
import { MemoryTokenStore } from '../../electron/sync/token-store.js';
import { startSyncServer, signUserToken } from '../../server/index.js';

const argIndex = process.argv.indexOf('--notes');
const NOTES = argIndex >= 0 ? Number(process.argv[argIndex + 1]) : 5000;
const SECRET = 'bench-sync-secret-0123456789abcdefghij';

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'memdesk-bench-sync-'));
const server = await startSyncServer({
  host: '127.0.0.1',
  port: 0,
  storage: { kind: 'fs', dir: path.join(root, 'server') },
  jwtSecret: SECRET,
  rateLimit: null,
  log: () => {},
});
const token = await signUserToken({ secret: SECRET, user: 'bench', plan: 'paid' });

async function device(name: string) {
  const home = path.join(root, name);
  const user = await createUserMemory({ home });
  const engine = new SyncEngine({ home, tokens: new MemoryTokenStore(), scheduling: { autoStart: false } });
  const svc = engine.attachUser(user)!.service;
  await engine.login(server.url, token);
  const stats = engine.accounts.stats;
  const round = async (): Promise<{ requests: number; sent: number; received: number; ms: number }> => {
    const before = { ...stats };
    const t = performance.now();
    const result = (await engine.syncNow([svc])).get(svc)!;
    if (result.outcome !== 'ok')
      throw new Error(`${name}: round ended ${JSON.stringify(result)} ${svc.error?.message ?? ''}`);
    return {
      requests: stats.requests - before.requests,
      sent: stats.bytesSent - before.bytesSent,
      received: stats.bytesReceived - before.bytesReceived,
      ms: Math.round(performance.now() - t),
    };
  };
  return { home, user, engine, svc, round };
}

const a = await device('a');
const dir = a.user.store!.dir;
let totalBytes = 0;
for (let i = 0; i < NOTES; i++) {
  const text = serializeNote({
    id: `note-${i}`,
    summary: `Generated note ${i} about topic ${i % 97}`,
    tags: [`t${i % 13}`, `area-${i % 7}`],
    body: `Line one of note ${i}.\n${'Some remembered detail that an agent wrote down. '.repeat(4)}\nSee [[note-${(i + 1) % NOTES}]].\n`,
    createdAt: 1_700_000_000_000 + i,
    updatedAt: 1_700_000_000_000 + i,
  });
  totalBytes += Buffer.byteLength(text);
  await fs.writeFile(path.join(dir, `note-${i}.md`), text);
}
await a.user.store!.load();

const fmt = (n: number) => n.toLocaleString('en-US');
const initial = await a.round();
console.log(
  `(d) initial upload of ${NOTES} notes: ${initial.requests} requests, ${fmt(initial.sent)} B sent, ${fmt(initial.received)} B received, ${initial.ms} ms`,
);
console.log(
  `    baseline: ${NOTES} requests (one per note), ${fmt(totalBytes)} B of notes → requests ×${(initial.requests / NOTES).toFixed(4)}, bytes sent ×${(initial.sent / totalBytes).toFixed(2)} of the notes' size`,
);

const idle = await a.round();
const b = await device('b');
const full = await b.round();
console.log(
  `(a) no-change round: ${idle.requests} request(s), ${fmt(idle.sent + idle.received)} B (${fmt(idle.sent)} sent, ${fmt(idle.received)} received)`,
);
console.log(
  `    baseline: a full listing for a device that already holds every note (have = all hashes): ${full.requests} requests, ${fmt(full.sent + full.received)} B → ×${((idle.sent + idle.received) / (full.sent + full.received)).toFixed(4)}`,
);

await b.round();
const note = a.user.store!.get('note-42')!;
await a.user.store!.write({ ...note, body: note.body + 'One more line.\n', updatedAt: Date.now() });
const noteSize = Buffer.byteLength(serializeNote(a.user.store!.get('note-42')!));
const up = await a.round();
const down = await b.round();
console.log(
  `(b) one-note edit, upload: ${up.requests} requests, ${fmt(up.sent + up.received)} B — note ${fmt(noteSize)} B → overhead ${fmt(up.sent + up.received - noteSize)} B (×${((up.sent + up.received) / noteSize).toFixed(2)})`,
);
console.log(
  `(c) one-note edit, download on another device: ${down.requests} requests, ${fmt(down.sent + down.received)} B → overhead ${fmt(down.sent + down.received - noteSize)} B (×${((down.sent + down.received) / noteSize).toFixed(2)})`,
);

a.engine.stop();
b.engine.stop();
await server.close();
await fs.rm(root, { recursive: true, force: true });
