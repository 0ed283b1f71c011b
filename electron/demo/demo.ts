import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startWebBridge } from '../transports/http/web-bridge.js';
import { defaultSeedDirs, seedSampleNotes } from './seed.js';

/**
 * `npm run demo`: the Memory page in a browser, on http://127.0.0.1:4319, over a fresh temporary
 * OHARNESS_HOME and a sample project, logged out of sync. It never reads the real home: without
 * --home it makes its own. --home/--project serve existing data instead of the sample.
 */
const USAGE = `usage: npm run demo -- [--home DIR] [--project DIR] [--port P]
  --home DIR      serve this OHARNESS_HOME instead of a fresh temporary one
  --project DIR   serve this project (its MEMORY/) instead of the sample project
  --port P        listen on 127.0.0.1:P (default 4319; 0 picks a free port)`;

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({
      options: {
        home: { type: 'string' },
        project: { type: 'string' },
        port: { type: 'string', default: '4319' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a number from 0 to 65535, not "${args.port}"`);
    process.exit(2);
  }

  const temp =
    args.home === undefined || args.project === undefined
      ? await fs.mkdtemp(path.join(os.tmpdir(), 'memory-desk-demo-'))
      : null;
  const home = path.resolve(args.home ?? path.join(temp!, 'home'));
  const projectRoot = path.resolve(args.project ?? path.join(temp!, 'sample-project'));
  const seeding = args.home === undefined && args.project === undefined;
  if (seeding) await seedSampleNotes(defaultSeedDirs(home, projectRoot));
  await fs.mkdir(home, { recursive: true });

  const bridge = await startWebBridge({ home, projectRoot, port });
  if (seeding) await bridge.context.core.registerProject();

  console.log(`Memory Desk demo — ${seeding ? 'sample data' : 'your data'}:`);
  console.log(`  OHARNESS_HOME  ${home}`);
  console.log(`  project        ${projectRoot}`);
  console.log(`Open ${bridge.url}`);
  console.log("(The link carries this run's secret. Ctrl+C stops the demo.)");

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await bridge.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'EADDRINUSE')
    console.error(`Port already in use: another demo may be running. Try --port 0 or another port.`);
  else console.error(`The demo could not start: ${e.message}`);
  process.exit(1);
});
