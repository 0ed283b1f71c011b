import fs from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { readArchive } from '../archive/zip-format.js';
import { readMnemopiBank } from '../mnemopi/read-bank.js';
import type { ImportTask, WorkerReply } from './tasks.js';

/** The import worker (run-in-worker.ts): reads one zip or the banks of one import and posts the result, writes nothing. */
async function run(task: ImportTask): Promise<WorkerReply> {
  try {
    if (task.kind === 'zip') {
      const data = new Uint8Array(await fs.readFile(task.file));
      return { ok: true, result: readArchive(data, task.limits) };
    }
    const banks = [];
    for (const file of task.files) banks.push(await readMnemopiBank(file, task.limits));
    return { ok: true, result: banks };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

parentPort!.postMessage(await run(workerData as ImportTask));
