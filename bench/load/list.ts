/**
 * bench/load/list: `notes.list` (scope both) at 2 scopes × 5000 notes, through invokeApi on the real
 * handler table, plus the JSON the HTTP bridge would send — against a bare readdir + readFile of the
 * same files in the same run. Splits the time: the first list after a load (hashes computed on
 * first use), later lists, and JSON.stringify of the reply. Also the first `remember` (which builds
 * the search index for related/duplicate detection).
 *
 *   npx tsx bench/load/list.ts [--notes 5000] [--rounds 7]
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { createAppRoot } from '../../electron/app/app-root.js';
import { invokeApi } from '../../electron/api/dispatch.js';
import { createHandlers } from '../../electron/api/handlers.js';
import { arg, bareRead, generateHome, median } from './corpus.js';

const NOTES = arg('notes', 5000);
const ROUNDS = arg('rounds', 7);

async function main(): Promise<void> {
  const { base, home, root, projectDir, userDir } = await generateHome('list', NOTES);
  await bareRead([projectDir, userDir]);

  const rows: Record<string, number[]> = {
    bare: [],
    firstList: [],
    laterList: [],
    json: [],
    firstRemember: [],
  };
  let count = 0;
  let bytes = 0;
  for (let r = 0; r < ROUNDS; r++) {
    let t = performance.now();
    await bareRead([projectDir, userDir]);
    rows.bare!.push(performance.now() - t);

    // Room for the one note the remember timing adds (the default memory.maxNotes is 5000).
    const { ctx } = await createAppRoot({ home, env: { OHARNESS_MEMORY_MAX_NOTES: '20000' } }).open({
      projectRoot: root,
    });
    const handlers = createHandlers(ctx);
    t = performance.now();
    const first = (await invokeApi(handlers, 'notes.list', { scope: 'both' })) as { notes: unknown[] };
    rows.firstList!.push(performance.now() - t);
    t = performance.now();
    const later = await invokeApi(handlers, 'notes.list', { scope: 'both' });
    rows.laterList!.push(performance.now() - t);
    t = performance.now();
    bytes = JSON.stringify(later).length;
    rows.json!.push(performance.now() - t);
    count = first.notes.length;

    t = performance.now();
    const out = (await invokeApi(handlers, 'notes.remember', {
      summary: 'pricing card layout uses fills',
      body: 'A bench note.',
      scope: 'user',
    })) as { id: string };
    rows.firstRemember!.push(performance.now() - t);
    await invokeApi(handlers, 'notes.forget', { id: out.id, scope: 'user' });
    await ctx.core.close();
  }
  await fs.rm(base, { recursive: true, force: true });
  const b = median(rows.bare!);
  console.log(
    `notes: ${count} (2 scopes × ${NOTES}), rounds ${ROUNDS}, reply ${(bytes / 1e6).toFixed(2)} MB JSON, load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
  );
  for (const [name, xs] of Object.entries(rows)) {
    const m = median(xs);
    console.log(
      `${name.padEnd(14)} median ${m.toFixed(1).padStart(7)} ms  (${(m / b).toFixed(2)}× bare read)`,
    );
  }
}

await main();
