/**
 * The first sync of a full user scope through the CLI, as a person meets it (issue 14): the CLI
 * bundle (scripts/build-cli.ts) and the command-line sync server (server/main.ts, loopback,
 * UV_THREADPOOL_SIZE=16 as docs/self-hosting.md advises), a home holding NOTES varied notes
 * (bench/load/corpus.ts generateVaried) whose index cache is already built (`memdesk list` ran once),
 * `memdesk login --origin URL --token T`, then `memdesk sync --scope user` timed whole — a cold
 * process that loads the notes, uploads them and keeps its baseline copies. Each run is a new
 * account and a fresh copy of the home, so every run is a first sync.
 * Baselines in the same run: `node -e 0`, and `tar -czf` of the same notes (what packing them costs).
 * Wall from here, CPU (user + sys) of the CLI from /usr/bin/time; medians of --runs (default 3).
 *
 *   npx tsx bench/sync/cli-first-sync.ts [--notes 5000] [--runs 3]
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCliBundle } from '../../scripts/build-cli.js';
import { signUserToken } from '../../server/token.js';
import { arg, generateVaried, median, rng, runsFooter } from '../load/corpus.js';
import { startPrintingServer, timedProcess } from '../load/processes.js';

const NOTES = arg('notes', 5000);
const RUNS = arg('runs', 3);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SECRET = `bench-${randomBytes(16).toString('hex')}`;
const ENV: NodeJS.ProcessEnv = { ...process.env };
delete ENV.NODE_EXTRA_CA_CERTS; // read by Node at every start here, on most machines not at all

interface Timing {
  wall: number;
  cpu: number;
}

async function timed(cmd: string[]): Promise<Timing & { stdout: string }> {
  const run = await timedProcess(cmd, { env: ENV });
  if (run.code !== 0) throw new Error(`${cmd.join(' ')} exited ${run.code}: ${run.stderr}`);
  return run;
}

const startServer = (dataDir: string) =>
  startPrintingServer(['--import', 'tsx', 'server/main.ts', '--port', '0', '--data', dataDir], {
    cwd: REPO,
    env: {
      ...ENV,
      OHARNESS_SYNC_JWT_SECRET: SECRET,
      OHARNESS_SYNC_RATE_LIMIT: '0',
      UV_THREADPOOL_SIZE: '16',
    },
  });

const ms = (x: number): string => `${Math.round(x)} ms`;

async function main(): Promise<void> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'memdesk-bench-cli-sync-'));
  const server = await startServer(path.join(base, 'server'));
  try {
    const bin = await buildCliBundle(path.join(base, 'cli'));
    const node = process.execPath;
    const template = path.join(base, 'template-home');
    const userDir = path.join(template, 'memory', 'user');
    await generateVaried(userDir, 'u', NOTES, rng(42));
    await timed([node, bin, '--home', template, 'list', '--scope', 'user']); // builds the index cache
    const bytes = (await timed(['sh', '-c', `tar -C "${userDir}" -cf - . | gzip -c | wc -c`])).stdout.trim();

    const rows: Record<string, Timing[]> = {};
    const push = (name: string, t: Timing): void => void (rows[name] ??= []).push(t);
    for (let r = 0; r < RUNS; r++) {
      push('node -e 0', await timed([node, '-e', '0']));
      push(
        'tar -czf of the notes',
        await timed(['tar', '-C', userDir, '-czf', path.join(base, `notes-${r}.tgz`), '.']),
      );
      const home = path.join(base, `home-${r}`);
      await fs.cp(template, home, { recursive: true });
      const token = await signUserToken({
        secret: SECRET,
        user: `bench-${r}`,
        plan: 'paid',
        ttlSeconds: 3600,
      });
      await timed([node, bin, '--home', home, 'login', '--origin', server.url, '--token', token]);
      const sync = await timed([node, bin, '--home', home, 'sync', '--scope', 'user']);
      if (!/pushed \d+/.test(sync.stdout)) throw new Error(`unexpected sync answer: ${sync.stdout}`);
      const pushed = Number(/pushed (\d+)/.exec(sync.stdout)![1]);
      if (pushed !== NOTES) throw new Error(`pushed ${pushed} of ${NOTES} notes: ${sync.stdout}`);
      push('memdesk sync --scope user (first sync)', sync);
      await fs.rm(home, { recursive: true, force: true });
    }

    const nodeRow = {
      wall: median(rows['node -e 0']!.map((t) => t.wall)),
      cpu: median(rows['node -e 0']!.map((t) => t.cpu)),
    };
    console.log(
      `\nFirst sync of ${NOTES} notes through the CLI (notes as tar.gz: ${(Number(bytes) / 1e6).toFixed(2)} MB)`,
    );
    console.log('| command | wall | cpu | cpu ratio to node -e 0 |');
    console.log('|---|---|---|---|');
    for (const [name, ts] of Object.entries(rows)) {
      const t = { wall: median(ts.map((x) => x.wall)), cpu: median(ts.map((x) => x.cpu)) };
      console.log(`| ${name} | ${ms(t.wall)} | ${ms(t.cpu)} | ${(t.cpu / nodeRow.cpu).toFixed(1)}× |`);
    }
    console.log(runsFooter(RUNS));
  } finally {
    server.child.kill();
    await fs.rm(base, { recursive: true, force: true });
  }
}

await main();
